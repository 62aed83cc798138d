"""The one place that turns query parameters into rows, and counts per filter value.

The semantics live in `registers.core.rowfilter` (pure); this module asks the database one flat
question, the facts of every row (`Row.facts`, kept by the loader and `registers.facts`), once
per data version and process, and hands them over. No listing joins child tables to decide what
matches, so no plan can explode when statistics lag a load, and a listing between two writes
reads no row it does not show.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace

from common.beside_runs import kept_beside_runs
from common.pagecache import data_version, data_versions
from evidence import lab_states, row_evidence
from evidence.rules.evidence import row_verdict
from registers.core.facetcounts import FacetOption, facet_options
from registers.core.filterbar import HOST_MODE_TEXT, REV_MODE_TEXT, FilterField, filter_fields  # noqa: F401  (re-exported)
from registers.core.rowfacts import row_facts
from registers.core.rowfilter import (  # noqa: F401  (re-exported: the filter vocabulary callers use)
    CITATION_CHOICES,
    EVIDENCE_CHOICES,
    FACETS,
    HOST_MODES,
    REV_MODES,
    STATUS_CHOICES,
    VALUE_CHOICES,
    Evaluation,
    RowFilter,
    evaluate,
    parse,
)
from registers.disagreement_items import Disagreement, disagreements_of
from registers.models import Register, Row

FACT_COLUMNS = (
    "pk",
    "row_id",
    "register__slug",
    "status_verdict",
    "value_sign",
    "value_level",
    "effort",
    "risk",
    "introduced_in",
    "removed_in",
    "deprecated_in",
    "facts",
    "search_text",
)
#: What the evidence reads of a row beside its facts: what it is about and its status subject.
EVIDENCE_COLUMNS = ("anchors", "difference", "register__subject")
#: What the Disagreements list shows of a row, read in the same query.
SHOWN_COLUMNS = ("title", "register__title")


@dataclass(frozen=True)
class Snapshot:
    """What every listing needs of the data, as of one data version: each row's facts, the
    registers' titles, and the claims some evidence contradicts (the Disagreements list), all from
    one pass over every row's evidence."""

    facts: list
    register_titles: list[tuple[str, str]]
    disagreements: list[Disagreement] = field(default_factory=list)
    #: A digest of what the runs decide in it (each row's evidence verdict, the disagreements).
    runs_digest: str = ""


#: One snapshot per process, for the data version it was read at.
_memo: dict[str, Snapshot] = {}


def listing_version() -> str:
    """What the listings (row list, matrix, Disagreements) are keyed by in place of the data
    version: everything but the runs, and what the runs decide in the snapshot. A stored run or
    upload that changes no row's evidence leaves every listing's cached copy good."""
    version, beside_runs = data_versions()
    return f"{beside_runs[:12]}{snapshot(version).runs_digest}"


def snapshot(version: str | None = None) -> Snapshot:
    """Every row's facts in display order and the registers' titles, read once per data version."""
    version = version or data_version()
    if version not in _memo:
        rows, titles, measured = _read_beside_runs()
        found = row_evidence.evidence_of_rows([_evidence_input(values) for values in rows])
        verdicts = {row_id: row_verdict(items) for row_id, items in found.items()}
        facts = [
            _facts(values[: len(FACT_COLUMNS)], verdicts.get(values[1], "untested"), measured.get(values[0], {}))
            for values in rows
        ]
        contradicted = [
            item
            for values in rows
            for item in disagreements_of(values[2], values[-1], values[1], values[-2], found.get(values[1], []))
        ]
        digest = hashlib.blake2b(repr(([item.evidence for item in facts], contradicted)).encode(), digest_size=8)
        _memo.clear()
        _memo[version] = Snapshot(facts, titles, contradicted, digest.hexdigest())
    return _memo[version]


@kept_beside_runs
def _read_beside_runs() -> tuple[list, list, dict]:
    """(every row's columns, the registers' titles, {row pk: {lab-only host: state}}): none of it
    changes with a stored run, so a team's uploads cost the next snapshot its evidence alone."""
    columns = (*FACT_COLUMNS, *EVIDENCE_COLUMNS, *SHOWN_COLUMNS)
    rows = list(Row.objects.order_by("register__title", "order").values_list(*columns))
    titles = list(Register.objects.order_by("title").values_list("slug", "title"))
    # The hosts no register has a column for are stated by the lab, from what each row is about.
    measured = lab_states.states_of_rows((values[0], values[len(FACT_COLUMNS)]) for values in rows)
    return rows, titles, measured


def _evidence_input(values: tuple) -> tuple:
    """(row id, host claims, revisions) of one snapshot row for evidence.rules.evidence."""
    facts = values[11] or {}
    anchors, difference, subject = values[len(FACT_COLUMNS) : len(FACT_COLUMNS) + len(EVIDENCE_COLUMNS)]
    status = values[3]
    revisions = row_evidence.row_revisions(
        row_evidence.StoredRow(facts, values[8], values[9], anchors, difference, subject, status)
    )
    return values[1], facts.get("hosts", {}), revisions


def _facts(values: tuple, evidence: str, measured: dict[str, str]):
    pk, _, slug, status, sign, level, effort, risk, introduced, removed, deprecated, document, search_text = values
    scalars = {
        "status": status,
        "value_sign": sign,
        "value_level": level,
        "effort": effort,
        "risk": risk,
        "introduced": introduced,
        "removed": removed,
        "deprecated": deprecated,
    }
    facts = row_facts(pk, slug, scalars, document or {}, search_text)
    return replace(facts, evidence=evidence, hosts={**facts.hosts, **measured})


@dataclass
class Filtered:
    """The outcome of one filter state: matching row keys in display order, and the facet counts."""

    filter: RowFilter
    evaluation: Evaluation
    register_titles: list[tuple[str, str]]
    #: Every loaded row's facts, as the filter read them (the same snapshot: no second read).
    facts: list = field(default_factory=list)

    @property
    def pks(self) -> list[int]:
        return self.evaluation.pks

    def facets(self) -> dict[str, list[FacetOption]]:
        return facet_options(self.evaluation, self.filter, self.register_titles)

    @property
    def selects_all(self) -> bool:
        return not self.filter.q and not any(self.filter.facet_active(name) for name in FACETS)

    def unstated(self) -> int:
        """How many more rows a comparison of two hosts or revisions would list, counting a side the
        row does not state: said up front, so an empty comparison is not mistaken for no rows."""
        f = self.filter
        if f.vs_all or not (f.vs_host or f.vs_revision):
            return 0
        return len(evaluate(self.facts, replace(f, vs_all="1")).pks) - len(self.pks)

    def rows(self):
        """The matching rows as a queryset (unordered: callers order and prefetch)."""
        if self.selects_all:
            return Row.objects.all()
        return Row.objects.filter(pk__in=self.pks)


def run(f: RowFilter) -> Filtered:
    data = snapshot()
    return Filtered(f, evaluate(data.facts, f), data.register_titles, data.facts)


def apply(f: RowFilter):
    """The rows matching every filter of `f`, as a queryset."""
    return run(f).rows()


def facets(f: RowFilter) -> dict[str, list[FacetOption]]:
    return run(f).facets()
