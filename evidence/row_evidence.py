"""Evidence beside every claim, for the register pages: the latest probe cells of every target,
matched to rows by their anchors, then evidence.rules.evidence over them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from comparison.hosts.agreement import row_host_views
from comparison.hosts.findings import findings_for
from comparison.models import ProbeResult, ProbeRun
from comparison.probes.conformance import conformance
from comparison.selectors.runs import latest_ended_runs
from evidence import cell_memo
from evidence.rules import evidence
from language.anchors.row_anchors import TITLE
from language.vocabulary import HOSTS

COLUMNS = (
    "id", "run_id", "scenario", "requested_revision", "anchors", "host_views", "interop", "verdict", "family", "seen",
)  # fmt: skip


def latest_probe_cells(anchors: Iterable[str] | None = None) -> list[evidence.ProbeCell]:
    """The cells of the latest ended run of every target that is the dashboard's own measurement
    (an uploaded run once accepted); only those that meet `anchors` when given (none for a row with
    no anchors). One query for the latest runs; their cells come from the runs read before in this
    process (cell_memo), and from the database (two queries) only for the runs new since."""
    latest = cell_memo.latest(latest_ended_runs(measured=True), cells_of_runs)
    if anchors is None:
        return latest.cells
    _, positions = latest.meeting(anchors)
    return [latest.cells[i] for i in positions]


def cells_of_runs(runs: dict[int, tuple[str, str, bool]]) -> list:
    """The cells of these runs (two queries)."""
    results = ProbeResult.objects.filter(run_id__in=list(runs)).diagonal().exclude(anchors_key="")
    cells = []
    for pk, run_id, scenario, revision, declared, views, interop_, verdict, family, seen in results.order_by(
        "id"
    ).values_list(*COLUMNS):
        target, status, builtin = runs[run_id][:3]
        cells.append(
            evidence.ProbeCell(
                pk,
                run_id,
                target,
                scenario,
                revision,
                tuple(views if isinstance(views, list) else ()),
                interop_ if isinstance(interop_, dict) else {},
                "" if status == ProbeRun.DONE else status,
                tuple(declared if isinstance(declared, list) else ()),
                verdict,
                family,
                tuple(seen if isinstance(seen, list) else ()),
                bool(builtin),
            )
        )
    cells += _suite_cells(runs)
    return cells


def _suite_cells(runs: dict[int, tuple[str, str, bool]]) -> list[evidence.ProbeCell]:
    """The official conformance suite's scenarios in the latest runs, as cells (one query): each
    with its anchors (its spec references and those of our matching scenarios)."""
    cells = []
    for run_id, stored in (
        ProbeRun.objects.filter(pk__in=list(runs)).order_by("pk").values_list("pk", "conformance_results")
    ):
        target, status, _ = runs[run_id][:3]
        rows, _ = conformance.stored(stored)
        for row in rows:
            declared = row.get("anchors")
            if not isinstance(declared, list) or not declared:
                continue
            cells.append(
                evidence.ProbeCell(
                    0,
                    run_id,
                    target,
                    f"{conformance.SUITE} {row.get('scenario', '?')}",
                    str(conformance.SUITE_REVISION),
                    (),
                    {},
                    "" if status == ProbeRun.DONE else status,
                    tuple(str(value) for value in declared),
                    str(row.get("verdict", "")),
                    "the conformance suite",
                    (),
                    False,
                )
            )
    return cells


def row_evidence(
    row_id: str, claims: dict[str, str], model, cells=None, revisions: evidence.RowRevisions | None = None
) -> list[evidence.HostEvidence]:
    """Per host, then the spec, the status and the related checks: the claim and every source for
    or against it (the row page's evidence table)."""
    anchors = revisions.anchors if revisions is not None else ()
    if cells is None:
        cells = latest_probe_cells(anchors)
    return evidence.row_evidence(
        row_id,
        claims,
        evidence.RowMeasurements(
            model, findings_for(anchors, revisions.subject if revisions is not None else ()), cells
        ),
        HOSTS,
        revisions,
    )


class StoredRow(NamedTuple):
    """A stored row's fields that say what it claims of the revisions: its `facts` (with their
    support), its labels' span, its stored anchors, its title, its register's subject and status."""

    facts: dict | None
    introduced: str
    removed: str
    anchors: list | None = None
    title: str = ""
    status_subject: str = ""
    status: str = ""


def row_revisions(row: StoredRow) -> evidence.RowRevisions:
    """What a stored row says of the revisions (its `facts` support and its labels' span), what it
    is about (its stored anchors) and its status claim."""
    found = [item for item in row.anchors or () if isinstance(item, dict) and item.get("anchor")]
    return evidence.RowRevisions(
        (row.facts or {}).get("support", {}),
        row.introduced or "",
        row.removed or "",
        row.title or "",
        tuple(item["anchor"] for item in found),
        tuple(item["anchor"] for item in found if item.get("how") == TITLE),
        row.status_subject or "",
        row.status or "",
        tuple(item["anchor"] for item in found if item.get("how") == "what"),
    )


def revisions_of_row(row) -> evidence.RowRevisions:
    """row_revisions of a loaded register Row (with its register)."""
    return row_revisions(
        StoredRow(
            row.facts,
            row.introduced_in,
            row.removed_in,
            row.anchors,
            row.difference or row.title,
            row.register.subject,
            row.status_verdict,
        )
    )


def evidence_of_rows(
    rows: list[tuple[str, dict[str, str], evidence.RowRevisions]],
    cells: list[evidence.ProbeCell] | None = None,
) -> dict[str, list[evidence.HostEvidence]]:
    """{row id: evidence per host, the spec, the status and related checks} for (row id, claims,
    revisions), from two queries (none when the latest probe `cells` are given). Read from the
    database, a row's evidence is reused while neither it nor the runs meeting it changed."""

    def compute(row_id: str, claims: dict, revisions: evidence.RowRevisions, met: list) -> list:
        model = row_host_views(row_id, claims, revisions.title)
        return evidence.row_evidence(
            row_id,
            claims,
            evidence.RowMeasurements(model, findings_for(revisions.anchors, revisions.subject), met),
            HOSTS,
            revisions,
        )

    if cells is None:
        return cell_memo.row_evidence(rows, cell_memo.latest(latest_ended_runs(measured=True), cells_of_runs), compute)
    indexed = cell_memo.LatestCells(cells, {})
    found = {}
    for row_id, claims, revisions in rows:
        _, positions = indexed.meeting(revisions.anchors)
        found[row_id] = compute(row_id, claims, revisions, [cells[i] for i in positions])
    return found
