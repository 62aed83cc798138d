"""Scenarios × revisions against one target: the exchange, revision findings, the proxy diff and
the host views of every result. No Django; the task and the command call `run_probe`."""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from comparison.hosts.measured import Measured
from comparison.probes.assessment import same_shape
from comparison.probes.assessment.answers import assess, expected_for
from comparison.probes.assessment.tries import DEFAULT_TRIES
from comparison.probes.families.base import Played
from comparison.probes.families.negotiation import REVISION as REVISION_AGREED
from comparison.probes.processes.control import CANCELLED, RunControl
from comparison.probes.processes.launch import LaunchFailed, free_port, launched
from comparison.probes.run.family_cells import applicable, compares, family_outcome, plays
from comparison.probes.run.outcome import (
    AS_EXPECTED,
    CHANGED,
    FAILED,
    INVALID,
    LOST,
    NOT_COMPARED,
    REFUSED,
    VERDICTS,
    ProbeOutcome,
    TargetSpec,
    builtin_fixture,
)
from comparison.probes.run.revision_session import RevisionProbe, Terms, probe_revision
from comparison.probes.run.scenarios import FIXTURE, Scenario
from comparison.probes.targets.started import as_started
from comparison.probes.transport.exchange import Limits

#: A launch command runs from here, so `python -m comparison…` finds the project.
PROJECT = Path(__file__).resolve().parents[3]
logger = logging.getLogger(__name__)
#: What a cell is lives in probes.outcome; the runner's callers find it here too.
__all__ = [
    "AS_EXPECTED",
    "CHANGED",
    "FAILED",
    "INVALID",
    "LOST",
    "NOT_COMPARED",
    "PROJECT",
    "REFUSED",
    "VERDICTS",
    "Hooks",
    "ProbeOutcome",
    "ProbePlan",
    "TargetSpec",
    "applicable",
    "assess",
    "builtin_fixture",
    "check_losses_alone",
    "run_probe",
]


#: Revisions of a stdio target probed at once (each has a process of its own); an HTTP target is
#: probed one revision at a time, so a proxy in front of one shared upstream sees one session.
STDIO_PARALLEL = 5
#: How often a run waiting on a revision looks for a cancel or its deadline.
POLL_SECONDS = 0.5


@dataclass(frozen=True)
class ProbePlan:
    """The cells of a run and how they are played. `tries` is how often a timing-sensitive cell
    is played. With `check_losses`, a cell lost through a target in front of the fixture is played
    again with no proxy in between (probes.same_shape) before the proxy is blamed. `lab` holds the
    hosts the lab measured: each tool result says what they would see, and scores them. `pin` is
    the one revision the target's upstream was told to speak (probes.pinning): the reference is
    then the fixture pinned alike, probed once at that revision for every client revision.
    `parallel`: revisions played at once (by the target's transport when None)."""

    scenarios: list[Scenario]
    revisions: list[str]
    limits: Limits | None = None
    upstream: TargetSpec | None = None
    tries: int = DEFAULT_TRIES
    check_losses: bool = True
    lab: dict[str, Measured] | None = None
    pin: str = ""
    parallel: int | None = None


@dataclass(frozen=True)
class Hooks:
    """What a run tells and asks its caller while it plays. `on_outcome` hears each cell;
    `should_stop` (a cancel) is asked every POLL_SECONDS while the run waits, and cuts the open
    exchanges; the control's deadline makes every cell not probed by then a failure that says so;
    `while_served` runs after the cells, while a launched target still serves (the conformance
    pass), unless the run was cancelled."""

    on_outcome: Callable[[ProbeOutcome], None] | None = None
    should_stop: Callable[[], bool] | None = None
    control: RunControl | None = None
    while_served: Callable[[], None] | None = None


def run_probe(spec: TargetSpec, plan: ProbePlan, hooks: Hooks | None = None) -> list[ProbeOutcome]:
    """Every scenario at every revision. The exchanges of several revisions may run at once (in
    threads, no Django); outcomes are assessed and reported in revision order.
    What the upstream sent is the reference of every comparison: the upstream probed directly
    when one is given, else, for a target in front of the fixture, the fixture itself probed
    directly for the answers that are not fixed (lists, reads) and the families that compare."""
    hooks = hooks or Hooks()
    control = hooks.control or RunControl()
    parallel = plan.parallel or (STDIO_PARALLEL if spec.transport == "stdio" else 1)
    terms = Terms(plan.limits or Limits(), control, uuid.uuid4().hex[:12], plan.tries)
    pinned = _pinned_reference(spec, plan, terms) if plan.pin else None
    cells = _RunCells(spec=spec, plan=plan, terms=terms, pinned=pinned)

    def cancelled() -> bool:
        if hooks.should_stop and hooks.should_stop():
            control.stop(CANCELLED)
        control.check_deadline()
        return control.stopped and control.reason == CANCELLED

    with _served(spec):
        outcomes = _in_revision_order(cells, plan.revisions, parallel, cancelled, hooks.on_outcome)
        if hooks.while_served and not cancelled():
            hooks.while_served()
    return outcomes


def _served(spec: TargetSpec):
    """The target's own server, launched for the run and stopped after it; nothing to launch for
    a target that serves itself."""
    if spec.launch:
        return launched(as_started(spec.launch, spec.env), spec.url, cwd=PROJECT, env=spec.env)
    return contextlib.nullcontext()


def _in_revision_order(
    cells: _RunCells,
    revisions_: list[str],
    parallel: int,
    cancelled: Callable[[], bool],
    on_outcome: Callable[[ProbeOutcome], None] | None,
) -> list[ProbeOutcome]:
    """The revisions' cells played `parallel` at a time, reported in revision order; a cancel cuts
    the waiting short and the rest is dropped."""
    outcomes: list[ProbeOutcome] = []
    with ThreadPoolExecutor(max_workers=max(1, min(parallel, len(revisions_)))) as pool:
        pending = [pool.submit(cells.at, revision) for revision in revisions_]
        for future in pending:
            while not cancelled():
                try:
                    made, seconds = future.result(timeout=POLL_SECONDS)
                    break
                except FutureTimeout:
                    continue
            else:
                # Cancelled: nothing more is saved; the futures end at once, their transports cut.
                for rest in pending:
                    rest.cancel()
                break
            for outcome in made:
                if not outcome.duration_ms:
                    outcome.duration_ms = seconds * 1000
                outcomes.append(outcome)
                if on_outcome:
                    on_outcome(outcome)
    return outcomes


@dataclass
class _RunCells:
    """One run's cells at one revision: what run_probe plays in a thread per revision."""

    spec: TargetSpec
    plan: ProbePlan
    terms: Terms
    pinned: PinnedReference | None

    def at(self, revision: str) -> tuple[list[ProbeOutcome], float]:
        started = time.monotonic()
        here = applicable(self.plan.scenarios, revision, self.spec.transport)
        if self.pinned is not None:
            made = self._pinned_cells(here, revision)
            alone = self.plan.check_losses and self.spec.upstream == "fixture" and self.plan.upstream is None
            if alone and revision == self.plan.pin:
                found, direct = self.pinned.last_found.pop(revision), self.pinned.direct
                check_losses_alone(self.spec, made, found, direct.answers, self.terms)
            for outcome in made:
                outcome.upstream_revision = self.plan.pin
            return made, time.monotonic() - started
        reference, wanted = _reference(self.spec, self.plan.upstream, here, revision)
        direct = RevisionProbe()
        reference_terms = self.terms.beside("-direct")
        if self.plan.upstream is None and wanted:
            # The fixture of its own (a process no target shares) is probed beside the target.
            with ThreadPoolExecutor(max_workers=1) as beside:
                fixture = beside.submit(probe_revision, reference, wanted, revision, reference_terms)
                found = probe_revision(self.spec, here, revision, self.terms)
                direct = fixture.result()
        else:
            found = probe_revision(self.spec, here, revision, self.terms)
        negotiated = found.negotiated or revision
        if reference is not None and wanted and not found.failure and (direct.negotiated or "") != negotiated:
            # What the upstream sends at the revision the target agreed to is what the client should get.
            at = [s for s in wanted if s.exists_at(negotiated)]
            asked = direct
            direct = probe_revision(reference, at, negotiated, reference_terms)
            # The revision agreed is compared with the upstream's own at the revision asked for.
            if REVISION_AGREED in asked.answers:
                direct.answers[REVISION_AGREED] = asked.answers[REVISION_AGREED]
        made = [
            _outcome(scenario, revision, found, direct.answers.get(scenario.key), self.spec, self.plan.lab)
            for scenario in here
        ]
        if self.plan.upstream is None and self.spec.upstream == "fixture" and self.plan.check_losses:
            check_losses_alone(self.spec, made, found, direct.answers, self.terms)
        return made, time.monotonic() - started

    def _pinned_cells(self, here: list[Scenario], revision: str) -> list[ProbeOutcome]:
        """A client at `revision` through the target whose upstream speaks only the pin: each cell
        against what the pinned upstream sends; the revision agreed against the same client's
        opening of the pinned upstream directly (the direct cell of the pair)."""
        pinned = self.pinned
        found = probe_revision(self.spec, here, revision, self.terms)
        pinned.last_found[revision] = found
        answers = dict(pinned.direct.answers)
        if pinned.spec is not None and any(s.key == REVISION_AGREED for s in here):
            opening = probe_revision(pinned.spec, [], revision, self.terms.beside("-pair"))
            answers[REVISION_AGREED] = Played(
                notes={
                    "requested": revision,
                    "negotiated": opening.negotiated,
                    "failure": opening.failure[:300],
                    "pinned": pinned.pin,
                }
            )
        return [
            _outcome(scenario, revision, found, answers.get(scenario.key), self.spec, self.plan.lab)
            for scenario in here
        ]


@dataclass
class PinnedReference:
    """The upstream pinned to one revision, probed directly once at that revision."""

    pin: str
    spec: TargetSpec | None
    direct: RevisionProbe
    #: {client revision: the target's RevisionProbe}, kept for the loss check of the diagonal.
    last_found: dict[str, RevisionProbe] = field(default_factory=dict)


def _pinned_reference(spec: TargetSpec, plan: ProbePlan, terms: Terms) -> PinnedReference:
    from comparison.probes.targets.pinning import pin_spec

    upstream, scenarios, pin = plan.upstream, plan.scenarios, plan.pin

    at_pin = applicable(scenarios, pin, spec.transport)
    if upstream is not None:
        reference, wanted = pin_spec(upstream, pin), at_pin
    else:
        reference, wanted = _reference(spec, None, at_pin, pin)
        reference = pin_spec(reference, pin) if reference is not None else None
    direct = RevisionProbe()
    if reference is not None and wanted:
        direct = probe_revision(reference, wanted, pin, terms.beside("-direct"))
    return PinnedReference(pin, reference, direct)


def check_losses_alone(
    spec: TargetSpec,
    made: list[ProbeOutcome],
    found: RevisionProbe,
    direct: dict[str, Any],
    terms: Terms,
    alone_spec: TargetSpec | None = None,
) -> None:
    """The cells blamed on the proxy played against the fixture served in the target's shape (or
    `alone_spec`), at the revision the proxy agreed (else the one asked), and compared with the
    same reference: one lost there too is not the proxy's (probes.same_shape)."""
    blamed = [outcome for outcome in made if outcome.verdict in same_shape.BLAMING]
    if not blamed or terms.control.stopped:
        return
    framings = [exchange.get("framing", "") for exchange in found.opening]
    served = same_shape.served(same_shape.shape_of(spec.transport, framings), free_port())
    alone_spec = alone_spec or TargetSpec(
        f"the fixture over {served.shape}, no proxy",
        served.transport,
        url=served.url,
        command=builtin_fixture().command if served.transport == "stdio" else [],
        upstream="fixture",
        launch=list(served.launch),
    )
    at = found.negotiated or found.asked
    # A run key of its own: the fixture's journal never counts these sessions as the proxy's.
    alone_terms = Terms(terms.limits, terms.control, uuid.uuid4().hex[:12] + "-alone")
    try:
        running = alone_spec.launch and launched(alone_spec.launch, alone_spec.url, cwd=PROJECT)
        with running or contextlib.nullcontext():
            alone = probe_revision(alone_spec, [o.scenario for o in blamed], at, alone_terms)
    except LaunchFailed as error:
        alone = RevisionProbe(failure=str(error)[:300])
    for outcome in blamed:
        checked = _outcome(outcome.scenario, at, alone, direct.get(outcome.scenario.key), alone_spec)
        verdict = same_shape.verdict_alone(alone.failure, checked.verdict)
        if not verdict:
            outcome.findings.append(same_shape.unchecked(served.shape, alone.failure[:200], str(outcome.verdict)))
        elif verdict not in same_shape.NOT_DELIVERED:
            outcome.findings.append(same_shape.confirmed(served.shape, str(outcome.verdict)))
        else:
            said = [f.get("message", "") for f in checked.findings if f.get("verdict") == verdict]
            why = checked.failure or next(iter(said), "")
            outcome.findings.append(same_shape.finding(served.shape, verdict, why[:200]))
            outcome.lost_alone = True
            outcome.interop = {}


def _reference(
    spec: TargetSpec, upstream: TargetSpec | None, here: list[Scenario], revision: str
) -> tuple[TargetSpec | None, list[Scenario]]:
    """What is probed directly to compare with, and which scenarios of `here`."""
    if upstream is not None:
        return upstream, here
    if spec.upstream != "fixture":
        return None, []
    # Only the fixture's own catalogue: the fixture has nothing to say about any other scenario.
    catalogue = {scenario.key for scenario in FIXTURE}
    wanted = [
        s for s in here if s.key in catalogue and (compares(s) if plays(s) else expected_for(s, revision) is None)
    ]
    return builtin_fixture(), wanted


def _outcome(
    scenario: Scenario,
    revision: str,
    found: RevisionProbe,
    direct_exchange: Any,
    spec: TargetSpec,
    lab: dict[str, Measured] | None = None,
) -> ProbeOutcome:
    outcome = ProbeOutcome(scenario, revision, found.negotiated)
    exchange = found.answers.get(scenario.key)
    if plays(scenario):
        return family_outcome(outcome, exchange, found, spec, direct_exchange)
    outcome.exchanges = found.opening + ([exchange.as_dict()] if exchange else [])
    if found.failure or exchange is None or not exchange.ok:
        outcome.failure = (
            found.failure or found.skipped.get(scenario.key) or (exchange.failure if exchange else "not sent")
        )
        return outcome
    try:
        assess(outcome, exchange, spec, direct_exchange, lab)
    except Exception as error:  # a bug of ours meeting an odd answer: this cell, not the run
        logger.exception("could not assess %s at %s", scenario.key, revision)
        outcome.failure = f"mcp-compare could not assess this answer: {type(error).__name__}: {error}"[:500]
    return outcome
