// What the real @cloudflare/codemode package does with an upstream whose tools span two pages and
// change during the session: which tools its `code` tool offers a script, before and after the
// upstream announces `tools/list_changed`, and what its client told the upstream.
//
// Output (stdout): {"listed_cursors", "offered_before", "offered_after", "described", "told"}, where
//   offered_*  = the tool functions a script gets (the executor's providers),
//   described  = the upstream tools named in the `code` tool's description,
//   told       = the capabilities and clientInfo codemode's client sent at initialize.
import { register } from "node:module";

register("./workers-stub.mjs", import.meta.url);

const { codeMcpServer } = await import("@cloudflare/codemode/mcp");
const { Server } = await import("@modelcontextprotocol/sdk/server/index.js");
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
const { ListToolsRequestSchema, CallToolRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");

const tool = (name) => ({ name, description: `the ${name} tool`, inputSchema: { type: "object", properties: {} } });
const pages = { first: [tool("first_page_tool")], second: [tool("second_page_tool")] };
const listedCursors = [];

const upstream = new Server({ name: "paged", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
upstream.setRequestHandler(ListToolsRequestSchema, async (request) => {
  const cursor = request.params?.cursor ?? null;
  listedCursors.push(cursor);
  return cursor === "page-2" ? { tools: pages.second } : { tools: pages.first, nextCursor: "page-2" };
});
upstream.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: "text", text: "ok" }] }));

let offered = [];
const executor = {
  async execute(_code, providers) {
    offered = providers.flatMap((provider) => Object.keys(provider.fns ?? {}));
    return { result: null };
  },
};
const server = await codeMcpServer({ server: upstream, executor });
const told = { capabilities: upstream.getClientCapabilities(), clientInfo: upstream.getClientVersion() };
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const host = new Client({ name: "host", version: "1.0.0" });
await host.connect(clientSide);

const run = async () => {
  offered = [];
  await host.callTool({ name: "code", arguments: { code: "async () => null" } });
  return offered;
};
const offeredBefore = await run();
const { tools } = await host.listTools();
const description = tools.find((item) => item.name === "code")?.description ?? "";
const described = [...pages.first, ...pages.second, tool("added_tool")]
  .map((item) => item.name)
  .filter((name) => description.includes(name));

pages.second = [...pages.second, tool("added_tool")];
await upstream.sendToolListChanged();
await new Promise((resolve) => setTimeout(resolve, 200));
const offeredAfter = await run();

process.stdout.write(
  JSON.stringify({ listed_cursors: listedCursors, offered_before: offeredBefore, offered_after: offeredAfter, described, told }),
);
await host.close();
await server.close();
