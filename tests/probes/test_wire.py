"""The wire client against misbehaving servers made here: each ends within its bound as a
recorded failure. Every server listens on 127.0.0.1 and is shut down by the test."""

from __future__ import annotations

import json
import socket
import sys
import threading
import time

import pytest

from comparison.probes.assessment.revisions import answer_findings
from comparison.probes.targets.secrets import mask_headers
from comparison.probes.transport.exchange import Exchange, Limits
from comparison.probes.transport.http_transport import HttpTransport
from comparison.probes.transport.stdio_transport import StdioTransport
from comparison.probes.transport.wire import WireClient

LIMITS = Limits(connect_timeout=1.0, total_timeout=2.0, max_bytes=1024 * 1024, max_events=50)
REQUEST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}


class Misbehaving:
    """A raw-socket HTTP server on 127.0.0.1 that answers every request with `behave(conn)`."""

    def __init__(self, behave):
        self.behave = behave
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/mcp"

    def _serve(self) -> None:
        self.sock.settimeout(0.2)
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        try:
            conn.settimeout(5)
            data = b""
            while b"\r\n\r\n" not in data and len(data) < 65536:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                data += chunk
            self.behave(conn, self.stop)
        except OSError:
            pass
        finally:
            conn.close()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.sock.close()
        self.thread.join(timeout=2)


def head(status: str, content_type: str, extra: str = "") -> bytes:
    return f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\n{extra}Connection: close\r\n\r\n".encode()


def hang(conn, stop):
    stop.wait(10)


def slow_drip(conn, stop):
    conn.sendall(head("200 OK", "application/json"))
    for byte in b'{"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}':
        if stop.wait(0.3):
            return
        conn.sendall(bytes([byte]))


def server_error(conn, stop):
    body = b"internal error"
    conn.sendall(head("500 Internal Server Error", "text/plain", f"Content-Length: {len(body)}\r\n") + body)


def invalid_json(conn, stop):
    body = b"{not json"
    conn.sendall(head("200 OK", "application/json", f"Content-Length: {len(body)}\r\n") + body)


def wrong_id(conn, stop):
    body = json.dumps({"jsonrpc": "2.0", "id": 99, "result": {"tools": []}}).encode()
    conn.sendall(head("200 OK", "application/json", f"Content-Length: {len(body)}\r\n") + body)


def huge_body(conn, stop):
    size = 50 * 1024 * 1024
    conn.sendall(head("200 OK", "application/json", f"Content-Length: {size}\r\n"))
    chunk = b" " * 65536
    for _ in range(size // len(chunk)):
        if stop.is_set():
            return
        conn.sendall(chunk)


def endless_sse(conn, stop):
    conn.sendall(head("200 OK", "text/event-stream"))
    while not stop.is_set():
        conn.sendall(b'data: {"jsonrpc": "2.0", "method": "notifications/message", "params": {}}\n\n')
        time.sleep(0.001)


def reset(conn, stop):
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")


@pytest.mark.parametrize(
    ("behave", "expected"),
    [
        (hang, "timed out"),
        (slow_drip, "not complete within"),
        (server_error, "HTTP 500"),
        (invalid_json, "invalid JSON"),
        (wrong_id, "does not match request id"),
        (huge_body, "byte cap"),
        (endless_sse, "SSE events without the response"),
        (reset, "connection broke"),
    ],
    ids=["hang", "slow-drip", "500", "invalid-json", "wrong-id", "50MB-body", "endless-sse", "reset"],
)
def test_misbehaving_http_server_is_a_bounded_recorded_failure(behave, expected):
    with Misbehaving(behave) as server:
        transport = HttpTransport(server.url, limits=LIMITS)
        exchange = transport.exchange(REQUEST)
        transport.close()
    # Bounded: an unbounded read would hang here until pytest-timeout; bench/bench_bounds.py prints
    # how long each misbehaviour takes to become this failure.
    assert not exchange.ok
    assert expected in exchange.failure


def test_refused_connection():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    exchange = HttpTransport(f"http://127.0.0.1:{port}/mcp", limits=LIMITS).exchange(REQUEST)
    assert "refused" in exchange.failure


STDIO_PROGRAMS = {
    "hang": "import time; time.sleep(30)",
    "garbage": "import sys; sys.stdin.readline(); print('not json', flush=True); import time; time.sleep(30)",
    "exit": "import sys; sys.stdin.readline(); sys.exit(0)",
    "flood": 'import sys\nsys.stdin.readline()\nwhile True: print(\'{"jsonrpc":"2.0","method":"x"}\', flush=True)',
}


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("hang", "no response within"),
        ("garbage", "invalid JSON"),
        ("exit", "closed its output"),
        ("flood", "without the response"),
    ],
)
def test_misbehaving_stdio_server_is_a_bounded_recorded_failure(name, expected):
    transport = StdioTransport([sys.executable, "-c", STDIO_PROGRAMS[name]], limits=LIMITS)
    exchange = transport.exchange(REQUEST)
    pid = transport.process.pid
    transport.close()
    assert expected in exchange.failure
    assert transport.process.poll() is not None, f"process {pid} still running"


STRAY_FIRST = (
    "import sys, json\n"
    "request = json.loads(sys.stdin.readline())\n"
    "for stray in (request['id'] + 1000, 'elsewhere'):\n"
    "    print(json.dumps({'jsonrpc': '2.0', 'id': stray, 'result': {'other': True}}), flush=True)\n"
    "print(json.dumps({'jsonrpc': '2.0', 'id': request['id'], 'result': {'tools': []}}), flush=True)\n"
    "sys.stdin.readline()\n"
)
STRAY_ONLY = (
    "import sys, json, time\n"
    "request = json.loads(sys.stdin.readline())\n"
    "print(json.dumps({'jsonrpc': '2.0', 'id': request['id'] + 1000, 'result': {}}), flush=True)\n"
    "time.sleep(30)\n"
)


def test_an_answer_to_another_request_over_stdio_is_kept_as_a_stray_and_the_wait_goes_on():
    transport = StdioTransport([sys.executable, "-c", STRAY_FIRST], limits=LIMITS)
    exchange = transport.exchange(REQUEST)
    transport.close()
    assert exchange.ok, exchange.failure
    assert exchange.response["result"] == {"tools": []}
    strays = [step["message"]["id"] for step in exchange.sequence if step["channel"] == "stray"]
    assert strays == [REQUEST["id"] + 1000, "elsewhere"]
    findings = [f.message for f in answer_findings(exchange.response, strays=strays)]
    assert findings == [
        f'2 answers to no request in flight came before the response (id {REQUEST["id"] + 1000}, "elsewhere"): '
        "a client matches answers by id and drops these"
    ]


def test_a_stray_and_no_answer_over_stdio_fails_within_the_call_limit_naming_both_ids():
    transport = StdioTransport([sys.executable, "-c", STRAY_ONLY], limits=LIMITS)
    exchange = transport.exchange(REQUEST)
    transport.close()
    assert f"response id {REQUEST['id'] + 1000} does not match request id {REQUEST['id']}" in exchange.failure
    assert "came within 2 s" in exchange.failure
    assert transport.process.poll() is not None


def test_credentials_are_masked():
    masked = mask_headers({"Authorization": "Bearer s3cret", "X-Api-Key": "k", "X-Trace": "t", "X-Auth-Token": "z"})
    assert masked == {
        "Authorization": "••• (masked)",
        "X-Api-Key": "••• (masked)",
        "X-Trace": "t",
        "X-Auth-Token": "••• (masked)",
    }
    record = Exchange("m", {})
    assert record.ok


def test_session_against_the_fixture_over_stdio_at_every_revision():
    for revision in ("2024-11-05", "2025-06-18", "2026-07-28"):
        client = WireClient(
            StdioTransport([sys.executable, "-m", "comparison.probes.fixture.fixture_server", "--stdio"])
        )
        try:
            session = client.open(revision)
            exchange = client.request("tools/call", {"name": "audio", "arguments": {}})
        finally:
            client.close()
        assert session.negotiated == revision
        assert session.stateless is (revision == "2026-07-28")
        assert exchange.response["result"]["content"][0]["type"] == "audio"
