"""Evidence beside every claim, read from the database for the registers app: the latest probe
cells of every target, then comparison.evidence over them."""

from __future__ import annotations

from registers.vocabulary import HOSTS

from . import evidence
from .hosts.agreement import row_host_views
from .hosts.findings import findings_for
from .models import ProbeResult, ProbeRun
from .selectors import latest_ended_runs


def latest_probe_cells(row_id: str | None = None) -> dict[str, list[evidence.ProbeCell]]:
    """{row id: cells} of the latest ended run of every target (two queries); one row's only when
    `row_id` is given."""
    runs = latest_ended_runs()
    results = ProbeResult.objects.filter(run_id__in=list(runs)).exclude(rows_key="")
    if row_id is not None:
        results = results.filter(rows_key__contains=f",{row_id},")
    cells: dict[str, list[evidence.ProbeCell]] = {}
    columns = ("id", "run_id", "scenario", "requested_revision", "rows", "host_views", "interop")
    for pk, run_id, scenario, revision, rows, views, interop_ in results.order_by("id").values_list(*columns):
        target, status = runs[run_id]
        cell = evidence.ProbeCell(
            pk,
            run_id,
            target,
            scenario,
            revision,
            tuple(views if isinstance(views, list) else ()),
            interop_ if isinstance(interop_, dict) else {},
            "" if status == ProbeRun.DONE else status,
        )
        for row in rows if isinstance(rows, list) else ():
            cells.setdefault(row, []).append(cell)
    return cells


def row_evidence(
    row_id: str, claims: dict[str, str], model, cells=None, revisions: evidence.RowRevisions | None = None
) -> list[evidence.HostEvidence]:
    """Per host, then the spec: the claim and every source for or against it (the row page's
    evidence table)."""
    if cells is None:
        cells = latest_probe_cells(row_id).get(row_id, [])
    return evidence.row_evidence(row_id, claims, model, findings_for(row_id), cells, HOSTS, revisions)


def row_revisions(facts: dict | None, introduced: str, removed: str) -> evidence.RowRevisions:
    """What a stored row says of the revisions (its `facts` support and its labels' span)."""
    return evidence.RowRevisions((facts or {}).get("support", {}), introduced or "", removed or "")


def evidence_of_rows(
    rows: list[tuple[str, dict[str, str], evidence.RowRevisions]],
    cells: dict[str, list[evidence.ProbeCell]] | None = None,
) -> dict[str, list[evidence.HostEvidence]]:
    """{row id: evidence per host and the spec} for (row id, claims, revisions), from two queries
    (none when the latest probe `cells` are given)."""
    cells = latest_probe_cells() if cells is None else cells
    return {
        row_id: row_evidence(row_id, claims, row_host_views(row_id, claims), cells.get(row_id, []), revisions)
        for row_id, claims, revisions in rows
    }
