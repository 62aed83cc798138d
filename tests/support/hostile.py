"""A hostile MCP target for the tests: it opens sessions properly, then answers each tool call
(or prompt) with a named malformed or hostile shape. Standard library only.

    python -m tests.support.hostile --port 0      # Streamable HTTP on 127.0.0.1; prints "PORT <n>"
    python -m tests.support.hostile --stdio       # newline-delimited JSON-RPC on stdin/stdout

A call whose name is a shape gets that shape; any other name (a real suite's scenarios) gets the
shapes in turn, so `manage.py probe --url` against it meets all of them.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

AS_EXPECTED, CHANGED, INVALID, FAILED = "as expected", "changed by proxy", "invalid for revision", "failed to probe"
#: A hostile target has no upstream to compare with: an answer it keeps whole is "not compared".
NOT_COMPARED = "not compared"


@dataclass(frozen=True)
class Shape:
    name: str
    #: Raw bytes of the JSON-RPC message for request id `rid` and the request's headers.
    body: Callable[[int, dict[str, str]], bytes]
    expected: str
    #: What the verdict's reason (a finding or the failure) must mention.
    mentions: str = ""
    method: str = "tools/call"
    http_only: bool = False
    status: int = 200
    content_type: str = "application/json"


def message(rid: int, **fields) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": rid, **fields}).encode()


def result(value) -> Callable[[int, dict], bytes]:
    return lambda rid, headers: message(rid, result=value)


def error(value) -> Callable[[int, dict], bytes]:
    return lambda rid, headers: message(rid, error=value)


def raw(text: str) -> Callable[[int, dict], bytes]:
    return lambda rid, headers: text.replace("RID", str(rid)).encode()


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def echo_headers(rid: int, headers: dict[str, str]) -> bytes:
    text = "; ".join(f"{name}={value}" for name, value in sorted(headers.items()))
    return message(rid, result={"content": [{"type": "text", "text": text}], "structuredContent": dict(headers)})


MB = 1024 * 1024
OK = {"content": [{"type": "text", "text": "fine"}]}

SHAPES = [
    # The JSON-RPC envelope.
    Shape("result-array", result([1, 2]), INVALID, "the result is an array"),
    Shape("result-string", result("done"), INVALID, "the result is a string"),
    Shape("result-null", result(None), INVALID, "the result is null"),
    Shape("result-number", result(42), INVALID, "the result is a number"),
    Shape("result-boolean", result(True), INVALID, "the result is a boolean"),
    Shape("result-and-error", lambda r, h: message(r, result=OK, error={"code": 1, "message": "x"}), INVALID, "both"),
    Shape("neither", lambda r, h: message(r), INVALID, "neither result nor error"),
    Shape("jsonrpc-missing", raw('{"id": RID, "result": {"content": []}}'), INVALID, "jsonrpc is missing"),
    Shape("jsonrpc-1", raw('{"jsonrpc": "1.0", "id": RID, "result": {"content": []}}'), INVALID, 'jsonrpc is "1.0"'),
    Shape("wrong-id", lambda r, h: message(r + 1000, result=OK), FAILED, "does not match request id"),
    Shape("id-string", lambda r, h: message(str(r), result=OK), FAILED, "does not match request id"),
    Shape("error-string", error("boom"), INVALID, "the error is a string"),
    Shape("error-array", error([1]), INVALID, "the error is an array"),
    Shape("error-null", error(None), INVALID, "the error is null"),
    Shape("error-code-string", error({"code": "E1", "message": "m"}), INVALID, "the error code is a string"),
    Shape("error-code-float", error({"code": 1.5, "message": "m"}), INVALID, "the error code is a number"),
    Shape("error-code-list", error({"code": [1], "message": "m"}), INVALID, "the error code is an array"),
    Shape("error-no-message", error({"code": -32000}), INVALID, "the error message is null"),
    Shape("error-message-object", error({"code": -32000, "message": {"a": 1}}), INVALID, "error message is an object"),
    Shape("message-array", raw("[1, 2, 3]"), FAILED, "not a JSON-RPC object"),
    Shape("message-string", raw('"hello"'), FAILED, "not a JSON-RPC object"),
    # The result's fields, of the wrong type anywhere.
    Shape("content-number", result({"content": 1}), INVALID, "schema"),
    Shape("content-null", result({"content": None}), INVALID, "schema"),
    Shape("content-string", result({"content": "text"}), INVALID, "schema"),
    Shape("content-object", result({"content": {"type": "text"}}), INVALID, "schema"),
    Shape("content-numbers", result({"content": [1, 2]}), INVALID, "schema"),
    Shape("block-type-number", result({"content": [{"type": 5, "text": "x"}]}), INVALID, "defined by no revision"),
    Shape("block-type-list", result({"content": [{"type": ["text"], "text": "x"}]}), INVALID, "no revision"),
    Shape("block-without-type", result({"content": [{"text": "x"}]}), INVALID, "no revision"),
    Shape("text-number", result({"content": [{"type": "text", "text": 5}]}), INVALID, "schema"),
    Shape("image-data-object", result({"content": [{"type": "image", "data": {}, "mimeType": 1}]}), INVALID, "schema"),
    Shape("resource-string", result({"content": [{"type": "resource", "resource": "file"}]}), INVALID, "schema"),
    Shape("structured-array", result({"content": [], "structuredContent": [1]}), INVALID, "schema"),
    Shape("structured-null", result({"content": [], "structuredContent": None}), INVALID, "schema"),
    Shape("is-error-string", result({"content": [], "isError": "yes"}), INVALID, "schema"),
    Shape("meta-number", result({"content": [], "_meta": 5}), INVALID, "schema"),
    Shape("annotations-list", result({"content": [{"type": "text", "text": "a", "annotations": [1]}]}), INVALID),
    Shape("unknown-block", result({"content": [{"type": "video", "uri": "x"}]}), INVALID, "defined by no revision"),
    Shape("prompt-messages-object", result({"messages": {"role": "user"}}), INVALID, "schema", method="prompts/get"),
    Shape("prompt-message-string", result({"messages": ["hi"]}), INVALID, "schema", method="prompts/get"),
    Shape(
        "prompt-text-object",
        result({"messages": [{"role": 7, "content": {"type": "text", "text": {}}}]}),
        INVALID,
        "schema",
        method="prompts/get",
    ),
    # Characters and numbers that parse but cannot be kept as they are, or at all.
    Shape(
        "lone-surrogate",
        raw('{"jsonrpc": "2.0", "id": RID, "result": {"content": [{"type": "text", "text": "a\\ud800b"}]}}'),
        INVALID,
        "surrogates",
    ),
    Shape(
        "surrogate-key",
        raw('{"jsonrpc": "2.0", "id": RID, "result": {"content": [], "structuredContent": {"k\\udfff": 1}}}'),
        INVALID,
        "surrogates",
    ),
    Shape(
        "nul-character",
        raw('{"jsonrpc": "2.0", "id": RID, "result": {"content": [{"type": "text", "text": "a\\u0000b"}]}}'),
        INVALID,
        "NUL",
    ),
    Shape("nan", raw('{"jsonrpc": "2.0", "id": RID, "result": {"content": [], "x": NaN}}'), FAILED, "NaN"),
    Shape("infinity", raw('{"jsonrpc": "2.0", "id": RID, "result": {"x": -Infinity}}'), FAILED, "Infinity"),
    Shape("overflow", raw('{"jsonrpc": "2.0", "id": RID, "result": {"x": 1e999}}'), FAILED, "overflows"),
    Shape("huge-integer", raw('{"jsonrpc": "2.0", "id": RID, "result": {"x": ' + "9" * 5000 + "}}"), FAILED, "JSON"),
    Shape(
        "deep-nesting",
        raw('{"jsonrpc": "2.0", "id": RID, "result": {"structuredContent": {"a": ' + nested(80) + "}}}"),
        FAILED,
        "nested deeper",
    ),
    Shape(
        "very-deep-nesting",
        raw('{"jsonrpc": "2.0", "id": RID, "result": ' + nested(100_000) + "}"),
        FAILED,
        "nested deeper",
    ),
    Shape("invalid-json", raw('{"jsonrpc": "2.0", "id": RID, "result": {oops}'), FAILED, "invalid JSON"),
    Shape("truncated", raw('{"jsonrpc": "2.0", "id": RID, "result": {"content": ['), FAILED, "invalid JSON"),
    Shape(
        "not-utf8",
        lambda r, h: b'{"jsonrpc": "2.0", "id": ' + str(r).encode() + b', "result": {"t": "\xff\xfe"}}',
        FAILED,
        "invalid JSON",
    ),
    # Size.
    Shape("six-megabyte-string", result({"content": [{"type": "text", "text": "x" * (6 * MB)}]}), NOT_COMPARED),
    Shape("over-the-byte-cap", result({"content": [{"type": "text", "text": "x" * (9 * MB)}]}), FAILED, "cap"),
    # HTTP only.
    Shape("empty-body", raw(""), FAILED, "no response", http_only=True),
    Shape("html-page", raw("<html><body>gateway</body></html>"), FAILED, "invalid JSON", http_only=True),
    Shape("http-500", raw('{"oops": true}'), FAILED, "HTTP 500", http_only=True, status=500),
    Shape(
        "sse-garbage", raw("data: {nope}\n\n"), FAILED, "invalid JSON", http_only=True, content_type="text/event-stream"
    ),
    # Echoes whatever credential the request carried.
    Shape("echo-headers", echo_headers, NOT_COMPARED, http_only=True),
]
BY_NAME = {shape.name: shape for shape in SHAPES}


class Responder:
    """Answers one JSON-RPC message: sessions properly, calls with shapes."""

    def __init__(self):
        self.rotation = itertools.cycle([s for s in SHAPES if not s.http_only])
        self.lock = threading.Lock()

    def answer(self, request: dict, headers: dict[str, str], *, http: bool) -> tuple[Shape | None, bytes]:
        method, rid = request.get("method"), request.get("id")
        if rid is None:
            return None, b""
        if method == "initialize":
            version = (request.get("params") or {}).get("protocolVersion", "2025-06-18")
            info = {
                "protocolVersion": version,
                "capabilities": {"tools": {}, "prompts": {}},
                "serverInfo": {"name": "hostile", "version": "1"},
            }
            return None, message(rid, result=info)
        if method in ("tools/call", "prompts/get"):
            name = (request.get("params") or {}).get("name", "")
            shape = BY_NAME.get(name)
            if shape is None:
                with self.lock:
                    shape = next(self.rotation)
            if shape.http_only and not http:
                shape = BY_NAME["result-array"]
            return shape, shape.body(rid, headers)
        return None, message(rid, error={"code": -32601, "message": f"method not found: {method}"})


class Handler(BaseHTTPRequestHandler):
    responder: Responder

    def log_message(self, *args) -> None:
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        request = json.loads(self.rfile.read(length) or b"{}")
        shape, body = self.responder.answer(request, dict(self.headers.items()), http=True)
        if shape is None and not body:
            self.send_response(202)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(shape.status if shape else 200)
        self.send_header("Content-Type", shape.content_type if shape else "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_DELETE(self) -> None:
        self.send_response(204)
        self.end_headers()


def serve_http(port: int) -> None:
    Handler.responder = Responder()
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


def serve_stdio() -> None:
    responder = Responder()
    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
        except ValueError:
            continue
        _, body = responder.answer(request, {}, http=False)
        if body:
            # One line per message, as the framing requires; the shape's bytes go out unchanged.
            sys.stdout.buffer.write(body.replace(b"\n", b" ") + b"\n")
            sys.stdout.buffer.flush()


def serve_echo() -> None:
    """stdio: answer each request with the bytes its `arguments.raw` carries (base64), so a test can
    put any bytes on the wire; newlines become spaces, as the framing requires."""
    import base64

    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
            raw = base64.b64decode(request["params"]["arguments"]["raw"])
        except (ValueError, KeyError, TypeError):
            continue
        sys.stdout.buffer.write(raw.replace(b"\n", b" ") + b"\n")
        sys.stdout.buffer.flush()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int)
    parser.add_argument("--stdio", action="store_true")
    parser.add_argument("--token", help="Ignored: stands for a credential on a command line.")
    parser.add_argument("--echo", action="store_true", help="stdio: send back the raw bytes each request carries.")
    options = parser.parse_args()
    if options.echo:
        serve_echo()
    elif options.stdio:
        serve_stdio()
    else:
        serve_http(options.port or 0)


if __name__ == "__main__":
    main()
