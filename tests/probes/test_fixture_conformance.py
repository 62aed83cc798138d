"""The fixture's part for the official conformance suite (comparison.probes.fixture.fixture_conformance),
over the real fixture on stdio: what the suite does not reach (a client without the capability,
an odd template id, completion's bounds). The suite itself runs in tests/e2e/test_conformance.py."""

from __future__ import annotations

import json
import sys

from comparison.probes.fixture.fixture_conformance import TEMPLATE, complete, template_read
from comparison.probes.transport.stdio_transport import StdioTransport
from comparison.probes.transport.wire import WireClient

FIXTURE = [sys.executable, "-m", "comparison.probes.fixture.fixture_server", "--stdio"]


def _session(capabilities=None):
    client = WireClient(StdioTransport(FIXTURE), capabilities=capabilities)
    client.open("2025-11-25")
    return client


def test_a_client_without_the_capability_gets_a_tool_error_not_a_request():
    client = _session()
    try:
        sampled = client.request("tools/call", {"name": "test_sampling", "arguments": {"prompt": "hi"}})
        elicited = client.request("tools/call", {"name": "test_elicitation_sep1330_enums", "arguments": {}})
    finally:
        client.close()
    for exchange, capability in ((sampled, "sampling"), (elicited, "elicitation")):
        result = exchange.response["result"]
        assert result["isError"] is True
        assert result["content"][0]["text"] == f"the client did not declare the {capability} capability"
        asked = [m["message"].get("method") for m in exchange.sequence if m["direction"] == "received"]
        assert asked == [None], "the answer only: nothing was asked of the client"


def test_a_client_with_the_capability_is_asked():
    client = _session({"sampling": {}})
    try:
        sampled = client.request("tools/call", {"name": "test_sampling", "arguments": {"prompt": "hi"}})
    finally:
        client.close()
    asked = [m["message"].get("method") for m in sampled.sequence if m["direction"] == "received"]
    assert asked[0] == "sampling/createMessage"


def test_the_template_and_completion_answer_as_the_suite_expects_and_stay_bounded():
    client = _session()
    try:
        read = client.request("resources/read", {"uri": "test://template/123/data"})
        completed = client.request(
            "completion/complete",
            {
                "ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"},
                "argument": {"name": "a", "value": "par"},
            },
        )
    finally:
        client.close()
    contents = read.response["result"]["contents"][0]
    assert json.loads(contents["text"]) == {"id": "123", "templateTest": True, "data": "Data for ID: 123"}
    assert completed.response["result"]["completion"] == {
        "values": ["paris", "park", "party"],
        "total": 3,
        "hasMore": False,
    }
    assert TEMPLATE == "test://template/{id}/data"
    assert template_read("test://template/a/b/data") is None, "one path segment only"
    assert template_read("test://template/" + "x" * 201 + "/data") is None
    assert complete({}, {"value": "z" * 10_000})["completion"]["values"] == []
