"""The one place that turns query parameters into rows, and counts per filter value.

The semantics live in `registers.rowfilter` (pure); this module asks the database one flat
question, the facts of every row (`Row.facts`, kept by `registers.facts`) with the free-text
search applied, and hands them over. No listing joins child tables to decide what matches, so
no plan can explode when statistics lag a load.
"""

from __future__ import annotations

from dataclasses import dataclass

from .models import Register, Row
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
    row_facts,
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
)


def load_facts(f: RowFilter, rows=None) -> list:
    """Every row's facts in display order, narrowed by the free-text search (one query)."""
    rows = Row.objects.all() if rows is None else rows
    if f.q:
        rows = rows.search(f.q)
    return [
        row_facts(
            pk,
            slug,
            {
                "status": status,
                "value_sign": sign,
                "value_level": level,
                "effort": effort,
                "risk": risk,
                "introduced": introduced,
                "removed": removed,
                "deprecated": deprecated,
            },
            document or {},
        )
        for pk, slug, status, sign, level, effort, risk, introduced, removed, deprecated, document in rows.order_by(
            "register__title", "order"
        ).values_list(*FACT_COLUMNS)
    ]


@dataclass
class Filtered:
    """The outcome of one filter state: matching row keys in display order, and the facet counts."""

    filter: RowFilter
    evaluation: Evaluation

    @property
    def pks(self) -> list[int]:
        return self.evaluation.pks

    def facets(self) -> dict[str, list[FacetOption]]:
        titles = list(Register.objects.order_by("title").values_list("slug", "title"))
        return facet_options(self.evaluation, self.filter, titles)

    def rows(self):
        """The matching rows as a queryset (unordered: callers order and prefetch)."""
        if not self.filter.q and not any(self.filter.facet_active(name) for name in FACETS):
            return Row.objects.all()
        return Row.objects.filter(pk__in=self.pks)


def run(f: RowFilter) -> Filtered:
    return Filtered(f, evaluate(load_facts(f), f))


def apply(f: RowFilter):
    """The rows matching every filter of `f`, as a queryset."""
    return run(f).rows()


def facets(f: RowFilter) -> dict[str, list[FacetOption]]:
    return run(f).facets()
