"""The Disagreements list: every row and host where some evidence contradicts the register's
claim, with how many rows each verdict has. Both come from the rows' facts snapshot
(registers.filters), where each row's evidence is worked out once per data version for the
listings too; loading each row with its register's JSON (lint findings and warnings) had made
this page's memory grow with rows × register size."""

from __future__ import annotations

from collections import Counter

from django.core.paginator import Paginator

from common.http import page_or_404
from evidence.lab_findings import model_partings
from evidence.rules import evidence
from registers import filters
from registers.disagreement_items import Disagreement

PAGE_SIZE = 100


def items() -> list[Disagreement]:
    return filters.snapshot().disagreements


def row_counts() -> list[tuple[str, int]]:
    verdicts = Counter(facts.evidence for facts in filters.snapshot().facts)
    return [(verdict, verdicts.get(verdict, 0)) for verdict in evidence.VERDICTS]


def page(number: str | None) -> dict:
    """One page of the list (100 items), with the row counts of every verdict."""
    return {
        "page": page_or_404(Paginator(items(), PAGE_SIZE), number),
        "row_counts": row_counts(),
        "model_partings": model_partings(),
    }
