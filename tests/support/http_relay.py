"""A Streamable HTTP relay for the tests: starts the fixture upstream over HTTP on a port of its own,
serves 127.0.0.1:PORT/mcp in front of it, passes every request, answer and stream on, and changes
one thing on purpose (or nothing), as real HTTP proxies were seen to. Standard library only.

    python tests/support/http_relay.py --port 3311 --lose move-to-get

Changes: none; move-to-get (the notifications of a call's own response stream go out on the
session's GET stream instead, so a client that opens none gets none of them); requests-on-get (the
server's requests during a call, sampling, elicitation and roots, go out on the GET stream instead,
as some proxies route them; a conformant client answers them there); own-session (before
it passes a client's `initialize` on, the relay opens a session of its own upstream: its own
clientInfo, `notifications/initialized`, a GET stream); rename (every tool and prompt listed as
`fixture_<name>`, and called back by that name, as a gateway that namespaces its upstreams);
aggregate (two tools of the relay's own listed before the upstream's, answered by the relay).
"""

from __future__ import annotations

import argparse
import http.client
import json
import queue
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

CHANGES = ("none", "move-to-get", "requests-on-get", "own-session", "rename", "aggregate")
#: rename: the gateway's prefix on every tool and prompt name.
PREFIX = "fixture_"
#: aggregate: the tools the relay lists before the upstream's and answers itself.
OWN_TOOLS = [
    {"name": "relay_search", "description": "the relay's own search", "inputSchema": {"type": "object"}},
    {"name": "relay_status", "description": "the relay's own status", "inputSchema": {"type": "object"}},
]
NAMED_LISTS = {"tools/list": "tools", "prompts/list": "prompts"}
PROJECT = Path(__file__).resolve().parents[2]
#: Request headers passed on to the upstream (and the answer's headers passed back).
PASSED = ("content-type", "accept", "authorization", "last-event-id")
OWN_CLIENT = {"name": "relay-own-session", "version": "0.0.1"}
#: How long a GET stream of the relay's waits for a message before it looks whether to stop.
POLL = 0.25
#: How long the upstream may take to start.
START_SECONDS = 30.0


class Upstream:
    """The fixture over HTTP on a free loopback port, started by the relay and ended with it."""

    def __init__(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        command = [sys.executable, "-m", "comparison.probes.fixture.fixture_server", "--port", str(self.port)]
        self.process = subprocess.Popen(command, cwd=PROJECT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("the fixture upstream did not start")

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


def sse_events(response: http.client.HTTPResponse):
    """Each SSE event's data of an upstream answer, as it arrives."""
    lines: list[bytes] = []
    while True:
        line = response.readline()
        if not line:
            return
        line = line.rstrip(b"\r\n")
        if line:
            lines.append(line)
            continue
        data = b"\n".join(item[5:].lstrip() for item in lines if item.startswith(b"data:"))
        lines = []
        if data:
            yield data


class Relay:
    def __init__(self, change: str, upstream: Upstream):
        self.change = change
        self.upstream = upstream
        self.lock = threading.Lock()
        #: session id → what the relay moved to that session's GET stream, waiting to go out.
        self.moved: dict[str, queue.Queue] = {}

    def moved_for(self, session: str) -> queue.Queue:
        with self.lock:
            return self.moved.setdefault(session, queue.Queue())

    def open_own_session(self, version: str) -> None:
        """own-session: a session of the relay's own upstream, with a GET stream it drains."""
        body = {
            "jsonrpc": "2.0",
            "id": "relay-own-1",
            "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": OWN_CLIENT},
        }
        connection = self.upstream.connection()
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        connection.request("POST", "/mcp", json.dumps(body), headers)
        answer = connection.getresponse()
        session = answer.getheader("mcp-session-id") or ""
        answer.read()
        connection.close()
        if not session:
            return
        headers = {**headers, "Mcp-Session-Id": session, "Mcp-Protocol-Version": version}
        notify = self.upstream.connection()
        notify.request("POST", "/mcp", json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}), headers)
        notify.getresponse().read()
        notify.close()
        threading.Thread(target=self._drain_get, args=(headers,), daemon=True).start()
        time.sleep(0.05)  # the GET is open before the client's session is

    def _drain_get(self, headers: dict[str, str]) -> None:
        connection = self.upstream.connection()
        try:
            connection.request("GET", "/mcp", headers={**headers, "Accept": "text/event-stream"})
            for _ in sse_events(connection.getresponse()):
                pass
        except OSError:
            pass
        finally:
            connection.close()


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        pass  # a client that went away mid-answer is no error of the relay's


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    relay: Relay

    def log_message(self, format, *args):
        pass

    def _upstream_headers(self) -> dict[str, str]:
        headers = {
            name: value
            for name, value in self.headers.items()
            if name.lower() in PASSED or name.lower().startswith("mcp-")
        }
        if self.relay.change == "rename":
            headers = {k: v.removeprefix(PREFIX) if k.lower() == "mcp-name" else v for k, v in headers.items()}
        return headers

    def _listed(self, method: Any, message: Any, data: bytes) -> bytes:
        """A list answer as the relay changes it (renamed, or with its own tools first)."""
        change = self.relay.change
        if method not in NAMED_LISTS or change not in ("rename", "aggregate"):
            return data
        try:
            answer = json.loads(data)
        except ValueError:
            return data
        result = answer.get("result") if isinstance(answer, dict) else None
        key = NAMED_LISTS[method]
        if not isinstance(result, dict) or not isinstance(result.get(key), list):
            return data
        if change == "rename":
            result[key] = [{**item, "name": PREFIX + str(item.get("name"))} for item in result[key]]
        elif method == "tools/list" and not (message.get("params") or {}).get("cursor"):
            result[key] = OWN_TOOLS + result[key]
        return json.dumps(answer).encode()

    def _answer_own(self, message: dict) -> None:
        text = f"answered by the relay: {_named(message)}"
        data = json.dumps(
            {"jsonrpc": "2.0", "id": message.get("id"), "result": {"content": [{"type": "text", "text": text}]}}
        )
        self._start(200, {"Content-Type": "application/json"}, chunked=False, length=len(data.encode()))
        self.wfile.write(data.encode())

    def _start(self, status: int, headers: dict[str, str], chunked: bool, length: int = 0) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(length))
        self.end_headers()

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _event(self, data: bytes) -> None:
        self._chunk(b"event: message\ndata: " + data + b"\n\n")

    def _end_chunks(self) -> None:
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            message = json.loads(body)
        except ValueError:
            message = None
        relay = self.relay
        method = message.get("method") if isinstance(message, dict) else None
        if relay.change == "aggregate" and method == "tools/call" and _named(message) in _OWN_NAMES:
            self._answer_own(message)
            return
        if relay.change == "rename" and method in ("tools/call", "prompts/get"):
            body = json.dumps(_unprefixed(message)).encode()
        if relay.change == "own-session" and method == "initialize":
            params = message.get("params") if isinstance(message.get("params"), dict) else {}
            relay.open_own_session(str(params.get("protocolVersion", "2025-06-18")))
        connection = relay.upstream.connection()
        done = threading.Event()
        try:
            connection.request("POST", self.path, body, self._upstream_headers())
            watcher = threading.Thread(target=self._cut_when_client_leaves, args=(connection.sock, done), daemon=True)
            watcher.start()
            answer = connection.getresponse()
            passed = {
                name: value
                for name, value in answer.getheaders()
                if name.lower() in ("content-type", "mcp-session-id", "allow")
            }
            session = answer.getheader("mcp-session-id") or self.headers.get("mcp-session-id") or ""
            if "text/event-stream" not in (answer.getheader("content-type") or ""):
                data = self._listed(method, message, answer.read())
                self._start(answer.status, passed, chunked=False, length=len(data))
                self.wfile.write(data)
                return
            self._start(answer.status, passed, chunked=True)
            for data in sse_events(answer):
                if relay.change == "move-to-get" and session and self._is_notification(data):
                    relay.moved_for(session).put(data)
                    continue
                if relay.change == "requests-on-get" and session and self._is_request(data):
                    relay.moved_for(session).put(data)
                    continue
                self._event(self._listed(method, message, data))
            self._end_chunks()
        except OSError:
            pass  # the client went away, or the upstream did: nothing more to pass on
        finally:
            done.set()
            connection.close()

    def _cut_when_client_leaves(self, upstream_socket: socket.socket, done: threading.Event) -> None:
        """A client that closes a call's stream cancels the call (2026-07-28): the relay closes
        its own stream upstream too, as a faithful proxy does."""
        while not done.is_set():
            readable, _, _ = select.select([self.connection], [], [], POLL)
            if readable and not done.is_set():
                try:
                    left = self.connection.recv(1, socket.MSG_PEEK) == b""
                except OSError:
                    left = True
                if left:
                    try:
                        upstream_socket.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    return
                time.sleep(POLL)  # the client sent its next request already: not a close

    @staticmethod
    def _is_notification(data: bytes) -> bool:
        return _kind(data) == "notification"

    @staticmethod
    def _is_request(data: bytes) -> bool:
        return _kind(data) == "request"

    def do_GET(self) -> None:
        relay = self.relay
        connection = relay.upstream.connection()
        connection.request("GET", self.path, headers=self._upstream_headers())
        answer = connection.getresponse()
        if answer.status != 200:
            data = answer.read()
            passed = {name: value for name, value in answer.getheaders() if name.lower() in ("content-type", "allow")}
            self._start(answer.status, passed, chunked=False, length=len(data))
            self.wfile.write(data)
            connection.close()
            return
        session = self.headers.get("mcp-session-id") or ""
        outgoing = relay.moved_for(session)
        upstream_ended = threading.Event()

        def pump() -> None:
            try:
                for data in sse_events(answer):
                    outgoing.put(data)
            except OSError:
                pass
            finally:
                upstream_ended.set()

        threading.Thread(target=pump, daemon=True).start()
        self._start(200, {"Content-Type": "text/event-stream"}, chunked=True)
        try:
            while not upstream_ended.is_set() or not outgoing.empty():
                try:
                    data = outgoing.get(timeout=POLL)
                except queue.Empty:
                    self._chunk(b": keep-alive\n\n")
                    continue
                self._event(data)
            self._end_chunks()
        except OSError:
            pass  # the client went away
        finally:
            connection.close()

    def do_DELETE(self) -> None:
        connection = self.relay.upstream.connection()
        connection.request("DELETE", self.path, headers=self._upstream_headers())
        answer = connection.getresponse()
        data = answer.read()
        self._start(answer.status, {}, chunked=False, length=len(data))
        self.wfile.write(data)
        connection.close()


_OWN_NAMES = {tool["name"] for tool in OWN_TOOLS}


def _kind(data: bytes) -> str:
    """ "request" (a method and an id), "notification" (a method, no id), or "" for an answer."""
    try:
        message = json.loads(data)
    except ValueError:
        return ""
    if not isinstance(message, dict) or "method" not in message:
        return ""
    return "request" if "id" in message else "notification"


def _named(message: dict) -> Any:
    params = message.get("params")
    return params.get("name") if isinstance(params, dict) else None


def _unprefixed(message: dict) -> dict:
    name = _named(message)
    if isinstance(name, str) and name.startswith(PREFIX):
        return {**message, "params": {**message["params"], "name": name.removeprefix(PREFIX)}}
    return message


def _interrupted(signum, frame) -> None:
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--lose", choices=CHANGES, default="none")
    args = parser.parse_args()
    upstream = Upstream()
    Handler.relay = Relay(args.lose, upstream)
    server = QuietServer(("127.0.0.1", args.port), Handler)
    signal.signal(signal.SIGTERM, _interrupted)
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        upstream.stop()


if __name__ == "__main__":
    main()
