"""The cross-era grid: every client revision through a target whose upstream speaks one revision,
for each upstream revision asked (probes.pinning, probes.era_gate). No Django.

Each upstream revision is one `run_probe` of the target pinned to it, the pinned fixture probed
directly once as its reference, in the calling thread (the run's callbacks read the database).
Within one, the client revisions of a stdio target run side by side as in any run; a target
served at one URL is pinned (and launched) one upstream revision at a time.
"""

from __future__ import annotations

from dataclasses import replace

from comparison.probes.processes.control import RunControl
from comparison.probes.processes.launch import LaunchFailed
from comparison.probes.run.family_cells import applicable
from comparison.probes.run.runner import Hooks, ProbeOutcome, ProbePlan, TargetSpec, run_probe
from comparison.probes.targets.pinning import Unpinnable, pin_spec, pinnable


def run_grid(
    spec: TargetSpec, plan: ProbePlan, hooks: Hooks | None = None, *, upstream_revisions: list[str]
) -> list[ProbeOutcome]:
    """Every scenario for every (client revision, upstream revision) pair. Outcomes name their
    `upstream_revision`; they are reported upstream revision by upstream revision, in order.
    Raises pinning.Unpinnable before any cell when the target's upstream cannot be pinned."""
    for target in (spec, plan.upstream):
        if target is not None and (why := pinnable(target)):
            raise Unpinnable(why)
    hooks = hooks or Hooks()
    control = hooks.control or RunControl()
    on_outcome = hooks.on_outcome
    outcomes: list[ProbeOutcome] = []
    for pin in upstream_revisions:
        if control.stopped:
            break
        try:
            outcomes += run_probe(
                pin_spec(spec, pin),
                replace(plan, pin=pin),
                replace(
                    hooks, control=control, while_served=hooks.while_served if pin == upstream_revisions[0] else None
                ),
            )
        except LaunchFailed as error:
            # A proxy that cannot even start in front of an upstream of this era: every cell of the
            # upstream revision says so, and the grid goes on to the next one.
            why = f"the target did not start in front of an upstream of {pin} alone: {error}"[:1000]
            for revision in plan.revisions:
                for scenario in applicable(plan.scenarios, revision, spec.transport):
                    outcome = ProbeOutcome(scenario, revision, failure=why, upstream_revision=pin)
                    outcomes.append(outcome)
                    if on_outcome:
                        on_outcome(outcome)
    return outcomes
