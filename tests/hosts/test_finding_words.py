"""A finding's words are derived from the evidence it cites, never reused from another kind: an
empty first page, listen streams left open, an error turned into a result, a result replaced by a
tool error, and `isError: false` (the schema's default) as no difference at all."""

from __future__ import annotations

from comparison.probes.assessment import strictness
from comparison.probes.assessment.diffing import diff
from comparison.probes.families import changes, pagination
from comparison.probes.families.base import Played, Scenario
from language.vocabulary import ProbeVerdict as V

PAGES = Scenario("pages-tools", "tools/list over three pages", "tools/list", {}, family="pagination")


def test_an_empty_first_page_without_a_cursor_says_every_item_is_lost():
    played = Played(notes={"pages": [[]], "reference": {"pages": [["text", "image"], ["paged-tool-1"]]}})
    [finding] = pagination.assess(PAGES, played, "2025-06-18")
    assert finding.verdict == V.LOST
    assert finding.detail == (
        "page 1 came empty and without nextCursor: none of the 6 items of the list reach the client"
    )


def test_a_first_page_without_its_cursor_counts_the_later_items():
    played = Played(notes={"pages": [["text"]]})
    [finding] = pagination.assess(PAGES, played, "2025-06-18")
    assert finding.detail == "page 1 came without nextCursor: 4 items of later pages never reach the client"


def test_notifications_of_cancelled_listen_streams_are_named_as_such():
    stale = [{"method": "x", "params": {"_meta": {changes.SUBSCRIPTION_ID: 69}}}]
    assert changes._untagged(stale, 71) == (
        "it came only for listen stream(s) [69] the client had cancelled, none for its current one (71): "
        "the proxy leaves earlier listen streams open upstream"
    )
    assert "without its listen stream's subscription id" in changes._untagged([{"params": {}}], 71)


def test_isError_false_is_the_same_answer_as_none():
    sent = {"result": {"content": [{"type": "text", "text": "hi"}]}}
    got = {"result": {"content": [{"type": "text", "text": "hi"}], "isError": False}}
    assert diff(strictness.normalized("tools/call", sent), strictness.normalized("tools/call", got)) == []
    assert strictness.normalized("tools/call", {"result": {"isError": True}}) == {"result": {"isError": True}}
    assert strictness.normalized("prompts/get", got) is got, "only where the schema gives the default"


def test_an_error_turned_into_a_result_says_so_and_names_the_data_dropped():
    sent = {"error": {"code": -32001, "message": "Upstream down", "data": {"retryAfterMs": 2000}}}
    got = {"result": {"content": [{"type": "text", "text": "Error calling tool: Upstream down"}], "isError": True}}
    [finding] = strictness.explain(sent, got, diff(sent, got))
    assert (finding.verdict, finding.message) == (V.CHANGED, "error")
    assert finding.detail == (
        "the upstream's JSON-RPC error -32001 “Upstream down” reached the client as a tool result with isError "
        "saying “Error calling tool: Upstream down”; its data (retryAfterMs) never reaches the client"
    )


def test_a_result_replaced_by_an_error_or_a_tool_error_is_a_loss():
    sent = {"result": {"content": [{"type": "text", "text": "hi"}]}}
    [as_error] = strictness.explain(sent, {"error": {"code": -32603, "message": "Invalid\n  result"}}, [])
    assert as_error.verdict == V.LOST
    assert as_error.detail.endswith("it got JSON-RPC error -32603 “Invalid result”"), "whitespace collapsed"
    tool_error = {"result": {"content": [{"type": "text", "text": "3 validation errors"}], "isError": True}}
    [finding] = strictness.explain(sent, tool_error, diff(sent, tool_error))
    assert (finding.verdict, finding.detail) == (
        V.LOST,
        "the upstream's result never reaches the client: it got a tool error saying “3 validation errors”",
    )


def test_other_differences_are_told_field_by_field_with_how_many_more():
    sent = {"result": {"a": 1, "b": 2, "c": 3, "d": 4}}
    got = {"result": {"a": 2, "b": 3, "c": 4, "d": 5}}
    [finding] = strictness.explain(sent, got, diff(sent, got))
    assert finding.detail.startswith("`result.a` changed: “1” → “2”; `result.b` changed")
    assert finding.detail.endswith("and 1 more")


def test_another_runs_sessions_on_a_shared_upstream_are_no_proxys():
    """Each opening names its run (`initialize` `_meta`): a session another run opened on the same
    upstream is not counted as the proxy's; one that names no run (the proxy's own) still is."""
    from comparison.probes.families import upstream_told as told

    saved = list(told.OPENED)
    try:
        told.OPENED.clear()
        told.session_opened("s-proxy", "proxy-own", "2025-06-18")
        # Another run reached the same upstream under another name (directly, or via another proxy).
        told.session_opened("s-other", "mcp-compare-probe (via mcp-remote)", "2025-06-18", run="bbbbbbbbbbbb")
        told.session_opened("s-mine", "mcp-compare-probe", "2025-06-18", run="aaaaaaaaaaaa")
        seen = told._sessions_seen("s-mine", "mcp-compare-probe", told.run_of("aaaaaaaaaaaa-2025-06-18-told-sessions"))
        assert [(entry["client"], entry["own"]) for entry in seen] == [
            ("proxy-own", False),
            ("mcp-compare-probe", True),
        ]
    finally:
        told.OPENED[:] = saved
