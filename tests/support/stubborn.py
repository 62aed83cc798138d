"""A stubborn MCP target for the tests of bounded runs: it opens sessions properly, then misbehaves
in the ways that used to hold a worker. Standard library only.

    python -m tests.support.stubborn --stdio [--orphan] [--hold]
    python -m tests.support.stubborn --port 0 --hold keepalive|drip     # prints "PORT <n>"
    python -m tests.support.stubborn --stdio --echo ... --token X       # echoes its argv and the token

--orphan  a grandchild leaves the process group and the session, ignores SIGTERM and keeps stdout
          open; the server itself ignores SIGTERM too (so only SIGKILL ends either)
--hold    every tools/call is held open: no answer over stdio; over HTTP an SSE stream of
          keep-alive comments every second (keepalive) or one byte a second (drip)
--envelope POLICY  every tools/call fails (isError) with an mcp-error/1 envelope naming POLICY
          (`-`: naming none)
--echo    each tools/call answers with the process's argv, its SECRET_* environment, its whole
          environment and the bearer token of its request, plain and percent-encoded (over HTTP,
          from the Authorization header)

STUBBORN_PIDS names a file where every process it starts appends its pid, so a test can check
that none outlives the run. Every loop is bounded (HOLD_SECONDS, 600 s at most).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote

HOLD_SECONDS = 600


def note_pid() -> None:
    path = os.environ.get("STUBBORN_PIDS")
    if path:
        with open(path, "a") as out:
            out.write(f"{os.getpid()}\n")


def orphan() -> None:
    """A grandchild in a session of its own that keeps the inherited stdout open and ignores SIGTERM."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            note_pid()
            time.sleep(HOLD_SECONDS)
        os._exit(0)


def answer(message: dict, options: argparse.Namespace, token: str = "") -> dict | None:
    """The JSON-RPC answer to a message, or None (a notification, or a call that is held)."""
    method, rid = message.get("method"), message.get("id")
    if rid is None:
        return None
    if method == "initialize":
        version = (message.get("params") or {}).get("protocolVersion", "2025-06-18")
        result = {"protocolVersion": version, "capabilities": {"tools": {}, "prompts": {}}, "serverInfo": {"name": "x"}}
        return {"jsonrpc": "2.0", "id": rid, "result": result}
    if method == "tools/call" and options.echo:
        environment = {name: value for name, value in os.environ.items() if name.startswith("SECRET_")}
        echoed = {"argv": sys.argv, "token": token, "encoded": quote(token, safe=""), "env": environment}
        text = json.dumps({**echoed, "environ": dict(os.environ)})
        return {"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": text}]}}
    if method == "tools/call" and options.hold:
        return None
    if method == "tools/call" and options.envelope:
        envelope = {"schema": "mcp-error/1", "code": "quota", "policy": options.envelope, "text": "over quota"}
        if options.envelope == "-":  # an envelope that names no policy
            del envelope["policy"]
        content = [{"type": "text", "text": json.dumps(envelope)}]
        return {"jsonrpc": "2.0", "id": rid, "result": {"content": content, "isError": True}}
    if method == "prompts/get":
        content = {"type": "text", "text": "fine"}
        return {"jsonrpc": "2.0", "id": rid, "result": {"messages": [{"role": "user", "content": content}]}}
    if method in ("tools/call",):
        return {"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": "fine"}]}}
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": f"no method {method}"}}


def serve_stdio(options: argparse.Namespace) -> None:
    token = options.token or ""
    deadline = time.monotonic() + HOLD_SECONDS
    for line in sys.stdin.buffer:
        if time.monotonic() > deadline:
            break
        try:
            message = json.loads(line)
        except ValueError:
            continue
        reply = answer(message, options, token)
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
    if options.orphan:
        time.sleep(HOLD_SECONDS)  # input ended: still hold the pipes, ignoring SIGTERM


class Handler(BaseHTTPRequestHandler):
    options: argparse.Namespace

    def log_message(self, *args) -> None:
        pass

    def do_DELETE(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            message = json.loads(body)
        except ValueError:
            message = {}
        token = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
        if message.get("method") == "tools/call" and self.options.hold:
            self._hold()
            return
        reply = answer(message, self.options, token)
        data = json.dumps(reply).encode() if reply is not None else b""
        self.send_response(200 if reply is not None else 202)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _hold(self) -> None:
        """An SSE stream that never carries the response, until the client goes or time is up."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        drip = b"data: {" if self.options.hold == "drip" else b": keep-alive\n\n"
        deadline = time.monotonic() + HOLD_SECONDS
        try:
            while time.monotonic() < deadline:
                chunk = drip[:1] if self.options.hold == "drip" else drip
                drip = drip[1:] + drip[:1] if self.options.hold == "drip" else drip
                self.wfile.write(chunk)
                self.wfile.flush()
                time.sleep(1)
        except OSError:
            return


def serve_http(options: argparse.Namespace) -> None:
    Handler.options = options
    server = ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    threading.Timer(HOLD_SECONDS, server.shutdown).start()
    server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stdio", action="store_true")
    parser.add_argument("--port", type=int)
    parser.add_argument("--orphan", action="store_true")
    parser.add_argument("--hold", nargs="?", const="keepalive", choices=["keepalive", "drip"])
    parser.add_argument("--echo", action="store_true")
    parser.add_argument("--envelope", metavar="POLICY", help="every call fails with an mcp-error/1 envelope")
    # Stand-ins for the credentials proxies take on their command lines; echoed, never used.
    parser.add_argument("--token")
    parser.add_argument("--headers", nargs=2, action="append")
    parser.add_argument("--header", "-H", action="append")
    parser.add_argument("-e", nargs=2, action="append")
    parser.add_argument("rest", nargs="*")
    options, _ = parser.parse_known_args()
    note_pid()
    if options.orphan:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        orphan()
    if options.stdio:
        serve_stdio(options)
    else:
        serve_http(options)


if __name__ == "__main__":
    main()
