"""The filter and facet semantics over plain row facts, with hand-written expectations."""

from __future__ import annotations

from django.http import QueryDict

from language.vocabulary import LAB_ONLY_HOSTS
from registers.core.facetcounts import facet_options
from registers.core.rowcompare import Side, revision_sides
from registers.core.rowfacts import RowFacts, citation_state, facts_document
from registers.core.rowfilter import evaluate, parse, select

E, A, D, U = "exists", "absent", "deprecated", "unknown"
REVS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")


def support(*states: str) -> dict[str, str]:
    return dict(zip(REVS, states, strict=True))


ROWS = [
    RowFacts(
        1,
        "alpha",
        status="yes",
        value="high",
        effort="S",
        risk="low",
        introduced="2024-11-05",
        support=support(E, E, E, E, E),
        hosts={"opencode-v1": "has", "mcpx": "partial"},
        labels=frozenset({"2024-11-05 has", "opencode v1 has"}),
    ),
    RowFacts(
        2,
        "alpha",
        status="no",
        value="negative",
        effort="M",
        risk="high",
        introduced="2025-03-26",
        deprecated="2025-11-25",
        support=support(A, E, E, D, D),
        hosts={"opencode-v1": "lacks"},
        labels=frozenset({"2025-03-26 has", "2025-11-25 deprecates"}),
        cite=frozenset({"drifted"}),
        latest_version=2,
    ),
    RowFacts(
        3,
        "beta",
        status="partial",
        value="med",
        effort="S",
        risk="med",
        removed="2025-06-18",
        support=support(U, U, A, A, A),
        hosts={"lootbox": "has"},
        labels=frozenset({"2025-06-18 removes"}),
        cite=frozenset({"unverified", "moved"}),
        latest_version=1,
    ),
    RowFacts(4, "beta", support=support(U, U, U, U, U)),
]


def pks(query: str) -> list[int]:
    return select(ROWS, parse(QueryDict(query)))


def test_revision_modes():
    assert pks("revision=2025-11-25") == [1, 2], "deprecated still exists"
    assert pks("revision=2025-11-25&rev_mode=absent") == [3]
    assert pks("revision=2024-11-05&rev_mode=unknown") == [3, 4]
    assert pks("revision=2024-11-05&rev_mode=absent") == [2], "unknown is never absent"
    assert pks("revision=2025-03-26&rev_mode=introduced") == [2]
    assert pks("revision=2025-11-25&rev_mode=removed") == [2]
    # Row 3's label says 2025-06-18 removes it, but its strip does not state 2025-03-26: a removal
    # needs the revision before to be stated (the label alone made CT-07 "introduced" too late).
    assert pks("revision=2025-06-18&rev_mode=removed") == []
    assert pks("revision=2025-06-18&rev_mode=introduced") == []


def test_host_modes():
    assert pks("host=opencode-v1") == [1, 2]
    assert pks("host=opencode-v1&host_mode=has") == [1]
    assert pks("host=opencode-v1&host_mode=lacks") == [2]
    assert pks("host=mcpx&host_mode=partial") == [1]
    assert pks("host=cloudflare") == []


def test_scalar_and_set_filters():
    assert pks("register=beta") == [3, 4]
    assert pks("register=alpha&register=beta") == [1, 2, 3, 4]
    assert pks("label=2025-06-18+removes") == [3]
    assert pks("status=partial") == [3]
    assert pks("value=negative") == [2]
    assert pks("value=med") == [3]
    assert pks("effort=S") == [1, 3]
    assert pks("risk=high") == [2]
    assert pks("cite=drifted") == [2]
    assert pks("cite=moved") == [3]
    assert pks("cite=unverified") == [3]
    assert pks("changed_since=1") == [2, 3]
    assert pks("changed_since=2") == [2]
    assert pks("changed_since=3") == []
    assert pks("register=alpha&effort=S") == [1]


def counts(query: str) -> dict[str, dict[str, int]]:
    f = parse(QueryDict(query))
    options = facet_options(evaluate(ROWS, f), f, [("alpha", "Alpha"), ("beta", "Beta"), ("gamma", "Gamma")])
    return {name: {o.value: o.count for o in opts} for name, opts in options.items()}


def test_each_facet_counts_over_the_other_filters():
    c = counts("register=alpha&effort=S")
    # The register facet ignores the register filter: effort=S leaves rows 1 (alpha) and 3 (beta).
    assert c["register"] == {"alpha": 1, "beta": 1, "gamma": 0}
    # The effort facet ignores the effort filter: register=alpha leaves rows 1 (S) and 2 (M).
    assert c["effort"] == {"S": 1, "M": 1, "L": 0, "XL": 0}
    # Every other facet counts the rows that pass both: row 1 alone.
    assert c["status"] == {"yes": 1, "partial": 0, "no": 0, "na": 0, "acc": 0}
    assert c["value"] == {"high": 1, "med": 0, "low": 0, "negative": 0}


def test_revision_counts_follow_the_mode():
    assert counts("")["revision"] == {
        "2024-11-05": 1,
        "2025-03-26": 2,
        "2025-06-18": 2,
        "2025-11-25": 2,
        "2026-07-28": 2,
    }
    assert counts("rev_mode=unknown")["revision"]["2024-11-05"] == 2
    assert counts("rev_mode=absent")["revision"] == {
        "2024-11-05": 1,
        "2025-03-26": 0,
        "2025-06-18": 1,
        "2025-11-25": 1,
        "2026-07-28": 1,
    }
    assert counts("rev_mode=removed")["revision"]["2025-06-18"] == 0
    assert counts("rev_mode=removed")["revision"]["2025-11-25"] == 1
    assert counts("rev_mode=introduced")["revision"]["2025-03-26"] == 1


def test_host_label_cite_and_changed_counts():
    c = counts("")
    lab_hosts = dict.fromkeys(LAB_ONLY_HOSTS, 0)  # no lab reading here
    assert c["host"] == {"opencode-v1": 2, "opencode-v2": 0, "lootbox": 1, "cloudflare": 0, "mcpx": 1, **lab_hosts}
    assert counts("host_mode=lacks")["host"]["opencode-v1"] == 1
    assert c["cite"] == {"drifted": 1, "moved": 1, "unverified": 1}
    # A count says how many rows picking the value shows: "since 1" shows rows changed at 1 or later.
    assert c["changed_since"] == {"1": 2, "2": 1}
    assert c["label"] == {
        "2024-11-05 has": 1,
        "2025-03-26 has": 1,
        "2025-06-18 removes": 1,
        "2025-11-25 deprecates": 1,
        "opencode v1 has": 1,
    }


def test_labels_are_ordered_by_count_then_text_and_a_missing_selection_shows():
    rows = [*ROWS, RowFacts(5, "beta", labels=frozenset({"2025-06-18 removes"}))]
    f = parse(QueryDict("label=nowhere"))
    options = facet_options(evaluate(rows, f), f, [])["label"]
    assert [(o.value, o.count, o.selected) for o in options[:3]] == [
        ("nowhere", 0, True),
        ("2025-06-18 removes", 2, False),
        ("2024-11-05 has", 1, False),
    ]


def test_unknown_values_are_dropped_and_reported():
    f = parse(QueryDict("revision=1999-01-01&host=netscape&effort=huge&changed_since=x1&rev_mode=sideways"))
    assert (f.revision, f.host, f.effort, f.changed_since, f.rev_mode) == ("", "", "", "", "exists")
    assert f.ignored == (
        "revision=1999-01-01",
        "rev_mode=sideways",
        "host=netscape",
        "effort=huge",
        "changed_since=x1",
    )


def test_facts_document_from_children():
    document = facts_document(
        {"2025-06-18": "exists"},
        {"mcpx": "has"},
        ["b", "a", "b"],
        [("", "spec-page"), ("exact", "spec-page"), ("", "url"), ("file missing", "host-source")],
        [3, 1],
    )
    assert document == {
        "support": {"2025-06-18": "exists"},
        "hosts": {"mcpx": "has"},
        "labels": ["a", "b"],
        "cite": ["drifted", "unverified"],
        "latest_version": 3,
    }
    assert citation_state("no source", "wire") == ""
    assert citation_state("no source", "spec-page") == "unverified"
    assert citation_state("moved", "url") == "moved"


def options(query: str) -> dict[str, list[tuple[str, str, bool]]]:
    f = parse(QueryDict(query))
    found = facet_options(evaluate(ROWS, f), f, [("alpha", "Alpha"), ("beta", "Beta")])
    return {name: [(o.value, o.label, o.selected) for o in opts] for name, opts in found.items()}


def test_every_facet_option_has_its_label_and_marks_only_what_is_selected():
    query = (
        "register=beta&revision=2025-06-18&rev_mode=absent&host=lootbox&label=2025-06-18+removes&status=partial"
        "&value=med&effort=S&risk=med&cite=moved&changed_since=1"
    )
    found = options(query)
    assert found["register"] == [("alpha", "Alpha", False), ("beta", "Beta", True)]
    assert [(v, label) for v, label, _ in found["revision"]] == [(rev, rev) for rev in REVS]
    assert [v for v, _, selected in found["revision"] if selected] == ["2025-06-18"]
    assert ("lootbox", "lootbox", True) in found["host"]
    assert ("opencode-v1", "opencode v1", False) in found["host"]
    assert [v for v, _, selected in found["host"] if selected] == ["lootbox"]
    assert found["label"] == [("2025-06-18 removes", "2025-06-18 removes", True)]
    assert found["status"] == [
        ("yes", "✓", False),
        ("partial", "partial", True),
        ("no", "✗", False),
        ("na", "n/a", False),
        ("acc", "acc.", False),
    ]
    assert found["value"] == [
        ("high", "+ high", False),
        ("med", "+ med", True),
        ("low", "+ low", False),
        ("negative", "− (cost or moot)", False),
    ]
    assert found["effort"] == [("S", "S", True), ("M", "M", False), ("L", "L", False), ("XL", "XL", False)]
    assert found["risk"] == [("low", "low", False), ("med", "med", True), ("high", "high", False)]
    assert [(v, label) for v, label, selected in found["cite"] if selected] == [("moved", "any moved")]
    assert found["changed_since"] == [("1", "since increment 1", True)]


def test_labels_are_ordered_by_count_then_text_and_a_chosen_label_no_row_has_is_kept():
    found = options("")["label"]
    assert [v for v, _, _ in found] == sorted(v for v, _, _ in found), "each label once: ordered by text"
    rows = [*ROWS, RowFacts(5, "beta", labels=frozenset({"opencode v1 has"}))]
    f = parse(QueryDict("label=no+such+label"))
    labelled = facet_options(evaluate(rows, f), f, [])["label"]
    assert [(o.value, o.count, o.selected) for o in labelled][:2] == [
        ("no such label", 0, True),
        ("opencode v1 has", 2, False),
    ]
    assert all(not o.selected for o in labelled[1:])


def test_two_hosts_list_only_rows_where_both_are_stated_and_differ():
    compared = [
        RowFacts(1, "a", hosts={"opencode-v1": "has", "cloudflare": "lacks"}),
        RowFacts(2, "a", hosts={"opencode-v1": "has", "cloudflare": "has"}),
        RowFacts(3, "a", hosts={"opencode-v1": "has"}),  # Cloudflare never stated: not a difference
        RowFacts(4, "a", hosts={"opencode-v1": "mentioned", "cloudflare": "lacks"}),
        RowFacts(5, "a", hosts={"opencode-v1": "partial", "cloudflare": "has"}),
    ]
    f = parse(QueryDict("host=opencode-v1&vs_host=cloudflare"))
    assert select(compared, f) == [1, 5]
    assert f.params() == [("host", "opencode-v1"), ("vs_host", "cloudflare")]
    found = facet_options(evaluate(compared, f), f, [])
    assert {o.value: o.count for o in found["host"]}["cloudflare"] == 0, "a host never differs from itself"
    assert parse(QueryDict("vs_host=cloudflare")).ignored == ("vs_host=cloudflare",), "no first side"


def test_two_revisions_list_rows_whose_stated_state_differs_with_the_direction():
    compared = [
        RowFacts(1, "a", support=support(A, E, E, E, E)),
        RowFacts(2, "a", support=support(E, E, A, A, A)),
        RowFacts(3, "a", support=support(U, U, E, E, E)),  # 2025-03-26 unknown: not a difference
        RowFacts(4, "a", support=support(E, E, E, D, D)),
        RowFacts(5, "a", support=support(E, E, E, E, E)),
    ]
    f = parse(QueryDict("revision=2024-11-05&vs_revision=2025-06-18"))
    assert select(compared, f) == [1, 2]
    assert revision_sides(compared[0], "2024-11-05", "2025-06-18") == Side("absent", "exists", "added")
    assert revision_sides(compared[0], "2025-06-18", "2024-11-05") == Side("exists", "absent", "added")
    assert revision_sides(compared[3], "2025-06-18", "2026-07-28").word == "deprecated"
    assert select(compared, parse(QueryDict("revision=2025-03-26&rev_mode=introduced"))) == [1]
    assert select(compared, parse(QueryDict("revision=2025-06-18&rev_mode=introduced"))) == [], "U, U, E: not stated"
    assert select(compared, parse(QueryDict("revision=2024-11-05&rev_mode=introduced"))) == [2, 4, 5]
