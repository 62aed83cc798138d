"""The fixture upstream pinned to some revisions: it answers as a server of only those does
(comparison/probes/era_gate.py), for the cross-era grid. The fixture itself
(comparison/probes/fixture_server.py) is untouched, so what the host lab measured of it holds.

    python -m comparison.probes.fixture_pinned --stdio --revisions 2024-11-05
    python -m comparison.probes.fixture_pinned --port 8931 --revisions 2026-07-28

`--revisions` takes a comma-separated list, or `all` (the fixture as it is); without it, the
environment's MCP_COMPARE_UPSTREAM_REVISIONS is read (for a proxy that passes its environment to
the upstream it spawns). Over HTTP, a server of 2024-11-05 alone serves only the HTTP+SSE
transport, at the same URL (/mcp) as well as /sse; one of 2026-07-28 alone refuses GET and DELETE.

Unpinned over HTTP, one process also serves every pin at `/pinned/R1[,R2…]/mcp`: a proxy that
reaches its upstream by URL is pinned by `http://127.0.0.1:PORT/pinned/${MCP_COMPARE_UPSTREAM_REVISIONS}/mcp`
in its command, and the grid starts no fixture per upstream revision.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys

import anyio
import mcp_types as types

from comparison.probes import era_gate, fixture_server
from comparison.probes.pinning import PIN_VARIABLE


def pin_from(argument: str | None) -> era_gate.Pin | None:
    """The pin of `--revisions`, else of the environment; none serves every revision."""
    return era_gate.parse_pin(argument if argument is not None else os.environ.get(PIN_VARIABLE))


async def _serve_gated(server, pin: era_gate.Pin | None, read, write) -> None:
    """The server on a connection's streams, every message the client sends through the pin's gate."""
    if pin is None:
        await server.run(read, write, server.create_initialization_options())
        return
    gated_send, gated_read = anyio.create_memory_object_stream(16)
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(_gate_stdio, era_gate.RevisionGate(pin), read, write, gated_send)
        await server.run(gated_read, write, server.create_initialization_options())
        tasks.cancel_scope.cancel()


def serve_stdio(pin: era_gate.Pin | None = None) -> None:
    """One session on this process's standard input and output."""
    from mcp.server.stdio import stdio_server

    server = fixture_server.build_server()

    async def run_stdio() -> None:
        async with stdio_server() as (read, write):
            await _serve_gated(server, pin, read, write)

    anyio.run(run_stdio)


async def _gate_stdio(gate: era_gate.RevisionGate, read, write, passed) -> None:
    """Every message the client sends through the pin's gate: passed on (maybe rewritten) to the
    server, or answered here as a server of the pinned revisions answers it."""
    from mcp.shared.message import SessionMessage

    async with passed:
        async for item in read:
            if isinstance(item, Exception):
                await passed.send(item)
                continue
            raw = types.jsonrpc_message_adapter.dump_python(item.message, by_alias=True, exclude_unset=True)
            forward, answer = gate.inbound(raw)
            if answer is not None:
                await write.send(SessionMessage(types.jsonrpc_message_adapter.validate_python(answer)))
            if forward is not None:
                message = item.message if forward is raw else types.jsonrpc_message_adapter.validate_python(forward)
                await passed.send(SessionMessage(message, metadata=item.metadata))


def legacy_sse_app(server, pin: era_gate.Pin | None):
    """The deprecated HTTP+SSE transport (fixture_server.legacy_sse_app), gated; pinned, /mcp is
    that stream too and refuses a POST (405), so a later client falls back there (2025-03-26
    transports, "Backwards Compatibility")."""
    from mcp.server.sse import SseServerTransport
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Mount, Route

    sse = SseServerTransport("/messages/")

    async def session(request):
        async with sse.connect_sse(request.scope, request.receive, request._send) as (read, write):
            await _serve_gated(server, pin, read, write)
        return Response()

    routes = [Route("/sse", session), Mount("/messages/", app=sse.handle_post_message)]
    if pin is not None:
        routes.append(Route("/mcp", session, methods=["GET"]))
    return Starlette(routes=routes)


def pinned_http_app(app, pin: era_gate.Pin):
    """Streamable HTTP as a server of the pin answers it: a POST the pin refuses is answered here
    (era_gate.http_refusal), an `initialize` is passed on asking for the version the pin agrees."""

    async def gated(scope, receive, send):
        if scope.get("type") == "http" and scope.get("method") in ("GET", "DELETE") and not pin.handshake:
            # A server of 2026-07-28 alone has no session stream to open or end (streamable-http,
            # "Earlier Streamable HTTP Revisions").
            await send({"type": "http.response.start", "status": 405, "headers": [(b"allow", b"POST")]})
            await send({"type": "http.response.body", "body": b""})
            return
        if scope.get("type") != "http" or scope.get("method") != "POST":
            await app(scope, receive, send)
            return
        chunks, more = [], True
        while more:
            event = await receive()
            chunks.append(event.get("body", b""))
            more = event.get("more_body", False)
        body = b"".join(chunks)
        try:
            message = json.loads(body)
        except ValueError:
            message = None
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        refusal = era_gate.http_refusal(pin, "POST", headers, message)
        if refusal is not None:
            status, answer = refusal
            payload = json.dumps(answer).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": status,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(payload)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": payload})
            return
        if isinstance(message, dict) and message.get("method") == "initialize":
            forward, _ = era_gate.RevisionGate(pin).inbound(message)
            body = json.dumps(forward).encode()
            scope = {
                **scope,
                "headers": [(k, v) for k, v in scope["headers"] if k.lower() != b"content-length"]
                + [(b"content-length", str(len(body)).encode())],
            }
        sent = False

        async def replay():
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await app(scope, replay, send)

    return gated


PINNED_PATH = re.compile(r"^/pinned/(?P<revisions>[0-9,-]{10,60})(?P<rest>/.*)$")


def per_pin_app(server, unpinned):
    """`unpinned` at its own paths; `/pinned/R1[,R2…]/…` answered as a server of those revisions
    alone; the HTTP+SSE messages of a 2024-11-05 pin at /messages/, where its stream sends them."""
    legacy: list = []

    def legacy_app(pin: era_gate.Pin):
        if not legacy:
            legacy.append(legacy_sse_app(server, pin))
        return legacy[0]

    async def app(scope, receive, send):
        found = PINNED_PATH.match(scope.get("path", "")) if scope.get("type") == "http" else None
        if found is None:
            at_messages = scope.get("type") == "http" and scope.get("path", "").startswith("/messages/")
            await (legacy[0] if at_messages and legacy else unpinned)(scope, receive, send)
            return
        try:
            pin = era_gate.parse_pin(found["revisions"])
        except era_gate.BadPin:
            pin = None
        if pin is None:
            await send({"type": "http.response.start", "status": 404, "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "http.response.body", "body": b"not a pin of revisions"})
            return
        rest = found["rest"]
        inner = {**scope, "path": rest, "raw_path": rest.encode()}
        await (legacy_app(pin) if pin.only_http_sse else pinned_http_app(unpinned, pin))(inner, receive, send)

    return app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8931)
    parser.add_argument("--stdio", action="store_true")
    parser.add_argument("--sse", action="store_true", help="serve the deprecated HTTP+SSE transport instead")
    parser.add_argument(
        "--revisions",
        default=None,
        help="speak only these revisions (comma-separated; 'all' for every one), as a server of them does",
    )
    args = parser.parse_args(argv)
    try:
        pin = pin_from(args.revisions)
    except era_gate.BadPin as error:
        parser.error(f"--revisions: {error}")
    if args.stdio:
        serve_stdio(pin)
        return
    server = fixture_server.build_server()
    import uvicorn

    if args.sse or (pin is not None and pin.only_http_sse):
        app, path = legacy_sse_app(server, pin), ("sse" if args.sse else "mcp")
    else:
        app = fixture_server.recording_get_streams(server.streamable_http_app(host="127.0.0.1"))
        app, path = (pinned_http_app(app, pin) if pin is not None else per_pin_app(server, app)), "mcp"
    # Standard error: standard output is the protocol's channel in stdio mode, kept clean in both.
    print(f"fixture MCP server: http://127.0.0.1:{args.port}/{path} (Ctrl-C stops it)", file=sys.stderr, flush=True)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
