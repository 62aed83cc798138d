"""The filter bar's counts: for each filter value, how many rows picking it would show, each over
the rows the other filters leave. Pure: no Django."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from language import vocabulary as vocab
from registers.core.rowfilter import (
    CITATION_CHOICES,
    EVIDENCE_CHOICES,
    EVIDENCE_NAMES,
    STATUS_CHOICES,
    VALUE_CHOICES,
    Evaluation,
    RowFilter,
    host_matches,
    revision_matches,
)


@dataclass
class FacetOption:
    value: str
    label: str
    count: int
    selected: bool


def facet_options(
    evaluation: Evaluation, f: RowFilter, register_titles: list[tuple[str, str]]
) -> dict[str, list[FacetOption]]:
    """Counts per filter value, each over the rows the other filters leave."""
    rows = evaluation.per_facet
    result: dict[str, list[FacetOption]] = {}

    registers = Counter(facts.register for facts in rows["register"])
    result["register"] = [
        FacetOption(slug, title, registers[slug], slug in f.registers) for slug, title in register_titles
    ]
    result["revision"], result["host"] = _revision_options(rows["revision"], f), _host_options(rows["host"], f)

    labels = Counter(text for facts in rows["label"] for text in facts.labels)
    result["label"] = [
        FacetOption(text, text, n, text == f.label) for text, n in sorted(labels.items(), key=lambda i: (-i[1], i[0]))
    ]
    if f.label and f.label not in labels:
        result["label"].insert(0, FacetOption(f.label, f.label, 0, True))

    for name, choices, names in (
        ("status", STATUS_CHOICES, vocab.STATUS_LABELS),
        ("value", VALUE_CHOICES, VALUE_NAMES),
        ("effort", vocab.EFFORT_SIZES, {}),
        ("risk", vocab.RISK_LEVELS, {}),
    ):
        counts = Counter(getattr(facts, name) for facts in rows[name])
        result[name] = [
            FacetOption(choice, names.get(choice, choice), counts[choice], getattr(f, name) == choice)
            for choice in choices
        ]

    cite = Counter(state for facts in rows["cite"] for state in facts.cite)
    result["cite"] = [
        FacetOption(choice, f"any {choice}", cite[choice], f.cite == choice) for choice in CITATION_CHOICES
    ]

    changed = sorted({facts.latest_version for facts in rows["changed_since"]} - {0})
    result["changed_since"] = [
        FacetOption(
            str(increment),
            f"since increment {increment}",
            sum(1 for facts in rows["changed_since"] if facts.latest_version >= increment),
            f.changed_since == str(increment),
        )
        for increment in changed
    ]
    evidence = Counter(facts.evidence for facts in rows["evidence"])
    result["evidence"] = [
        FacetOption(choice, EVIDENCE_NAMES[choice], evidence[choice], f.evidence == choice)
        for choice in EVIDENCE_CHOICES
    ]
    return result


def _revision_options(rows: list, f: RowFilter) -> list[FacetOption]:
    """Each revision with the rows it matches in the filter's revision mode (the one compared
    with counts none)."""
    return [
        FacetOption(
            rev,
            rev,
            sum(
                1
                for facts in rows
                if rev != f.vs_revision and revision_matches(facts, rev, f.rev_mode, f.vs_revision, f.vs_all)
            ),
            rev == f.revision,
        )
        for rev in vocab.REVISIONS
    ]


def _host_options(rows: list, f: RowFilter) -> list[FacetOption]:
    """Each host with the rows it matches in the filter's host mode (the one compared with counts
    none)."""
    return [
        FacetOption(
            host,
            vocab.HOST_NAMES[host],
            sum(
                1 for facts in rows if host != f.vs_host and host_matches(facts, host, f.host_mode, f.vs_host, f.vs_all)
            ),
            host == f.host,
        )
        for host in vocab.ROW_HOSTS
    ]


VALUE_NAMES = {"negative": "− (cost or moot)", "high": "+ high", "med": "+ med", "low": "+ low"}
