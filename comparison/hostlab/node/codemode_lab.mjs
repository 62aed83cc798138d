// The host lab's driver for @cloudflare/codemode, a library with no model of its own: its `code`
// tool is what a model calls, so what that tool answers is what reaches the model.
//
// Usage: node codemode_lab.mjs TOOL ARGUMENTS_JSON -- SERVER_COMMAND [ARG...]
//        node codemode_lab.mjs TOOL ARGUMENTS_JSON -- --url STREAMABLE_HTTP_URL
// TOOL "*" calls every tool of the server once (the conformance suite's client scenarios).
// The upstream runs over stdio; codemode wraps it (codeMcpServer), a script calls TOOL once, and
// stdout gets {"text", "isError", "content", "script", "functions"}: the `code` tool's result as the
// host's model sees it, what the script's call returned or threw, and the functions it was offered.
import { register } from "node:module";

register("./workers-stub.mjs", import.meta.url);

const split = process.argv.indexOf("--");
const [tool, argumentsJson] = process.argv.slice(2, split);
const [command, ...args] = process.argv.slice(split + 1);

const { codeMcpServer } = await import("@cloudflare/codemode/mcp");
const { Server } = await import("@modelcontextprotocol/sdk/server/index.js");
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
const { ListToolsRequestSchema, CallToolRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
const { z } = await import("zod");

const anything = z.object({}).passthrough();
const upstreamClient = new Client({ name: "codemode-lab", version: "1.0.0" });
await upstreamClient.connect(
  command === "--url"
    ? new StreamableHTTPClientTransport(new URL(args[0]), {
        requestInit: { headers: JSON.parse(process.env.CODEMODE_LAB_HEADERS || "{}") },
      })
    : new StdioClientTransport({ command, args, stderr: "ignore" }),
);

// The wrapped server forwards raw: codemode's own SDK client does the validating, as in use.
const upstream = new Server({ name: "upstream", version: "1.0.0" }, { capabilities: { tools: {} } });
upstream.setRequestHandler(ListToolsRequestSchema, async (request) =>
  upstreamClient.request({ method: "tools/list", params: request.params ?? {} }, anything),
);
upstream.setRequestHandler(CallToolRequestSchema, async (request) =>
  upstreamClient.request({ method: "tools/call", params: request.params }, anything),
);

const simple = (name) => name.toLowerCase().replace(/[^a-z0-9]+/g, "_");
// What a model would fill in from a tool's input schema (defaults, first enum value, or a value of
// the property's type): the same rule as the fake model's (fake_model.sample_arguments).
const SAMPLES = { integer: 2, number: 3, string: "lab", boolean: true, array: [], object: {}, null: null };
const sample = (schema, depth = 0) => {
  const found = {};
  if (!schema || typeof schema !== "object" || depth > 4) return found;
  for (const [name, prop] of Object.entries(schema.properties || {})) {
    const kind = Array.isArray(prop.type) ? prop.type[0] : prop.type;
    if ("default" in prop) found[name] = prop.default;
    else if (Array.isArray(prop.enum) && prop.enum.length) found[name] = prop.enum[0];
    else if (kind === "object") found[name] = sample(prop, depth + 1);
    else found[name] = kind in SAMPLES ? SAMPLES[kind] : "lab";
  }
  return found;
};
const schemas = Object.fromEntries(
  ((await upstreamClient.listTools()).tools || []).map((t) => [simple(t.name), t.inputSchema]),
);
let script = null;
let functions = [];
const executor = {
  async execute(_code, providers) {
    const fns = providers[0].fns;
    functions = Object.keys(fns);
    const names = tool === "*" ? functions : [functions.find((candidate) => simple(candidate) === simple(tool))];
    try {
      let value;
      const given = JSON.parse(argumentsJson || "{}");
      for (const name of names) {
        value = await fns[name](Object.keys(given).length ? given : sample(schemas[simple(name)]));
      }
      script = { value: value === undefined ? null : value };
      return { result: script.value };
    } catch (error) {
      script = { throws: error instanceof Error ? error.message : String(error) };
      return { error: script.throws };
    }
  },
};
const server = await codeMcpServer({ server: upstream, executor });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const host = new Client({ name: "host", version: "1.0.0" });
await host.connect(clientSide);
const reply = await host.callTool({ name: "code", arguments: { code: `async () => await codemode.${simple(tool)}({})` } });
const text = (reply.content || []).filter((block) => block.type === "text").map((block) => block.text).join("\n");
process.stdout.write(JSON.stringify({ text, isError: Boolean(reply.isError), content: reply.content, script, functions }));
await host.close();
await server.close();
await upstreamClient.close();
process.exit(0);
