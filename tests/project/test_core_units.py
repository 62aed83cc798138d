"""Hand-written expectations for small pure functions of the core that mutation testing found
unpinned: the filter bar, permalinks, the audit text, host-model agreement, shown commands."""

from __future__ import annotations

from django.http import QueryDict

from comparison.core import failures
from comparison.hosts import agreement
from comparison.hosts.view import FAILED, HostView, Rule
from comparison.probes.targets.secrets import display_command
from registers.core.facetcounts import FacetOption, facet_options
from registers.core.filterbar import filter_fields
from registers.core.rowfilter import FACETS, RowFilter, evaluate, parse

RULE = Rule("x.ts:1")


def test_querystrings_leave_defaults_out_and_apply_changes():
    f = parse(QueryDict("register=b&register=a&revision=2025-06-18&host=mcpx&host_mode=lacks&q=two+words"))
    assert f.querystring() == "?register=b&register=a&revision=2025-06-18&host=mcpx&host_mode=lacks&q=two+words"
    assert f.querystring(host="", q="") == "?register=b&register=a&revision=2025-06-18"
    assert f.querystring(rev_mode="absent") == (
        "?register=b&register=a&revision=2025-06-18&rev_mode=absent&host=mcpx&host_mode=lacks&q=two+words"
    )
    assert RowFilter().querystring() == "?"
    assert RowFilter(rev_mode="absent", host_mode="has").querystring() == "?", "a mode without its value is moot"
    assert RowFilter(label="a b", status="yes", value="negative", effort="XL", risk="high").querystring() == (
        "?label=a+b&status=yes&value=negative&effort=XL&risk=high"
    )
    assert RowFilter(cite="moved", changed_since="3").querystring() == "?cite=moved&changed_since=3"


def test_the_filter_bar_names_every_field_and_mode():
    f = RowFilter(rev_mode="absent", host_mode="lacks")
    names = [field.name for field in filter_fields(f, {name: [object()] for name in FACETS})]
    fields = filter_fields(f, {name: [FacetOption("x", "x", 1, False)] for name in names})
    assert [(x.name, x.label, x.any_label, x.mode_name, x.mode, x.common) for x in fields] == [
        ("register", "Register", "All registers", "", "", True),
        ("revision", "Revision", "Any revision", "rev_mode", "absent", True),
        ("host", "Host", "Any host", "host_mode", "lacks", True),
        ("evidence", "Evidence", "Any evidence", "", "", True),
        ("label", "Label", "Any label", "", "", False),
        ("status", "Status", "Any status", "", "", False),
        ("value", "Value", "Any value", "", "", False),
        ("effort", "Effort", "Any effort", "", "", False),
        ("risk", "Risk", "Any risk", "", "", False),
        ("cite", "Citations", "Any citations", "", "", False),
        ("changed_since", "Changed", "Any time", "", "", False),
    ]
    empty = filter_fields(f, facet_options(evaluate([], f), f, []))
    assert "changed_since" not in [x.name for x in empty], "no choice but 'any time': left out (issue 26, row 13)"
    kept = filter_fields(
        RowFilter(changed_since="3"),
        {name: [] for name in names} | {"changed_since": [FacetOption("3", "since 3", 0, True)]},
    )
    assert [x.name for x in kept] == ["changed_since"], "a field in use stays"
    counts = {name: [f"options of {name}"] for name in [field.name for field in fields]}
    assert {x.name: x.options for x in filter_fields(f, counts)} == counts, "each select gets its own options"
    assert fields[1].modes == [
        ("exists", "exists in"),
        ("introduced", "introduced in"),
        ("removed", "removed or deprecated in"),
        ("absent", "absent in"),
        ("unknown", "unknown in"),
    ]
    assert fields[2].modes == [
        ("mentioned", "mentioned"),
        ("has", "has it"),
        ("partial", "partial"),
        ("lacks", "lacks it"),
    ]
    real = {x.name: x for x in filter_fields(f, facet_options(evaluate([], f), f, []))}
    assert [(o.value, o.label) for o in real["value"].options] == [
        ("high", "+ high"),
        ("med", "+ med"),
        ("low", "+ low"),
        ("negative", "− (cost or moot)"),
    ]
    assert [o.label for o in real["status"].options] == ["✓", "partial", "✗", "n/a", "acc."]
    assert [o.label for o in real["cite"].options] == ["any drifted", "any moved", "any unverified"]


def test_the_audit_text_table():
    cell = failures.AuditCell
    table = {consumer: {k: cell() for k in failures.COORDINATES} for consumer in failures.CONSUMERS}
    for key, (typed, with_text) in zip(
        failures.COORDINATES, [(5, 6), (1, 2), (0, 3), (0, 0), (0, 0), (2, 2)], strict=True
    ):
        table["proxy output"][key] = cell(typed=typed, with_text=with_text, total=6)
    table["lootbox"]["D"] = cell(typed=1, with_text=1, total=1)
    assert failures.audit_text(table).splitlines() == [
        "consumer                           D         P         C         T         E         R",
        "-" * 86,
        "published (of 21)           18/21      8/19      0/19      0/18      0/0       0/0    ",
        "proxy output (of 6)          5/6       1/2       0/3       0/0       0/0       2/2    ",
        "lootbox · script (of 1)      1/1       0/0       0/0       0/0       0/0       0/0    ",
        "cells: typed fields only / typed fields + text",
    ]


def view(*changes: tuple[str, str], outcome: str = "delivered") -> HostView:
    made = HostView("lootbox", "script", "lootbox · script")
    for subject, action in changes:
        (made.drop if action == "dropped" else made.change)(subject, "why", RULE)
    if outcome == FAILED:
        made.fail("thrown")
    return made


def test_agreement_reduces_a_view_to_what_happened_to_the_row_subject():
    assess = agreement.assess
    assert assess(view(outcome=FAILED), "failure") == agreement.KEPT, "failing is having a failure row"
    assert assess(view(), "failure") == agreement.DROPPED
    assert assess(view(outcome=FAILED), "image") == agreement.FAILS
    assert assess(view(("content[0] (image)", "dropped")), "image") == agreement.DROPPED
    assert assess(view(("content[0] (image)", "changed")), "image") == agreement.CHANGED
    assert assess(view(("content[0] (audio)", "dropped")), "image") == agreement.KEPT, "another block"
    assert assess(view(("content[0] (image) annotations", "dropped")), "image") == agreement.KEPT
    assert assess(view(("content[0] (image) _meta", "dropped")), "image") == agreement.KEPT
    assert assess(view(("content[0] (resource_link) uri", "changed")), "resource_link") == agreement.KEPT
    assert assess(view(("content[0] (image) annotations", "dropped")), "annotations") == agreement.DROPPED
    assert assess(view(("content[0] (image) _meta", "changed")), "_meta") == agreement.CHANGED
    assert assess(view(("content[0] (image) _meta", "changed")), "annotations") == agreement.KEPT
    assert assess(view(("messages[1] role", "changed")), "role") == agreement.DROPPED
    assert assess(view(("messages[1] (text)", "changed")), "role") == agreement.KEPT
    parsed = view()
    parsed.change("script value", "JSON text is parsed into an object", RULE)
    assert assess(parsed, "parse") == agreement.KEPT
    assert assess(view(("script value", "changed")), "parse") == agreement.DROPPED


def test_row_host_views_check_only_main_paths_and_stated_states():
    assert agreement.row_host_views("XX-99", {}) is None
    name, entries = agreement.row_host_views("CT-13", {"mcpx": "lacks", "lootbox": "partial", "opencode-v1": "has"})
    assert name == "structured_with_text"
    by_key = {entry.view.key: entry for entry in entries}
    assert len(entries) == 7
    assert by_key["mcpx"].agreement in ("agrees", "disagrees"), "CT-13 is about what mcpx passes on"
    assert by_key["lootbox"].agreement == "", "partial is not a state the models check"
    assert by_key["opencode-v1-codemode"].agreement == "", "code mode is shown, not checked"
    assert by_key["opencode-v1"].register_state == "has"
    assert by_key["cloudflare"].register_state == ""
    _, entries = agreement.row_host_views("CT-05", {"mcpx": "lacks"})
    assert next(e for e in entries if e.view.key == "mcpx").agreement == "", "CT-05 is about mcpx's own features"


def test_commands_are_shown_without_credential_values():
    shown = display_command(["serve", "--token=a=b", "--password", "pw", "pw", "x=pw", "--label=a=b", "--mode=a"])
    # A value named a credential anywhere is masked wherever else it appears.
    assert shown == ["serve", "--token=•••", "--password", "•••", "•••", "x=•••", "--label=•••", "--mode=a"]


def test_a_prompt_row_is_checked_against_the_hosts_prompt_paths():
    name, entries = agreement.row_host_views("PRM-05", {"opencode-v1": "has"})
    assert name == "prompt_few_shot"
    assert [(e.view.key, e.view.path) for e in entries] == [
        ("opencode-v1-slash-command", "slash-command"),
        ("opencode-v2-slash-command", "slash-command"),
        ("mcpx-prompt", "prompt"),
    ]
