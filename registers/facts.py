"""Keeps `Row.facts`, the per-row summary the filters read, in step with the row's children.

Every write path that changes what a filter looks at (a register load, citation verification)
calls `refresh` for the rows it touched, in a handful of statements whatever their number.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from registers.bulkwrite import update_many
from registers.core.rowfacts import facts_document


def refresh(row_pks: Iterable[int], models=None) -> int:
    """Recompute the facts of the given rows from their children; returns how many were written.

    `models` lets a data migration pass its historical models (anything with Row, Label,
    RevisionSupport, HostNote, Citation and RowVersion attributes).
    """
    if models is None:
        from registers import models
    pks = sorted(set(row_pks))
    if not pks:
        return 0
    support: dict[int, dict[str, str]] = defaultdict(dict)
    hosts: dict[int, dict[str, str]] = defaultdict(dict)
    labels: dict[int, list[str]] = defaultdict(list)
    citations: dict[int, list[tuple[str, str]]] = defaultdict(list)
    versions: dict[int, list[int]] = defaultdict(list)
    for chunk in _chunks(pks):
        for row, revision, state in models.RevisionSupport.objects.filter(row_id__in=chunk).values_list(
            "row_id", "revision", "state"
        ):
            support[row][revision] = state
        for row, host, state in models.HostNote.objects.filter(row_id__in=chunk).values_list("row_id", "host", "state"):
            hosts[row][host] = state
        for row, text in models.Label.objects.filter(row_id__in=chunk).values_list("row_id", "text"):
            labels[row].append(text)
        for row, verdict, kind in models.Citation.objects.filter(row_id__in=chunk).values_list(
            "row_id", "verdict", "kind"
        ):
            citations[row].append((verdict, kind))
        for row, increment in models.RowVersion.objects.filter(row_id__in=chunk).values_list("row_id", "increment"):
            versions[row].append(increment)
    rows = [
        models.Row(pk=pk, facts=facts_document(support[pk], hosts[pk], labels[pk], citations[pk], versions[pk]))
        for pk in pks
    ]
    if hasattr(models, "DataVersion"):
        update_many(models.Row, rows, ["facts"])
    else:  # the data migration's historical models
        models.Row.objects.bulk_update(rows, ["facts"], batch_size=500)
    if hasattr(models, "DataVersion"):  # not in the data migration's historical models
        from common.pagecache import bump_data_version

        bump_data_version()
    return len(rows)


def refresh_all(models=None) -> int:
    if models is None:
        from registers import models
    return refresh(models.Row.objects.values_list("pk", flat=True), models)


def _chunks(pks: list[int], size: int = 900) -> Iterable[list[int]]:
    # Stays under SQLite's bound on parameters per statement on old builds.
    for start in range(0, len(pks), size):
        yield pks[start : start + size]
