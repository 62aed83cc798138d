// Runs tool results through the real @cloudflare/codemode package and prints what it makes of each.
//
// Input (stdin): a JSON array of {"name": ..., "input": <CallToolResult as the server sends it>}.
// Output (stdout): a JSON array of {"name", "script", "host", "connector"} where
//   script    = what the script's `await codemode.tool()` got: {"value": ...} or {"throws": message}
//               (codeMcpServer wrapping an upstream McpServer, results travelling through the MCP SDK),
//   host      = the wrapping `code` tool's result as its host sees it: {"text", "isError"},
//   connector = the same call through McpConnector with no SDK in between.
import { register } from "node:module";
import { readFileSync } from "node:fs";

register("./workers-stub.mjs", import.meta.url);

const cases = JSON.parse(readFileSync(0, "utf8"));
const copy = (value) => JSON.parse(JSON.stringify(value));
const outcome = async (run) => {
  try {
    const value = await run();
    return { value: value === undefined ? null : value };
  } catch (error) {
    return { throws: error instanceof Error ? error.message : String(error) };
  }
};

const { codeMcpServer } = await import("@cloudflare/codemode/mcp");
const { McpConnector } = await import("@cloudflare/codemode");
const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
const { ListToolsRequestSchema, CallToolRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");

let answer = null;
const TOOL = { name: "probe", description: "answers with the case's result", inputSchema: { type: "object", properties: {} } };

const upstream = new McpServer({ name: "upstream", version: "1.0.0" }, { capabilities: { tools: {} } });
upstream.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [TOOL] }));
upstream.server.setRequestHandler(CallToolRequestSchema, async () => copy(answer));

// The sandbox is replaced by a direct call: the script is "return await codemode.probe({})".
let scriptSaw = null;
const executor = {
  async execute(_code, providers) {
    scriptSaw = await outcome(() => providers[0].fns.probe({}));
    return "throws" in scriptSaw ? { error: scriptSaw.throws } : { result: scriptSaw.value };
  },
};
const server = await codeMcpServer({ server: upstream, executor });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const host = new Client({ name: "host", version: "1.0.0" });
await host.connect(clientSide);

class CaseConnector extends McpConnector {
  name() { return "probe"; }
  createConnection() {
    return { client: { callTool: async () => copy(answer) }, tools: [TOOL] };
  }
}
const connectorTools = await new CaseConnector({}, {}).tools();

const results = [];
for (const item of cases) {
  answer = item.input;
  scriptSaw = null;
  const reply = await host.callTool({ name: "code", arguments: { code: "async () => await codemode.probe({})" } });
  const text = (reply.content || []).filter((block) => block.type === "text").map((block) => block.text).join("\n");
  results.push({
    name: item.name,
    script: scriptSaw,
    host: { text, isError: Boolean(reply.isError) },
    connector: await outcome(() => connectorTools.probe.execute({})),
  });
}
process.stdout.write(JSON.stringify(results));
await host.close();
await server.close();
