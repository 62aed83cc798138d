"""Every failure a finding with its cause (issue 32, rows 14 and 15): a GET stream whose server
never answers ends as "no answer to the GET within 5 s" (its timeout escaped the stream's
thread as a traceback, and the finding said "(not opened)"), and a redirect says where it
pointed and that it is not followed (the cells said "initialize failed: null")."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from comparison.probes.run.runner import FAILED, ProbePlan, TargetSpec, run_probe
from comparison.probes.run.scenarios import Scenario
from comparison.probes.targets.secrets import Redactor
from comparison.probes.transport.exchange import Limits
from comparison.probes.transport.get_stream import ANSWER_SECONDS, GetStream


@contextlib.contextmanager
def silent_server(seconds: float = 15.0) -> Iterator[int]:
    """A loopback port that accepts connections and reads, but never answers (for `seconds`)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(0.2)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        deadline = time.monotonic() + seconds
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(5)
        for connection in held:
            connection.close()
        listener.close()


def test_a_get_stream_never_answered_is_a_finding_not_a_traceback(monkeypatch):
    escaped: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: escaped.append(args.exc_value))
    with silent_server() as port:
        stream = GetStream(f"http://127.0.0.1:{port}/mcp", {}, Limits(connect_timeout=0.5), Redactor())
        stream.start()
        stream._thread.join(ANSWER_SECONDS + 5)
        assert not stream._thread.is_alive()
        stream.stop()
    assert escaped == [], "nothing escaped the stream's thread"
    assert stream.ended == f"no answer to the GET within {ANSWER_SECONDS:.0f} s"
    assert not stream.open


class Redirecting(BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(307)
        self.send_header("Location", "http://127.0.0.1:9/elsewhere/mcp?token=redirect-secret-77")
        self.send_header("Content-Length", "0")
        self.end_headers()


def test_a_redirect_says_where_it_pointed_and_that_it_is_not_followed():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirecting)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        spec = TargetSpec("redirecting", "http", url=f"http://127.0.0.1:{server.server_address[1]}/mcp")
        scenario = Scenario("call", "call", "tools/call", {"name": "text", "arguments": {}}, ())
        outcomes = run_probe(spec, ProbePlan(scenarios=[scenario], revisions=["2025-06-18"]))
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
    [outcome] = outcomes
    assert outcome.verdict == FAILED
    assert "the target answered 307 to http://127.0.0.1:9/elsewhere/mcp" in outcome.failure
    assert "redirects are not followed" in outcome.failure
    assert "redirect-secret-77" not in outcome.failure, "a credential-looking query value is masked"
