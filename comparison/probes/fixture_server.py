"""The fixture upstream: an MCP server on the official Python SDK that emits every content type,
prompt shape and failure (comparison/probes/fixture_content.py), at every revision.

Tool results bypass the SDK's result models (a middleware answers `tools/call` with the raw
dict), because the SDK refuses some of what the fixture must send. Everything else is typed, so
the SDK's own negotiation, sessions and the 2026-07-28 stateless style are the real ones.

    python -m comparison.probes.fixture_server --port 8931      # Streamable HTTP on 127.0.0.1
    python -m comparison.probes.fixture_server --stdio
"""

from __future__ import annotations

import argparse
import copy
import json
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from registers.vocabulary import Revision as R

from .fixture_content import PROMPTS, RESOURCES, TOOLS, ToolError

STATELESS_REVISION = R.V2026_07_28
INPUT_SCHEMA = {"type": "object", "properties": {"count": {"type": "integer"}}}


async def list_tools(ctx, params) -> types.ListToolsResult:
    tools = []
    for name, (description, _, output_schema) in TOOLS.items():
        tool: dict[str, Any] = {"name": name, "description": description, "inputSchema": INPUT_SCHEMA}
        if output_schema:
            tool["outputSchema"] = output_schema
        tools.append(types.Tool.model_validate(tool))
    return types.ListToolsResult(tools=tools)


async def list_prompts(ctx, params) -> types.ListPromptsResult:
    prompts = []
    for name, prompt in PROMPTS.items():
        data: dict[str, Any] = {"name": name, "description": prompt["description"]}
        if prompt.get("title"):
            data["title"] = prompt["title"]
        if prompt.get("icons"):
            data["icons"] = prompt["icons"]
        if prompt.get("arguments"):
            data["arguments"] = prompt["arguments"]
        prompts.append(types.Prompt.model_validate(data))
    return types.ListPromptsResult(prompts=prompts)


async def get_prompt(ctx, params) -> types.GetPromptResult:
    prompt = PROMPTS.get(params.name)
    if prompt is None:
        raise MCPError(-32602, f"Unknown prompt: {params.name}")
    messages = prompt["messages"]
    if prompt.get("arguments"):
        # Fill `{name}` placeholders with the given arguments (the conformance prompts need it).
        text = json.dumps(messages)
        for name, value in (params.arguments or {}).items():
            text = text.replace("{" + name + "}", json.dumps(str(value))[1:-1])
        messages = json.loads(text)
    return types.GetPromptResult.model_validate({"description": prompt["description"], "messages": messages})


async def list_resources(ctx, params) -> types.ListResourcesResult:
    return types.ListResourcesResult(
        resources=[
            types.Resource.model_validate({"uri": uri, "name": item["name"], "mimeType": item["mimeType"]})
            for uri, item in RESOURCES.items()
        ]
    )


async def read_resource(ctx, params) -> types.ReadResourceResult:
    item = RESOURCES.get(str(params.uri))
    if item is None:
        raise MCPError(-32002, f"Resource not found: {params.uri}")
    contents = {key: item[key] for key in ("mimeType", "text", "blob") if key in item}
    return types.ReadResourceResult.model_validate({"contents": [{"uri": str(params.uri), **contents}]})


async def raw_tool_results(ctx, call_next):
    """Answer tools/call with the fixture's dict as is (or raise its JSON-RPC error)."""
    if ctx.method != "tools/call":
        return await call_next(ctx)
    name = (ctx.params or {}).get("name")
    if name not in TOOLS:
        raise MCPError(-32602, f"Unknown tool: {name}")
    outcome = TOOLS[name][1]
    if isinstance(outcome, ToolError):
        raise MCPError(outcome.code, outcome.message, outcome.data)
    result = copy.deepcopy(outcome)
    if ctx.protocol_version == STATELESS_REVISION:
        result.setdefault("resultType", "complete")
    return result


def build_server() -> Server:
    server = Server(
        "mcp-compare-fixture",
        version="1.0.0",
        title="mcp-compare fixture upstream",
        instructions="Returns every MCP content type, prompt shape and failure, for probing proxies.",
        on_list_tools=list_tools,
        on_call_tool=None,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )
    server.middleware.append(raw_tool_results)
    return server


def serve_stdio() -> None:
    """One session on this process's standard input and output."""
    from mcp.server.stdio import stdio_server

    server = build_server()

    async def run_stdio() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(run_stdio)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8931)
    parser.add_argument("--stdio", action="store_true")
    args = parser.parse_args(argv)
    if args.stdio:
        serve_stdio()
        return
    server = build_server()
    import uvicorn

    app = server.streamable_http_app(host="127.0.0.1")
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
