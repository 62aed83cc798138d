"""One revision's session against a target: opened, every scenario played in it (a timing-sensitive
one as often as asked), and what came back. Never raises: a target that cannot be started or
reached is a failure of every cell of the revision. No Django."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from comparison.probes import families
from comparison.probes.assessment.tries import MAX_TRIES
from comparison.probes.fixture import catalogue
from comparison.probes.processes.control import RunControl, stopped_answering
from comparison.probes.run.family_cells import play, plays, repeats
from comparison.probes.run.scenarios import Scenario
from comparison.probes.targets.aliases import Aliases
from comparison.probes.targets.started import as_started
from comparison.probes.transport.exchange import Limits
from comparison.probes.transport.http_transport import HttpTransport
from comparison.probes.transport.stdio_transport import StdioTransport
from comparison.probes.transport.wire import WireClient

if TYPE_CHECKING:
    from comparison.probes.run.runner import TargetSpec


def open_transport(spec: TargetSpec, limits: Limits) -> HttpTransport | StdioTransport:
    if spec.transport == "stdio":
        return StdioTransport(as_started(spec.command, spec.env), env=spec.env, limits=limits)
    return HttpTransport(spec.url, headers=spec.headers, limits=limits)


@dataclass(frozen=True)
class Terms:
    """What every session of a run is played on: the limits, the run's control (a cancel, the
    deadline), the key its sessions carry in the fixture's journal, and how often a
    timing-sensitive cell is played."""

    limits: Limits
    control: RunControl
    key: str = "probe"
    tries: int = 1

    def beside(self, suffix: str) -> Terms:
        """The terms of a session played beside the target's (the reference, a check): its own
        key, each cell played once."""
        return Terms(self.limits, self.control, self.key + suffix)


@dataclass
class RevisionProbe:
    """What one revision's session brought back: the answers, and why any cell has none."""

    #: The revision the session was asked at (`negotiated` is what the target agreed to).
    asked: str = ""
    negotiated: str = ""
    #: Why no cell of the revision could be probed (the session did not open), else "".
    failure: str = ""
    answers: dict[str, Any] = field(default_factory=dict)
    opening: list[dict[str, Any]] = field(default_factory=list)
    #: {scenario key: why it was not sent} (the run stopped, the target stopped answering).
    skipped: dict[str, str] = field(default_factory=dict)
    #: {scenario key: every try} of a timing-sensitive cell played more than once.
    tries: dict[str, list[Any]] = field(default_factory=dict)


def probe_revision(spec: TargetSpec, scenarios: list[Scenario], revision: str, terms: Terms) -> RevisionProbe:
    """One session at `revision`, every scenario in it. Never raises: a target that cannot even be
    started or reached is a failure of every cell of the revision; a stopped run or a target that
    holds its calls open ends the session early, the cells left saying why."""
    found = RevisionProbe(asked=revision)
    control, limits, key = terms.control, terms.limits, terms.key
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
            _each_scenario(
                client, found, scenarios, session.negotiated or revision, replace(terms, key=f"{key}-{revision}")
            )
            return found
        finally:
            client.close()


def _each_scenario(
    client: WireClient, found: RevisionProbe, scenarios: list[Scenario], revision: str, terms: Terms
) -> None:
    """Every scenario sent in the open session and its answer kept on `found`; once the run stops,
    or the target has held `limits.stalled_cells` calls open in a row, the rest are skipped with why."""
    control, limits, key, tries = terms.control, terms.limits, terms.key, terms.tries
    held = 0
    for scenario in scenarios:
        if control.stopped or held >= limits.stalled_cells:
            found.skipped[scenario.key] = (
                control.reason if control.stopped else stopped_answering(held, limits.total_timeout)
            )
            continue
        if plays(scenario):
            attempts = play_tries(client, scenario, revision, f"{key}-{scenario.key}", tries, control)
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


def play_tries(client: Any, scenario: Scenario, revision: str, key: str, tries: int, control: RunControl) -> list:
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
