"""The host × protocol model (comparison.hosts.protocol) against the real hosts: the opencode
binary with a stdio server whose tools span two pages, change mid-session, ask for roots and for
form input of each schema kind; and @cloudflare/codemode listing a two-page upstream that then
announces a change. The real host wins: a difference here means the model is wrong.

Needs `npm install` in comparison/hostlab/node (scripts/test.sh does it)."""

from __future__ import annotations

import json
import sys

import pytest

from comparison.hostlab import codemode_node as real_cloudflare
from comparison.hostlab import protocol_server as server
from comparison.hostlab.install import missing
from comparison.hostlab.opencode_serve import OpencodeHost
from comparison.hosts import protocol

pytestmark = pytest.mark.realhost
TOOL_PREFIX = "probe_"


@pytest.fixture(scope="module", autouse=True)
def installed():
    gaps = missing()
    assert not gaps, f"real hosts not installed ({', '.join(gaps)}): run npm install in comparison/hostlab/node"


@pytest.fixture(scope="module")
def opencode() -> dict:
    """One opencode session per case, in this order: what it listed and told, roots, each
    elicitation kind, then a tool that changes the list, then the list the next turn offers."""
    with OpencodeHost({}, server=[sys.executable, server.__file__]) as host:
        first = host.capture("report")
        seen = {
            "offered_before": first.offered_tools(),
            "report": json.loads(first.tool_text),
            "roots": json.loads(host.capture("roots").tool_text),
            "elicit": {kind: json.loads(host.capture(f"elicit_{kind}").tool_text) for kind in server.ELICIT_SCHEMAS},
        }
        host.capture("mutate")
        seen["offered_after"] = host.capture("second_page").offered_tools()
    return seen


def uses(host: str, aspect: str) -> bool:
    return protocol.reaction(host, aspect).uses


def test_opencode_follows_cursors_as_modelled(opencode):
    follows = f"{TOOL_PREFIX}{server.SECOND_PAGE[0]}" in opencode["offered_before"]
    assert opencode["report"]["list_cursors"][:2] == [None, "page-2"]
    assert follows is True
    assert uses("opencode-v1", "pages-tools") is follows


def test_opencode_refreshes_on_list_changed_as_modelled(opencode):
    added = f"{TOOL_PREFIX}{server.ADDED}"
    assert added not in opencode["offered_before"]
    refreshed = added in opencode["offered_after"]
    assert refreshed is True
    assert uses("opencode-v1", "list-changed") is refreshed


def test_opencode_answers_roots_and_no_elicitation_as_modelled(opencode):
    roots = opencode["roots"].get("result", {}).get("roots", [])
    assert [root["uri"][:8] for root in roots] == ["file:///"]
    assert roots[0]["uri"].endswith("/project")
    assert uses("opencode-v1", "ask-roots") is True
    answers = {kind: answer.get("error", {}).get("code") for kind, answer in opencode["elicit"].items()}
    # No elicitation capability, no handler: the SDK answers every schema kind "method not found".
    assert answers == dict.fromkeys(server.ELICIT_SCHEMAS, -32601)
    assert uses("opencode-v1", "ask-elicit-form") is False
    assert uses("opencode-v1", "ask-elicit-url") is False


def test_opencode_told_the_upstream_what_the_model_says(opencode):
    report = opencode["report"]
    assert report["capabilities"] == {"roots": {}}
    assert uses("opencode-v1", "told-capabilities") is bool(report["capabilities"])
    assert uses("opencode-v1", "ask-sampling") is ("sampling" in report["capabilities"])
    assert report["clientInfo"]["name"] == "opencode"
    assert report["protocolVersion"] == protocol.NEWEST["opencode-v1"]
    token = report["calls"]["report"]["progressToken"]
    assert token is True
    assert uses("opencode-v1", "progress") is token


@pytest.fixture(scope="module")
def codemode() -> dict:
    return real_cloudflare.protocol()


def test_codemode_lists_the_first_page_once_as_modelled(codemode):
    assert codemode["listed_cursors"] == [None]
    assert codemode["offered_before"] == ["first_page_tool"]
    assert codemode["described"] == ["first_page_tool"]
    # The model says a lost cursor changes nothing for codemode: it never follows one.
    assert uses("cloudflare", "pages-tools") is (len(codemode["listed_cursors"]) > 1)


def test_codemode_ignores_list_changed_as_modelled(codemode):
    refreshed = codemode["offered_after"] != codemode["offered_before"]
    assert refreshed is False
    assert uses("cloudflare", "list-changed") is refreshed


def test_codemode_told_the_upstream_what_the_model_says(codemode):
    assert codemode["told"]["capabilities"] == {}
    assert codemode["told"]["clientInfo"]["name"] == "codemode-proxy"
    for aspect in ("ask-sampling", "ask-elicit-form", "ask-roots", "told-capabilities"):
        assert uses("cloudflare", aspect) is False
