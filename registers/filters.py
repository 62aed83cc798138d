"""The one place that turns query parameters into rows, and counts per filter value.

The semantics live in `registers.rowfilter` (pure); this module asks the database one flat
question, the facts of every row (`Row.facts`, kept by the loader and `registers.facts`), once
per data version and process, and hands them over. No listing joins child tables to decide what
matches, so no plan can explode when statistics lag a load, and a listing between two writes
reads no row it does not show.
"""

from __future__ import annotations

from dataclasses import dataclass

from .models import Register, Row
from .pagecache import data_version
from .rowfacts import row_facts
from .rowfilter import (  # noqa: F401  (re-exported: the filter vocabulary callers use)
    CITATION_CHOICES,
    FACETS,
    HOST_MODE_TEXT,
    HOST_MODES,
    REV_MODE_TEXT,
    REV_MODES,
    STATUS_CHOICES,
    VALUE_CHOICES,
    Evaluation,
    FacetOption,
    FilterField,
    RowFilter,
    evaluate,
    facet_options,
    filter_fields,
    parse,
)

FACT_COLUMNS = (
    "pk",
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


@dataclass(frozen=True)
class Snapshot:
    """What every listing needs of the data, as of one data version."""

    facts: list
    register_titles: list[tuple[str, str]]


#: One snapshot per process, for the data version it was read at.
_memo: dict[str, Snapshot] = {}


def snapshot() -> Snapshot:
    """Every row's facts in display order and the registers' titles, read once per data version."""
    version = data_version()
    if version not in _memo:
        rows = Row.objects.order_by("register__title", "order").values_list(*FACT_COLUMNS)
        titles = list(Register.objects.order_by("title").values_list("slug", "title"))
        _memo.clear()
        _memo[version] = Snapshot([_facts(*values) for values in rows], titles)
    return _memo[version]


def _facts(pk, slug, status, sign, level, effort, risk, introduced, removed, deprecated, document, search_text):
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
    return row_facts(pk, slug, scalars, document or {}, search_text)


@dataclass
class Filtered:
    """The outcome of one filter state: matching row keys in display order, and the facet counts."""

    filter: RowFilter
    evaluation: Evaluation
    register_titles: list[tuple[str, str]]

    @property
    def pks(self) -> list[int]:
        return self.evaluation.pks

    def facets(self) -> dict[str, list[FacetOption]]:
        return facet_options(self.evaluation, self.filter, self.register_titles)

    def rows(self):
        """The matching rows as a queryset (unordered: callers order and prefetch)."""
        if not self.filter.q and not any(self.filter.facet_active(name) for name in FACETS):
            return Row.objects.all()
        return Row.objects.filter(pk__in=self.pks)


def run(f: RowFilter) -> Filtered:
    data = snapshot()
    return Filtered(f, evaluate(data.facts, f), data.register_titles)


def apply(f: RowFilter):
    """The rows matching every filter of `f`, as a queryset."""
    return run(f).rows()


def facets(f: RowFilter) -> dict[str, list[FacetOption]]:
    return run(f).facets()
