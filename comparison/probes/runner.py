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

from comparison import failures
from comparison.hosts import is_prompt_result, prompt_views, tool_views
from comparison.hosts.present import present
from comparison.hosts.view import HostView
from registers.vocabulary import PROBE_VERDICTS, ProbeVerdict

from . import families, interop, revisions
from .control import CANCELLED, RunControl, stopped_answering
from .diffing import diff, payload
from .exchange import Limits
from .family_cells import applicable, family_outcome, play, plays
from .forkserver import fixture_command
from .http_transport import HttpTransport
from .launch import launched
from .scenarios import Scenario, expected_fixture_response
from .secrets import expand_placeholders
from .stdio_transport import StdioTransport
from .wire import STATELESS_REVISION, WireClient

AS_EXPECTED, CHANGED, INVALID, FAILED = (
    ProbeVerdict.AS_EXPECTED,
    ProbeVerdict.CHANGED,
    ProbeVerdict.INVALID,
    ProbeVerdict.FAILED,
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

    @property
    def verdict(self) -> str:
        if self.failure:
            return FAILED
        if self.assessed:
            return self.assessed
        if self.diff:
            return CHANGED
        if self.findings:
            return INVALID
        return AS_EXPECTED

    def as_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario.key,
            "family": self.scenario.family,
            "rows": list(self.scenario.rows),
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
            "duration_ms": round(self.duration_ms, 2),
        }


def open_transport(spec: TargetSpec, limits: Limits) -> HttpTransport | StdioTransport:
    if spec.transport == "stdio":
        return StdioTransport(expand_placeholders(spec.command, spec.env), env=spec.env, limits=limits)
    return HttpTransport(spec.url, headers=spec.headers, limits=limits)


FIXTURE_SERVER_INFO = {"name": "mcp-compare-fixture", "title": "mcp-compare fixture upstream", "version": "1.0.0"}


def expected_for(scenario: Scenario, revision: str) -> dict[str, Any] | None:
    """The fixture's answer as it goes out at `revision`: 2026-07-28 results carry a resultType,
    and the SDK stamps its typed (non-tool) results with the server's identity."""
    expected = expected_fixture_response(scenario)
    if expected and "result" in expected and revision == STATELESS_REVISION:
        expected = copy.deepcopy(expected)
        expected["result"].setdefault("resultType", "complete")
        if scenario.method != "tools/call":
            expected["result"]["_meta"] = {"io.modelcontextprotocol/serverInfo": FIXTURE_SERVER_INFO}
    return expected


def host_views_of(scenario: Scenario, response_payload: dict[str, Any] | None) -> list[HostView]:
    """Every host's view of the result the scenario asked for (none for an error or another kind)."""
    if not response_payload or "result" not in response_payload:
        return []
    result = response_payload["result"]
    if scenario.method == "tools/call" and isinstance(result, dict):
        return tool_views(result)
    if scenario.method == "prompts/get" and is_prompt_result(result):
        return prompt_views(result)
    return []


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


def _probe_revision(
    spec: TargetSpec, scenarios: list[Scenario], revision: str, limits: Limits, control: RunControl, key: str = "probe"
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
                    exchange = play(
                        client, scenario, session.negotiated or revision, f"{key}-{revision}-{scenario.key}"
                    )
                    timed_out = bool(exchange.exchanges) and all(e.timed_out for e in exchange.exchanges)
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
) -> list[ProbeOutcome]:
    """Every scenario at every revision. The exchanges of several revisions may run at once (in
    threads, no Django); outcomes are assessed and reported in revision order. `should_stop` (a
    cancel) is asked every POLL_SECONDS while the run waits, and cuts the open exchanges; the
    control's deadline makes every cell not probed by then a failure that says so.
    `while_served` runs after the cells, while a launched target still serves (the conformance
    pass), unless the run was cancelled."""
    limits = limits or Limits()
    control = control or RunControl()
    parallel = parallel or (STDIO_PARALLEL if spec.transport == "stdio" else 1)
    outcomes: list[ProbeOutcome] = []

    run_key = uuid.uuid4().hex[:12]

    def probe(revision: str):
        started = time.monotonic()
        here = applicable(scenarios, revision, spec.transport)
        found = _probe_revision(spec, here, revision, limits, control, run_key)
        direct = RevisionProbe()
        if upstream is not None and not found.failure:
            direct = _probe_revision(upstream, here, revision, limits, control, run_key + "-direct")
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


def _outcome(
    scenario: Scenario, revision: str, found: RevisionProbe, direct_exchange: Any, spec: TargetSpec
) -> ProbeOutcome:
    outcome = ProbeOutcome(scenario, revision, found.negotiated)
    exchange = found.answers.get(scenario.key)
    if plays(scenario):
        return family_outcome(outcome, exchange, found, spec)
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


def assess(outcome: ProbeOutcome, exchange: Any, spec: TargetSpec, direct_exchange: Any = None) -> ProbeOutcome:
    """Fill an outcome from a completed exchange: findings, host views, DPCTER, the diff."""
    scenario, revision = outcome.scenario, outcome.requested
    outcome.duration_ms = exchange.duration_ms
    outcome.response = exchange.response
    outcome.findings = [finding.as_dict() for finding in revisions.answer_findings(exchange.response, exchange.repairs)]
    got = payload(exchange.response)
    if got and isinstance(got.get("result"), dict):
        checked = revisions.findings(got["result"], scenario.method, outcome.negotiated or revision)
        outcome.findings += [finding.as_dict() for finding in checked]
    views = host_views_of(scenario, got)
    # Stored and shown with long strings shortened.
    outcome.host_views = [present(view).to_json() for view in views]
    if scenario.failure:
        # Scored on the full texts: an envelope cut short for display would not parse.
        full_views = [present(view, limit=None) for view in views]
        scored = failures.profiles(exchange.response, full_views, is_failure=True)
        outcome.dpcter = [profile.as_dict() for profile in scored]
    _compare(outcome, scenario, revision, got, spec, direct_exchange)
    return outcome


def _compare(
    outcome: ProbeOutcome, scenario: Scenario, revision: str, got: dict | None, spec: TargetSpec, direct_exchange: Any
) -> None:
    if direct_exchange is not None and direct_exchange.ok:
        outcome.diff_against = "upstream probed directly"
        direct = payload(direct_exchange.response)
        outcome.diff = diff(direct, got)
        outcome.interop = interop.cell_interop(scenario.method, got, direct)
    elif spec.upstream == "fixture":
        expected = expected_for(scenario, outcome.negotiated or revision)
        if expected is not None:
            outcome.diff_against = "the fixture's known answer"
            if "error" in expected and got and "error" in got:
                # The fixture's own error text is not fixed for every case: compare what it states.
                outcome.diff = diff(expected["error"], got["error"], "error", subset=True)
            else:
                outcome.diff = diff(expected, got)
            outcome.interop = interop.cell_interop(scenario.method, got, payload(expected), same_error=_states_alike)


def _states_alike(expected_error: Any, got_error: Any) -> bool:
    return not diff(expected_error, got_error, "error", subset=True)
