"""Per-revision support and host segments from the Where cell and labels."""

from __future__ import annotations

import pytest

from registers.core.support import host_segments, milestones, revision_support


def states(cell: str, events=()):
    return [(s.state, s.note, s.source) for s in revision_support(cell, list(events))]


def test_every_revision_stated():
    assert [s for s, _, _ in states("`24-11 ✓ · 25-03 — · 25-06 ✓ (+_meta) · 25-11 dep · 26-07 dep.`")] == [
        "exists",
        "absent",
        "exists",
        "deprecated",
        "deprecated",
    ]
    assert states("`25-06 ✓ (+_meta)`")[2] == ("exists", "+_meta", "where")


def test_no_space_before_parenthesis():
    assert states("`25-06 ✓(schema)`")[2] == ("exists", "schema", "where")


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("`24-11..25-11 ✓ · 26-07 rem`", ["exists"] * 4 + ["absent"]),
        # A cell that lists revisions has none before the first it lists as having it.
        ("`25-03+ MUST`", ["absent", "exists", "exists", "exists", "exists"]),
        ("all five ✓", ["exists"] * 5),
        ("`25-06 forbidden · 26-07 MAY`", ["absent", "absent", "absent", "absent", "exists"]),
        ("`2025-11-25 ✓`", ["absent", "absent", "absent", "exists", "unknown"]),
        ("removable from 2027-07-28", ["unknown"] * 5),
        ("spec: none · opencode v2 16 MiB · mcpx 64 MiB", ["unknown"] * 5),
    ],
)
def test_cell_forms(cell, expected):
    assert [s for s, _, _ in states(cell)] == expected


def test_labels_fill_what_the_cell_leaves_open():
    result = states("mcpx only", [("2025-06-18", "has"), ("2026-07-28", "removes")])
    assert result == [
        ("absent", "before its first revision", "inferred"),
        ("absent", "before its first revision", "inferred"),
        ("exists", "", "label"),
        ("exists", "", "inferred"),
        ("absent", "", "label"),
    ]


def test_cell_wins_over_labels_and_earlier_form_carries_forward():
    result = states("`24-11 inline unions · 25-06 ContentBlock`", [("2025-06-18", "has")])
    assert [s for s, _, _ in result] == ["exists", "exists", "exists", "exists", "exists"]
    assert result[0] == ("exists", "inline unions", "where")


def test_unknown_without_any_evidence():
    assert {s for s, _, _ in states("mcpx only")} == {"unknown"}


def test_milestones():
    support = revision_support("`25-03 ✓ · 25-06 — `", [])
    assert milestones(support, []) == {"introduced_in": "2025-03-26", "removed_in": "2025-06-18", "deprecated_in": ""}
    events = [("2025-11-25", "has"), ("2026-07-28", "deprecates")]
    support = revision_support("`25-11 ✓ · 26-07 dep`", events)
    assert milestones(support, events) == {
        "introduced_in": "2025-11-25",
        "removed_in": "",
        "deprecated_in": "2026-07-28",
    }


def test_host_segments():
    found = [
        (s.host, s.state, s.text)
        for s in host_segments(
            "`opencode v1 ✓ ($1..$n) · v2 ✓ (server:prompt)` · lootbox deno only · CF isolate · opencode v1 dropped"
        )
    ]
    assert found == [
        ("opencode-v1", "has", "opencode v1 ✓ ($1..$n)"),
        ("opencode-v2", "has", "v2 ✓ (server:prompt)"),
        ("lootbox", "mentioned", "lootbox deno only"),
        ("cloudflare", "mentioned", "CF isolate"),
        ("opencode-v1", "lacks", "opencode v1 dropped"),
    ]
    both = [(s.host, s.text) for s in host_segments("mcpx · opencode v1/v2 · Cloudflare unwrap")]
    assert both == [
        ("mcpx", "mcpx"),
        ("opencode-v1", "opencode v1/v2"),
        ("opencode-v2", "opencode v1/v2"),
        ("cloudflare", "Cloudflare unwrap"),
    ]


# The order of authority (issue: inference that contradicts the Where cell).


def test_only_means_no_other_revision_whatever_a_removes_label_implies():
    result = states("`25-11 only`", [("2026-07-28", "removes")])
    assert result == [
        ("absent", "the Where cell says 25-11 only", "inferred"),
        ("absent", "the Where cell says 25-11 only", "inferred"),
        ("absent", "the Where cell says 25-11 only", "inferred"),
        ("exists", "only", "where"),
        ("absent", "", "label"),
    ]
    support = revision_support("`25-11 only`", [("2026-07-28", "removes")])
    assert milestones(support, [("2026-07-28", "removes")])["introduced_in"] == "2025-11-25"


def test_a_list_has_nothing_before_its_first_revision_unless_a_label_says_so():
    listed = states("`25-11 client asks · 26-07 server decides`", [("2026-07-28", "deprecates")])
    assert [s for s, _, _ in listed] == ["absent", "absent", "absent", "exists", "exists"]
    assert listed[0] == ("absent", "before the first revision the Where cell lists", "inferred")
    assert listed[4] == ("exists", "server decides", "where"), "what the cell states beats the label"
    labelled = states("`26-07 MUST`", [("2024-11-05", "has")])
    assert [s for s, _, _ in labelled] == ["exists"] * 5, "a has label earlier than the list starts the strip there"
    assert labelled[2] == ("exists", "", "inferred")


def test_removes_infers_exists_only_where_nothing_says_otherwise():
    result = states("`25-11 ✓ · 26-07 dep`", [("2026-07-28", "deprecates")])
    assert [s for s, _, _ in result] == ["absent", "absent", "absent", "exists", "deprecated"]
    bare = states("nothing about revisions", [("2025-06-18", "removes")])
    assert [s for s, _, _ in bare] == ["exists", "exists", "absent", "absent", "absent"]
    assert bare[0] == ("exists", "before its removal", "inferred")


def test_a_label_for_its_own_revision_beats_an_inference_but_not_the_cell():
    result = states("`26-07 only`", [("2025-03-26", "has")])
    assert [(s, src) for s, _, src in result] == [
        ("absent", "inferred"),
        ("exists", "label"),
        ("absent", "inferred"),
        ("absent", "inferred"),
        ("exists", "where"),
    ]
    assert states("`25-06 —`", [("2025-06-18", "has")])[2] == ("absent", "", "where")
