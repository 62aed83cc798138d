"""What changed since a target's previous finished run: kept on each run that finishes, shown on
the target and run pages ("since the last run: 3 cells changed") and in the run's JSON."""

from __future__ import annotations

from comparison.models import ProbeRun
from comparison.probes.assessment import compare
from comparison.selectors.runs import result_cells


def record_changes(run: ProbeRun) -> None:
    """The cells that changed since the target's previous finished run, kept on the run."""
    previous = (
        ProbeRun.objects.filter(target_id=run.target_id, status=ProbeRun.DONE, pk__lt=run.pk).order_by("-pk").first()
    )
    if previous is None:
        return
    found = changes_between(previous, run)
    ProbeRun.objects.filter(pk=run.pk).update(previous_run=previous, changes=found)


def changes_between(before: ProbeRun, after: ProbeRun) -> list[dict]:
    return [
        {
            "scenario": c.scenario,
            "revision": c.revision,
            "status": c.status,
            "before": c.verdict_a,
            "after": c.verdict_b,
        }
        for c in compare.compare(result_cells(before), result_cells(after))
        if c.status != compare.UNCHANGED
    ]
