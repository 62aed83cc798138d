"""Scenarios × revisions against one target: the exchange, revision findings, the proxy diff and
the host views of every result. No Django; the task and the command call `run_probe`."""

from __future__ import annotations

import contextlib
import copy
import logging
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from registers.core.vocabulary import PROBE_VERDICTS, ProbeVerdict

from ..anchors.travelled import travelled
from . import catalogue, families
from .aliases import Aliases
from .answers import assess, expected_for
from .control import CANCELLED, RunControl, stopped_answering
from .exchange import Limits
from .families.negotiation import REVISION as REVISION_AGREED
from .family_cells import applicable, compares, family_outcome, play, plays, repeats
from .forkserver import fixture_command
from .http_transport import HttpTransport
from .launch import launched
from .scenarios import FIXTURE, Scenario
from .secrets import expand_placeholders
from .stdio_transport import StdioTransport
from .tries import DEFAULT_TRIES, MAX_TRIES
from .wire import WireClient

AS_EXPECTED, CHANGED, INVALID, FAILED, NOT_COMPARED, LOST, REFUSED = (
    ProbeVerdict.AS_EXPECTED,
    ProbeVerdict.CHANGED,
    ProbeVerdict.INVALID,
    ProbeVerdict.FAILED,
    ProbeVerdict.NOT_COMPARED,
    ProbeVerdict.LOST,
    ProbeVerdict.REFUSED,
)
VERDICTS = PROBE_VERDICTS
#: A launch command runs from here, so `python -m comparison…` finds the project.
PROJECT = Path(__file__).resolve().parents[2]
logger = logging.getLogger(__name__)


@dataclass
class TargetSpec:
    name: str
    transport: str  # "http" or "stdio"
    url: str = ""
    command: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    suite: str = "fixture"
    #: "fixture" (answers known), an upstream URL to probe directly for the diff, or "" (no diff).
    upstream: str = ""
    #: A command serving `url`, started for the probe and stopped after it (see probes.launch).
    launch: list[str] = field(default_factory=list)
    #: Environment of the command and the launch command: credentials, never shown.
    env: dict[str, str] = field(default_factory=dict)


def builtin_fixture() -> TargetSpec:
    return TargetSpec(
        "built-in fixture (stdio)", "stdio", command=fixture_command(), suite="fixture", upstream="fixture"
    )


@dataclass
class ProbeOutcome:
    scenario: Scenario
    requested: str
    negotiated: str = ""
    exchanges: list[dict[str, Any]] = field(default_factory=list)
    response: dict[str, Any] | None = None
    findings: list[dict[str, str]] = field(default_factory=list)
    diff: list[dict[str, Any]] = field(default_factory=list)
    diff_against: str = ""
    host_views: list[dict[str, Any]] = field(default_factory=list)
    dpcter: list[dict[str, Any]] = field(default_factory=list)
    #: {host: whether it gets through the proxy what the upstream sends}; empty without a reference.
    interop: dict[str, bool] = field(default_factory=dict)
    failure: str = ""
    duration_ms: float = 0.0
    #: A family scenario's verdict from its assessment (the worst finding); "" for a result's cell.
    assessed: str = ""
    #: Each try of a timing-sensitive cell: {"try", "verdict", "findings", "exchanges"}; [] for one.
    tries: list[dict[str, Any]] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        if self.failure:
            return FAILED
        if self.assessed:
            return self.assessed
        if self.diff:
            # A difference is a change, or worse where a finding says something was lost or refused.
            told = {f.get("verdict") for f in self.findings}
            return LOST if LOST in told else REFUSED if REFUSED in told else CHANGED
        if self.findings and any(f.get("verdict", INVALID) == INVALID for f in self.findings):
            return INVALID
        if not self.diff_against:
            return NOT_COMPARED  # nothing to compare the answer with: never green
        return AS_EXPECTED

    def as_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario.key,
            "family": self.scenario.family,
            "anchors": list(self.scenario.anchors),
            "seen": travelled(self.exchanges),
            "method": self.scenario.method,
            "requested_revision": self.requested,
            "negotiated_revision": self.negotiated,
            "verdict": self.verdict,
            "failure": self.failure,
            "response": self.response,
            "findings": self.findings,
            "diff": self.diff,
            "diff_against": self.diff_against,
            "host_views": self.host_views,
            "dpcter": self.dpcter,
            "interop": self.interop,
            "exchanges": self.exchanges,
            "tries": self.tries,
            "duration_ms": round(self.duration_ms, 2),
        }


def open_transport(spec: TargetSpec, limits: Limits) -> HttpTransport | StdioTransport:
    if spec.transport == "stdio":
        return StdioTransport(expand_placeholders(spec.command, spec.env), env=spec.env, limits=limits)
    return HttpTransport(spec.url, headers=spec.headers, limits=limits)


@dataclass
class RevisionProbe:
    """What one revision's session brought back: the answers, and why any cell has none."""

    negotiated: str = ""
    #: Why no cell of the revision could be probed (the session did not open), else "".
    failure: str = ""
    answers: dict[str, Any] = field(default_factory=dict)
    opening: list[dict[str, Any]] = field(default_factory=list)
    #: {scenario key: why it was not sent} (the run stopped, the target stopped answering).
    skipped: dict[str, str] = field(default_factory=dict)
    #: {scenario key: every try} of a timing-sensitive cell played more than once.
    tries: dict[str, list[Any]] = field(default_factory=dict)


def _probe_revision(
    spec: TargetSpec,
    scenarios: list[Scenario],
    revision: str,
    limits: Limits,
    control: RunControl,
    key: str = "probe",
    tries: int = 1,
) -> RevisionProbe:
    """One session at `revision`, every scenario in it. Never raises: a target that cannot even be
    started or reached is a failure of every cell of the revision; a stopped run or a target that
    holds its calls open ends the session early, the cells left saying why."""
    found = RevisionProbe()
    if control.stopped:
        found.failure = control.reason
        return found
    try:
        transport = open_transport(spec, limits)
    except Exception as error:  # a missing command, an unusable URL: the target's problem, recorded
        found.failure = f"could not start or reach the target: {type(error).__name__}: {error}"[:500]
        return found
    client = WireClient(transport, families.capabilities(revision, scenarios))
    client.run_key = key.split("-")[0]
    if spec.upstream == "fixture":
        client.aliases = Aliases(catalogue.first_pages())
    with control.tracking(transport):
        try:
            session = client.open(revision)
            found.negotiated = session.negotiated
            found.opening = [exchange.as_dict() for exchange in session.exchanges]
            if session.failure:
                found.failure = control.reason if control.stopped else session.failure
                return found
            if any(plays(scenario) for scenario in scenarios):
                client.listen()  # what arrives there during a call belongs to the call
            held = 0
            for scenario in scenarios:
                if control.stopped or held >= limits.stalled_cells:
                    found.skipped[scenario.key] = (
                        control.reason if control.stopped else stopped_answering(held, limits.total_timeout)
                    )
                    continue
                if plays(scenario):
                    attempts = _play_tries(
                        client,
                        scenario,
                        session.negotiated or revision,
                        f"{key}-{revision}-{scenario.key}",
                        tries,
                        control,
                    )
                    exchange = attempts[0]
                    if len(attempts) > 1:
                        found.tries[scenario.key] = attempts
                    timed_out = any(
                        bool(attempt.exchanges) and all(e.timed_out for e in attempt.exchanges) for attempt in attempts
                    )
                else:
                    exchange = client.request(scenario.method, copy.deepcopy(scenario.params))
                    timed_out = exchange.timed_out
                if control.stopped and not exchange.ok:
                    exchange.failure = control.reason  # cut short by the stop, not the target's doing
                held = held + 1 if timed_out else 0
                found.answers[scenario.key] = exchange
            return found
        finally:
            client.close()


def _play_tries(client: Any, scenario: Scenario, revision: str, key: str, tries: int, control: RunControl) -> list:
    """A scenario played once, or `tries` times when its family is timing-sensitive; a try the
    target failed, or a stopped run, ends the tries there."""
    count = max(1, min(tries, MAX_TRIES)) if repeats(scenario) else 1
    attempts = []
    for number in range(count):
        attempt = play(client, scenario, revision, key if number == 0 else f"{key}-try{number + 1}")
        attempts.append(attempt)
        if not attempt.ok or control.stopped:
            break
    return attempts


#: Revisions of a stdio target probed at once (each has a process of its own); an HTTP target is
#: probed one revision at a time, so a proxy in front of one shared upstream sees one session.
STDIO_PARALLEL = 5
#: How often a run waiting on a revision looks for a cancel or its deadline.
POLL_SECONDS = 0.5


def run_probe(
    spec: TargetSpec,
    *,
    scenarios: list[Scenario],
    revisions_: list[str],
    limits: Limits | None = None,
    upstream: TargetSpec | None = None,
    on_outcome: Callable[[ProbeOutcome], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    parallel: int | None = None,
    control: RunControl | None = None,
    while_served: Callable[[], None] | None = None,
    tries: int = DEFAULT_TRIES,
) -> list[ProbeOutcome]:
    """Every scenario at every revision. The exchanges of several revisions may run at once (in
    threads, no Django); outcomes are assessed and reported in revision order. `should_stop` (a
    cancel) is asked every POLL_SECONDS while the run waits, and cuts the open exchanges; the
    control's deadline makes every cell not probed by then a failure that says so.
    `while_served` runs after the cells, while a launched target still serves (the conformance
    pass), unless the run was cancelled. `tries` is how often a timing-sensitive cell is played.
    What the upstream sent is the reference of every comparison: the upstream probed directly
    when one is given, else, for a target in front of the fixture, the fixture itself probed
    directly for the answers that are not fixed (lists, reads) and the families that compare."""
    limits = limits or Limits()
    control = control or RunControl()
    parallel = parallel or (STDIO_PARALLEL if spec.transport == "stdio" else 1)
    outcomes: list[ProbeOutcome] = []

    run_key = uuid.uuid4().hex[:12]

    def probe(revision: str):
        started = time.monotonic()
        here = applicable(scenarios, revision, spec.transport)
        reference, wanted = _reference(spec, upstream, here, revision)
        direct = RevisionProbe()
        key = run_key + "-direct"
        if upstream is None and wanted:
            # The fixture of its own (a process no target shares) is probed beside the target.
            with ThreadPoolExecutor(max_workers=1) as beside:
                fixture = beside.submit(_probe_revision, reference, wanted, revision, limits, control, key)
                found = _probe_revision(spec, here, revision, limits, control, run_key, tries)
                direct = fixture.result()
        else:
            found = _probe_revision(spec, here, revision, limits, control, run_key, tries)
        negotiated = found.negotiated or revision
        if reference is not None and wanted and not found.failure and (direct.negotiated or "") != negotiated:
            # What the upstream sends at the revision the target agreed to is what the client should get.
            at = [s for s in wanted if s.exists_at(negotiated)]
            asked = direct
            direct = _probe_revision(reference, at, negotiated, limits, control, key)
            # The revision agreed is compared with the upstream's own at the revision asked for.
            if REVISION_AGREED in asked.answers:
                direct.answers[REVISION_AGREED] = asked.answers[REVISION_AGREED]
        return here, found, direct.answers, time.monotonic() - started

    def cancelled() -> bool:
        if should_stop and should_stop():
            control.stop(CANCELLED)
        control.check_deadline()
        return control.stopped and control.reason == CANCELLED

    served = (
        launched(expand_placeholders(spec.launch, spec.env), spec.url, cwd=PROJECT, env=spec.env)
        if spec.launch
        else contextlib.nullcontext()
    )
    with served, ThreadPoolExecutor(max_workers=max(1, min(parallel, len(revisions_)))) as pool:
        pending = [(revision, pool.submit(probe, revision)) for revision in revisions_]
        for revision, future in pending:
            while not cancelled():
                try:
                    here, found, direct, seconds = future.result(timeout=POLL_SECONDS)
                    break
                except FutureTimeout:
                    continue
            else:
                # Cancelled: nothing more is saved; the futures end at once, their transports cut.
                for _, rest in pending:
                    rest.cancel()
                break
            for scenario in here:
                outcome = _outcome(scenario, revision, found, direct.get(scenario.key), spec)
                if not outcome.duration_ms:
                    outcome.duration_ms = seconds * 1000
                outcomes.append(outcome)
                if on_outcome:
                    on_outcome(outcome)
        if while_served and not cancelled():
            while_served()
    return outcomes


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
    scenario: Scenario, revision: str, found: RevisionProbe, direct_exchange: Any, spec: TargetSpec
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
        assess(outcome, exchange, spec, direct_exchange)
    except Exception as error:  # a bug of ours meeting an odd answer: this cell, not the run
        logger.exception("could not assess %s at %s", scenario.key, revision)
        outcome.failure = f"mcp-compare could not assess this answer: {type(error).__name__}: {error}"[:500]
    return outcome
