"""One run played, whoever asked for it: the worker for a stored run and `manage.py probe` for a
run printed. A run is one target's cells at some revisions, or, given upstream revisions, a grid of
one run per upstream revision, each with a run's deadline. Pure, no Django."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from comparison.hosts.measured import Measured
from comparison.probes.processes.control import RunControl
from comparison.probes.run.grid_run import run_grid
from comparison.probes.run.runner import Hooks, ProbeOutcome, ProbePlan, TargetSpec, run_probe
from comparison.probes.run.scenarios import Scenario


@dataclass(frozen=True)
class RunPlan:
    """What a run plays: its target and cells, and the deadline of one run."""

    target: TargetSpec
    scenarios: list[Scenario]
    revisions: list[str]
    upstream: TargetSpec | None
    tries: int
    deadline_seconds: float
    #: Upstream revisions to pin the upstream to, one run each: a cross-era grid when not empty.
    upstream_revisions: list[str] = field(default_factory=list)
    #: What the lab measured of each host, for the hosts' predictions in every cell.
    lab: dict[str, Measured] | None = None

    def control(self) -> RunControl:
        """The run's deadline: a grid gets one run's deadline per upstream revision."""
        return RunControl(self.deadline_seconds * max(1, len(self.upstream_revisions)))


def play(
    plan: RunPlan,
    control: RunControl,
    *,
    on_outcome: Callable[[ProbeOutcome], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    parallel: int | None = None,
    while_served: Callable[[], None] | None = None,
) -> list[ProbeOutcome]:
    """Every cell of the plan, in order; `control` is the plan's (`plan.control()`), kept by the
    caller to read why the run stopped."""
    cells = ProbePlan(
        plan.scenarios, plan.revisions, upstream=plan.upstream, tries=plan.tries, lab=plan.lab, parallel=parallel
    )
    hooks = Hooks(on_outcome=on_outcome, should_stop=should_stop, control=control, while_served=while_served)
    if plan.upstream_revisions:
        return run_grid(plan.target, cells, hooks, upstream_revisions=plan.upstream_revisions)
    return run_probe(plan.target, cells, hooks)
