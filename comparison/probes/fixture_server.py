"""The fixture upstream: an MCP server on the official Python SDK that emits every content type,
prompt shape and failure (comparison/probes/fixture_content.py), at every revision.

Tool results bypass the SDK's result models (a middleware answers `tools/call` with the raw
dict), because the SDK refuses some of what the fixture must send. Everything else is typed, so
the SDK's own negotiation, sessions and the 2026-07-28 stateless style are the real ones.

    python -m comparison.probes.fixture_server --port 8931      # Streamable HTTP on 127.0.0.1
    python -m comparison.probes.fixture_server --port 8931 --sse  # the deprecated HTTP+SSE at /sse
    python -m comparison.probes.fixture_server --stdio
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import warnings
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated, ToolsListChanged
from mcp.shared.exceptions import MCPError

from comparison.probes import fixture_conformance, fixture_journal
from comparison.probes.catalogue import FAMILY_TOOLS, INPUT_SCHEMA, prompt_entries, resource_entries, tool_entries
from comparison.probes.families import caching, cancellation, changes, pagination, upstream_told
from comparison.probes.families import logging as logging_family
from comparison.probes.fixture_content import PROMPTS, RESOURCES, TOOLS, ToolError
from comparison.probes.wire import RUN_META
from registers.core.vocabulary import Revision as R

STATELESS_REVISION = R.V2026_07_28
#: The events of the `subscriptions/listen` streams of this process (list changes, updates).
BUS = InMemorySubscriptionBus()
PAGED = {method: later for method, (_, _, later) in pagination.LISTS.items()}


def _page(first: list[Any], later: list[Any], params) -> tuple[list[Any], str | None]:
    """One page of a list (families.pagination); a cursor the fixture never gave is invalid params."""
    try:
        return pagination.page(first, later, getattr(params, "cursor", None))
    except pagination.BadCursor as error:
        raise MCPError(-32602, str(error)) from None


async def list_tools(ctx, params) -> types.ListToolsResult:
    later = [
        {"name": name, "description": "a tool of a later page", "inputSchema": INPUT_SCHEMA}
        for name in PAGED["tools/list"]
    ]
    items, cursor = _page(tool_entries(), later, params)
    hints = caching.LIST_HINTS if ctx.protocol_version >= caching.FROM else {}
    return types.ListToolsResult.model_validate(
        {"tools": items, "nextCursor": cursor, **hints} if cursor else {"tools": items, **hints}
    )


async def list_prompts(ctx, params) -> types.ListPromptsResult:
    prompts = prompt_entries()
    later = [{"name": name, "description": "a prompt of a later page"} for name in PAGED["prompts/list"]]
    items, cursor = _page(prompts, later, params)
    return types.ListPromptsResult(prompts=[types.Prompt.model_validate(p) for p in items], next_cursor=cursor)


async def get_prompt(ctx, params) -> types.GetPromptResult:
    if params.name in PAGED["prompts/list"]:
        return types.GetPromptResult.model_validate(
            {"messages": [{"role": "user", "content": {"type": "text", "text": f"{params.name}"}}]}
        )
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
    first = resource_entries()
    later = [{"uri": uri, "name": uri.rsplit("/", 1)[-1], "mimeType": "text/plain"} for uri in PAGED["resources/list"]]
    items, cursor = _page(first, later, params)
    return types.ListResourcesResult(resources=[types.Resource.model_validate(r) for r in items], next_cursor=cursor)


async def list_resource_templates(ctx, params) -> types.ListResourceTemplatesResult:
    templates = [{"uriTemplate": t, "name": t.rsplit("/", 1)[-1]} for t in PAGED["resources/templates/list"]]
    items, cursor = _page(templates[:1], templates[1:], params)
    return types.ListResourceTemplatesResult(
        resource_templates=[types.ResourceTemplate.model_validate(t) for t in items], next_cursor=cursor
    )


async def read_resource(ctx, params) -> types.ReadResourceResult:
    if (templated := fixture_conformance.template_read(str(params.uri))) is not None:
        return types.ReadResourceResult.model_validate(templated)
    if str(params.uri) in PAGED["resources/list"]:
        return types.ReadResourceResult.model_validate({"contents": [{"uri": str(params.uri), "text": "paged"}]})
    item = RESOURCES.get(str(params.uri))
    if item is None:
        raise MCPError(-32002, f"Resource not found: {params.uri}")
    contents = {key: item[key] for key in ("mimeType", "text", "blob") if key in item}
    hints = caching.READ_HINTS if ctx.protocol_version >= caching.FROM else {}
    return types.ReadResourceResult.model_validate({"contents": [{"uri": str(params.uri), **contents}], **hints})


class SdkUpstream:
    """The fixture's side of one request as the scenario families see it (families.base.Upstream).
    Messages go out raw through the request's own channel, so they keep the revision's exact form
    and ride the request's stream on HTTP."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.request_id = ctx.request_id
        self.protocol_version = ctx.protocol_version
        self.params = dict(ctx.params or {})
        self.meta = dict(self.params.get("_meta") or {})
        capabilities = ctx.session.client_capabilities
        self.client_capabilities = (
            capabilities.model_dump(by_alias=True, exclude_none=True, mode="json") if capabilities else {}
        )
        client = ctx.session.client_params
        if client is not None:
            self.client_info = client.client_info.model_dump(by_alias=True, exclude_none=True, mode="json")
        else:
            self.client_info = dict(self.meta.get("io.modelcontextprotocol/clientInfo") or {})
        raw_headers = getattr(ctx.request, "headers", None)
        self.headers = dict(raw_headers) if raw_headers is not None else None
        self.session_id = (self.headers or {}).get("mcp-session-id") or f"process-{os.getpid()}"

    @property
    def _channel(self):
        return self.ctx.session._request_outbound  # the SDK's per-request channel: raw messages

    async def notify(self, method: str, params: dict[str, Any]) -> None:
        await self._channel.notify(method, params)

    async def announce(self, method: str, params: dict[str, Any]) -> None:
        """A notification tied to no request: the connection's own channel (the GET stream)."""
        await self.ctx.session._connection.outbound.notify(method, params)

    async def publish(self, kind: str, uri: str) -> None:
        """An event for the `subscriptions/listen` streams (2026-07-28)."""
        await BUS.publish(ToolsListChanged() if kind == "tools" else ResourceUpdated(uri=uri))

    async def request(self, method: str, params: dict[str, Any], timeout: float = 3.0) -> dict[str, Any]:
        try:
            with anyio.fail_after(timeout):
                return {"result": await self._channel.send_raw_request(method, params)}
        except TimeoutError:
            return {"error": {"code": None, "message": f"no answer within {timeout:.0f} s"}}
        except MCPError as error:
            return {"error": {"code": error.code, "message": str(error)[:300]}}
        except Exception as error:  # no back-channel, a malformed answer: what the upstream got
            return {"error": {"code": None, "message": f"{type(error).__name__}: {str(error)[:300]}"}}

    async def sleep(self, seconds: float) -> None:
        await anyio.sleep(seconds)

    def record(self, key: str, event: dict[str, Any]) -> None:
        fixture_journal.record(key, event)

    def journal(self, key: str) -> list[dict[str, Any]]:
        return fixture_journal.read(key)


async def subscribe_resource(ctx, params) -> types.EmptyResult:
    changes.subscribe(SdkUpstream(ctx).session_id, str(params.uri))
    return types.EmptyResult()


async def unsubscribe_resource(ctx, params) -> types.EmptyResult:
    changes.SUBSCRIBED.get(SdkUpstream(ctx).session_id, set()).discard(str(params.uri))
    return types.EmptyResult()


async def complete(ctx, params) -> types.CompleteResult:
    found = params.model_dump(by_alias=True, exclude_none=True, mode="json")
    return types.CompleteResult.model_validate(fixture_conformance.complete(found["ref"], found["argument"]))


async def set_logging_level(ctx, params) -> types.EmptyResult:
    logging_family.SESSION_LEVELS[SdkUpstream(ctx).session_id] = str(params.level)
    return types.EmptyResult()


async def raw_tool_results(ctx, call_next):
    """Answer tools/call with the fixture's dict as is (or raise its JSON-RPC error); a family's
    tool runs against the request (families.base.Upstream); cancels are journalled."""
    if ctx.method == "initialize" and isinstance(ctx.params, dict):
        answer = await call_next(ctx)
        client = ctx.params.get("clientInfo") if isinstance(ctx.params.get("clientInfo"), dict) else {}
        connection = getattr(ctx.session, "_connection", None)
        session = getattr(connection, "session_id", None) or f"process-{os.getpid()}"
        meta = ctx.params.get("_meta") if isinstance(ctx.params.get("_meta"), dict) else {}
        version = str(ctx.params.get("protocolVersion", ""))
        upstream_told.session_opened(session, str(client.get("name", "")), version, str(meta.get(RUN_META, "")))
        return answer
    if ctx.method == "notifications/cancelled" and isinstance(ctx.params, dict):
        cancellation.cancel_received(SdkUpstream(ctx), ctx.params)
        return await call_next(ctx)
    if ctx.method == "resources/read" and (ctx.params or {}).get("uri") == caching.PRIVATE_URI:
        result = caching.private_read(dict((ctx.params or {}).get("_meta") or {}))
        if ctx.protocol_version == STATELESS_REVISION:
            result["resultType"] = "complete"
        return result
    if ctx.method != "tools/call":
        return await call_next(ctx)
    name = (ctx.params or {}).get("name")
    if name in FAMILY_TOOLS:
        arguments = (ctx.params or {}).get("arguments")
        result = await FAMILY_TOOLS[name].run(SdkUpstream(ctx), arguments if isinstance(arguments, dict) else {})
        if ctx.protocol_version == STATELESS_REVISION:
            result.setdefault("resultType", "complete")
        return result
    if name in PAGED["tools/list"]:
        return {"content": [{"type": "text", "text": name}]}
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
    with warnings.catch_warnings():
        # Logging is deprecated at 2026-07-28 (SEP-2577); the fixture serves every revision.
        warnings.simplefilter("ignore")
        server = _server()
    server.middleware.append(raw_tool_results)
    return server


def _server() -> Server:
    return Server(
        "mcp-compare-fixture",
        version="1.0.0",
        title="mcp-compare fixture upstream",
        instructions="Returns every MCP content type, prompt shape and failure, for probing proxies.",
        on_list_tools=list_tools,
        on_call_tool=None,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_list_resources=list_resources,
        on_list_resource_templates=list_resource_templates,
        on_read_resource=read_resource,
        on_set_logging_level=set_logging_level,
        on_completion=complete,
        on_subscribe_resource=subscribe_resource,
        on_unsubscribe_resource=unsubscribe_resource,
        on_subscriptions_listen=ListenHandler(BUS),
    )


def serve_stdio() -> None:
    """One session on this process's standard input and output."""
    from mcp.server.stdio import stdio_server

    server = build_server()

    async def run_stdio() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(run_stdio)


def recording_get_streams(app):
    """The HTTP app, noting which sessions open a GET stream (families.upstream_told)."""

    async def recording(scope, receive, send):
        if scope.get("type") == "http" and scope.get("method") == "GET":
            headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
            if headers.get("mcp-session-id"):
                upstream_told.stream_opened(headers["mcp-session-id"])
        await app(scope, receive, send)

    return recording


def legacy_sse_app(server: Server):
    """The deprecated HTTP+SSE transport (2024-11-05's): a GET on /sse opens the session's one
    stream, which names where to POST; every answer comes on that stream."""
    from mcp.server.sse import SseServerTransport
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Mount, Route

    sse = SseServerTransport("/messages/")

    async def session(request):
        async with sse.connect_sse(request.scope, request.receive, request._send) as (read, write):
            await server.run(read, write, server.create_initialization_options())
        return Response()

    return Starlette(routes=[Route("/sse", session), Mount("/messages/", app=sse.handle_post_message)])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8931)
    parser.add_argument("--stdio", action="store_true")
    parser.add_argument("--sse", action="store_true", help="serve the deprecated HTTP+SSE transport instead")
    args = parser.parse_args(argv)
    if args.stdio:
        serve_stdio()
        return
    server = build_server()
    import uvicorn

    if args.sse:
        app, path = legacy_sse_app(server), "sse"
    else:
        app, path = recording_get_streams(server.streamable_http_app(host="127.0.0.1")), "mcp"
    # Standard error: standard output is the protocol's channel in stdio mode, kept clean in both.
    print(f"fixture MCP server: http://127.0.0.1:{args.port}/{path} (Ctrl-C stops it)", file=sys.stderr, flush=True)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
