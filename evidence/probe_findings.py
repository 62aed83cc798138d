"""What the probes found, per register row: the probe results whose scenarios meet a row's
anchors, the latest verdict of every cell (for the row list, the exports and the API), and the
newest run that scored failures. Reads the probe app's tables for the register pages."""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from operator import or_

from django.db.models import Q

from comparison.models import ProbeResult, ProbeRun
from comparison.selectors.runs import latest_ended_runs
from evidence.rules.latest_verdicts import LatestVerdicts
from language.anchors import kinds


def _anchor_filter(anchors: Iterable[str]) -> Q:
    """Results whose anchor keys hold one of these anchors' keys; none (",," is in no key) for a
    row with no anchors, in a query all the same, so every row page costs the same."""
    keys = sorted(kinds.all_keys(anchors or ()))
    return reduce(or_, (Q(anchors_key__contains=f",{key},") for key in keys or [""]))


#: What the row page shows of a result (its exchanges and differences are read on its own page).
SHOWN_FIELDS = (
    "run_id", "scenario", "requested_revision", "negotiated_revision", "verdict", "anchors",
    "run__status", "run__target__name",
)  # fmt: skip


def row_probe_results(anchors: Iterable[str], limit: int = 20) -> list[ProbeResult]:
    """The latest probe results whose scenarios meet a register row's anchors."""
    wanted = list(anchors)
    found = _anchor_filter(wanted)
    # The LIKEs find a superset (two properties of one definition share it), read a few more.
    candidates = (
        ProbeResult.objects.filter(found)
        .diagonal()
        .filter(ProbeRun.measured("run__"))
        .select_related("run__target")
        .only(*SHOWN_FIELDS)
        .order_by("-id")[: limit * 5]
    )
    return [result for result in candidates if kinds.meet(set(wanted), set(result.anchors))][:limit]


def latest_audit_run_id() -> int | None:
    """The newest run that scored failures (DPCTER), for the failure-gap rows to link to."""
    return (
        ProbeResult.objects.exclude(dpcter=[])
        .filter(ProbeRun.measured("run__"))
        .order_by("-id")
        .values_list("run_id", flat=True)
        .first()
    )


def latest_probe_verdicts() -> LatestVerdicts:
    """Per cell of the latest ended run of every target, its verdict and anchors. A verdict from a
    run that did not finish says so: `as expected (run interrupted)`."""
    latest = latest_ended_runs(measured=True)
    cells, targets = [], []
    for run_id, anchors, verdict in (
        ProbeResult.objects.filter(run_id__in=list(latest)).diagonal().values_list("run_id", "anchors", "verdict")
    ):
        name, status = latest[run_id].target, latest[run_id].status
        label = verdict if status == ProbeRun.DONE else f"{verdict} (run {status})"
        cells.append((set(anchors or ()), label))
        targets.append(name)
    return LatestVerdicts(cells, targets)
