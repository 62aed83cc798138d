"""Rules the probe's client keeps as a conformant client does (the suite plays them end to end in
tests/e2e/test_probe_client_conformance.py): SSE events split with their ids and retry, and tool
parameters mirrored into `Mcp-Param-*` headers at 2026-07-28, the deprecated HTTP+SSE transport
followed only on the target's own origin."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from comparison.probes.transport.exchange import ExchangeFailure
from comparison.probes.transport.http_transport import HttpTransport
from comparison.probes.transport.param_headers import header_problem, header_value, param_headers
from comparison.probes.transport.sse import MAX_RETRY_MS, EventReader
from comparison.probes.transport.wire import WireClient


def test_events_keep_their_last_id_and_retry_across_chunks():
    reader = EventReader(10)
    assert reader.feed(b'id: e-1\r\nretry: 500\r\ndata: \r\n\r\nevent: message\ndata: {"a":') == []
    assert reader.last_id == "e-1"
    assert reader.retry_seconds(1.0) == 0.5
    assert reader.feed(b"1}\nid: e-2\n\n") == [b'{"a":1}']
    assert reader.last_id == "e-2"


def test_a_server_cannot_make_the_probe_wait_long_or_read_forever():
    reader = EventReader(2)
    reader.feed(b"retry: 999999\n\n")
    assert reader.retry_ms == MAX_RETRY_MS
    with pytest.raises(ExchangeFailure, match="more than 2 SSE events"):
        reader.feed(b"data: 1\n\ndata: 2\n\ndata: 3\n\n")


@pytest.mark.parametrize(
    ("value", "header"),
    [
        ("us-west1", "us-west1"),
        ("", ""),
        (42, "42"),
        (True, "true"),
        (False, "false"),
        (" padded ", "=?base64?IHBhZGRlZCA=?="),
        ("Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="),
        ("line1\nline2", "=?base64?bGluZTEKbGluZTI=?="),
        (None, None),
        (3.5, None),
        (2**60, None),
    ],
)
def test_an_argument_becomes_its_header_text(value, header):
    assert header_value(value) == header


def test_only_annotated_parameters_are_mirrored_and_null_is_left_out():
    schema = {
        "type": "object",
        "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "verbose": {"type": "boolean", "x-mcp-header": "Verbose"},
            "query": {"type": "string"},
        },
    }
    assert param_headers(schema, {"region": "eu", "verbose": None, "query": "SELECT 1"}) == {"Mcp-Param-Region": "eu"}
    assert param_headers(None, {"region": "eu"}) == {}


@pytest.mark.parametrize(
    ("properties", "problem"),
    [
        ({"a": {"type": "string", "x-mcp-header": ""}}, "empty"),
        ({"a": {"type": "object", "x-mcp-header": "A"}}, "only string"),
        ({"a": {"type": "number", "x-mcp-header": "A"}}, "only string"),
        ({"a": {"type": "string", "x-mcp-header": "A B"}}, "not an HTTP token"),
        ({"a": {"type": "string", "x-mcp-header": "Ünï"}}, "not an HTTP token"),
        ({"a": {"type": "string", "x-mcp-header": "Id"}, "b": {"type": "integer", "x-mcp-header": "ID"}}, "twice"),
        ({"a": {"type": "string", "x-mcp-header": "Region"}}, ""),
    ],
)
def test_a_tool_with_an_invalid_annotation_is_left_out(properties, problem):
    found = header_problem({"name": "t", "inputSchema": {"type": "object", "properties": properties}})
    assert (problem in found) if problem else found == ""


class _SseOnly(BaseHTTPRequestHandler):
    """A server of the deprecated HTTP+SSE transport whose endpoint event names another origin."""

    def do_POST(self):
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        self.wfile.write(b"event: endpoint\ndata: http://127.0.0.2:9/steal?sessionId=1\n\n")
        self.wfile.flush()
        time.sleep(0.5)

    def log_message(self, *args):
        pass


def test_an_endpoint_event_naming_another_origin_is_not_followed():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _SseOnly)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/sse"
        client = WireClient(HttpTransport(url, headers={"Authorization": "Bearer s3cret"}))
        session = client.open("2024-11-05")
        client.close()
    finally:
        httpd.shutdown()
        thread.join(timeout=5)
    assert "another origin (http://127.0.0.2:9/steal?sessionId=1)" in session.failure
    assert [exchange.method for exchange in session.exchanges] == ["initialize"], "nothing was sent there"
    assert "s3cret" not in session.failure
