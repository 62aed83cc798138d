"""Lists compared by identity, never by position: a gateway that renames every item, and an
aggregator that lists tools of its own first, through the HTTP relay (tests/support/http_relay.py) in
front of the fixture. The rename is one finding naming the items, every other cell is played
under the proxy's names and says what a host calling through it gets; an aggregator's own tools
are named as such and change no upstream item."""

from __future__ import annotations

import pytest

from comparison.hosts import change_kinds
from comparison.probes.assessment import item_names, listing
from comparison.probes.assessment.diffing import diff
from comparison.services.probing import ensure_builtin_target
from comparison.tasks import start_run
from language.vocabulary import ProbeVerdict as V
from tests.support.relay_targets import cells, kinds, through_http_relay

KEYS = [
    "tools-list", "prompts-list", "text", "image", "structured", "prompt-multi", "pages-tools", "ask-sampling",
    "mrtr-sampling",
]  # fmt: skip
CALLS = ("text", "image", "structured", "prompt-multi", "ask-sampling", "mrtr-sampling")
REVISIONS = ["2025-06-18", "2026-07-28"]


@pytest.fixture(scope="module")
def renamed():
    return cells(through_http_relay("rename", KEYS, REVISIONS))


@pytest.fixture(scope="module")
def aggregated():
    return cells(through_http_relay("aggregate", KEYS, REVISIONS))


@pytest.mark.parametrize("revision", REVISIONS)
def test_a_renaming_gateway_is_one_finding_and_every_call_goes_by_its_names(renamed, revision):
    tools = renamed[("tools-list", revision)]
    assert tools.verdict == V.CHANGED
    assert kinds(tools) == {change_kinds.RENAMED_ITEMS}
    assert "`text → fixture_text`" in tools.findings[0]["message"]
    assert kinds(renamed[("prompts-list", revision)]) == {change_kinds.RENAMED_ITEMS}
    for key in [key for key in CALLS if (key, revision) in renamed]:
        outcome = renamed[(key, revision)]
        assert outcome.verdict == V.AS_EXPECTED, (key, outcome.findings, outcome.failure)
        sent = [e["request"] for e in outcome.exchanges if e["method"] in ("tools/call", "prompts/get")]
        assert sent[-1]["params"]["name"].startswith("fixture_"), "called by the name the proxy lists"
    pages = renamed[("pages-tools", revision)]
    assert [f["verdict"] for f in pages.findings] == [V.CHANGED], pages.findings
    assert kinds(pages) == {change_kinds.RENAMED_ITEMS}


@pytest.mark.parametrize("revision", REVISIONS)
def test_an_aggregators_own_tools_are_its_own_finding_and_change_no_upstream_tool(aggregated, revision):
    tools = aggregated[("tools-list", revision)]
    assert [(f["verdict"], f.get("kind")) for f in tools.findings] == [(V.CHANGED, change_kinds.PROXY_ITEMS)]
    assert "`relay_search`, `relay_status`" in tools.findings[0]["message"]
    assert {d["path"] for d in tools.diff} == {"result.tools[name=relay_search]", "result.tools[name=relay_status]"}
    for key in [key for key in KEYS[1:] if (key, revision) in aggregated]:
        # The fixture's own newer fields (prompt icons at 2025-06-18) are invalid for the revision, as directly.
        assert aggregated[(key, revision)].verdict in (V.AS_EXPECTED, V.INVALID), key


def test_items_are_matched_by_name_whatever_their_order():
    before = {"result": {"tools": [{"name": "a", "description": "A"}, {"name": "b", "description": "B"}]}}
    after = {"result": {"tools": [{"name": "b", "description": "B"}, {"name": "a", "description": "changed"}]}}
    assert diff(before, after) == [
        {"path": "result.tools[name=a].description", "change": "changed", "before": "A", "after": "changed"}
    ]


def test_a_missing_item_is_a_loss_naming_it_and_a_rename_is_matched_by_its_fields():
    upstream = {"result": {"tools": [{"name": "text", "description": "d1"}, {"name": "gone", "description": "d2"}]}}
    listed = {"result": {"tools": [{"name": "upstream.text", "description": "d1"}]}}
    assert item_names.renames("tools/list", upstream, listed) == {"text": "upstream.text"}
    found = listing.membership("tools/list", upstream, listed)
    assert [(f.verdict, f.detail) for f in found] == [
        (V.CHANGED, "renamed: 1 tool: `text → upstream.text`"),
        (V.LOST, "missing from the client's list: 1 tool: `gone`"),
    ]
    alike = {"result": {"tools": [{"name": "zz9", "description": "d1"}, {"name": "other", "description": "x"}]}}
    assert item_names.renames("tools/list", upstream, alike) == {"text": "zz9"}, "matched by its fields alone"


@pytest.mark.django_db
def test_a_run_records_what_the_target_said_it_is_and_the_target_page_groups_runs_by_it(client):
    """A newcomer following the README (the 'ready for a team' report)."""
    from comparison.models import ProbeRun

    target = ensure_builtin_target()
    first = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    first.refresh_from_db()
    assert first.server_identity == "mcp-compare-fixture 1.0.0", "from the first answer's serverInfo"
    assert "the target said it is" in client.get(first.get_absolute_url()).content.decode()
    assert client.get(f"/api/v1/runs/{first.pk}/").json()["server_identity"] == "mcp-compare-fixture 1.0.0"
    # A later run, as if the proxy had been rolled back and answered with another serverInfo.
    older = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    ProbeRun.objects.filter(pk=older.pk).update(server_identity="mcp-compare-fixture 0.9.0")
    html = client.get(target.get_absolute_url()).content.decode()
    assert 'id="by-version"' in html
    assert html.index("mcp-compare-fixture 0.9.0") < html.index("mcp-compare-fixture 1.0.0</th>"), "newest first"


def test_runs_group_by_identity_newest_first_and_a_silent_target_is_named_so():
    """A newcomer following the README (the 'ready for a team' report)."""
    from comparison.core.version_groups import UNSAID, by_version

    groups = by_version([(5, "proxy 2.0", "t5", (3, 4)), (4, "", "t4", (0, 0)), (3, "proxy 2.0", "t3", (1, 4)),
                         (2, "proxy 1.0", "t2", (2, 2))])  # fmt: skip
    assert [(g.identity, g.run_ids, g.percent) for g in groups] == [
        ("proxy 2.0", [5, 3], 75.0),
        (UNSAID, [4], None),
        ("proxy 1.0", [2], 100.0),
    ]
    assert (groups[0].first_seen, groups[0].last_seen) == ("t3", "t5")
