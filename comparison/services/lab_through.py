"""Real hosts through a target: each installed host run with a configured (or ad-hoc) target as its
MCP server, set beside the same host run directly against the fixture; the per-host summary a
probe run records when it asks for the real hosts."""

from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from comparison.hostlab import catalogue, lab, through
from comparison.hostlab.adapters import ADAPTERS
from comparison.models.lab import TARGET_SERVER, HostObservation
from comparison.probes.targets.secrets import Redactor
from comparison.services.lab import LabOutcome, _save, observation_dict, run_fixture


class TargetUnanswered(Exception):
    """No host got anything through the target, and it did not say what it is."""


def target_key(host: str, version: str, scenario: str, target_id: int | str, launch: str) -> str:
    """`launch`: how the target is started or reached, what it says it is (serverInfo), and the
    fixture version behind it; a change to any of them is a new cell."""
    digest = hashlib.sha256(launch.encode()).hexdigest()[:10]
    return f"{host}@{version}/{scenario}/target-{target_id}-{digest}/lab-{lab.lab_version()}"


def _through_setup(spec, builtin: bool) -> lab.RunSetup:
    """What each host run of the pass is made against: the target's command, or its URL with its
    headers; the fixture's own command for the built-in target (stable, so its cache key is)."""
    if builtin:
        return lab.RunSetup(server=catalogue.fixture_command(), server_env=catalogue.fixture_environment())
    if spec.transport == "http":
        return lab.RunSetup(server=["unused"], server_url=spec.url, server_headers=dict(spec.headers))
    return lab.RunSetup(server=list(spec.command), server_env=dict(spec.env))


@dataclass(frozen=True)
class ThroughPass:
    """Which hosts and scenarios a pass through a target runs, and how: `target_id` names the
    target in the cache keys, `stored` holds the keys measured before (not run again), `builtin`
    says the target is the fixture itself."""

    target_id: int | str
    redactor: Redactor
    hosts: list[str] | None = None
    scenarios: list[str] | None = None
    stored: dict[str, Any] | None = None
    workers: int = 2
    builtin: bool = False


def through_spec(
    spec, asked: ThroughPass
) -> tuple[dict[tuple[str, str], tuple[str, dict[str, Any] | None]], list[tuple[str, str]], str]:
    """Each installed host through a target spec in the fixture's scenarios: ({pair: (key, fresh
    observation or None when `stored` has the key)}, the pairs run, the target's identity). What
    comes back has the target's secrets masked; nothing is stored here."""
    from comparison.probes.processes.launch import launched
    from comparison.probes.run.runner import PROJECT
    from comparison.probes.targets.started import as_started

    setup = _through_setup(spec, asked.builtin)
    # A target the dashboard starts (a peer's launch command) serves for the whole pass.
    served = (
        launched(as_started(spec.launch, spec.env), spec.url, cwd=PROJECT, env=spec.env)
        if spec.launch and not asked.builtin
        else contextlib.nullcontext()
    )
    with served:
        return _through(spec, setup, asked)


def _through(spec, setup: lab.RunSetup, asked: ThroughPass):
    from comparison.probes.run.runner import builtin_fixture
    from comparison.probes.targets.identity import server_identity

    identity = server_identity(builtin_fixture() if asked.builtin else spec)
    # Header values are secrets: the key hashes their names only.
    headers = sorted(setup.server_headers)
    launch = json.dumps([setup.server, setup.server_url, headers, identity, catalogue.fixture_version()])
    hosts = asked.hosts or [key for key, adapter in ADAPTERS.items() if adapter.runnable]
    scenarios = asked.scenarios or [s.tool for s in catalogue.SCENARIOS]
    pairs = [(host, scenario) for host in hosts for scenario in scenarios]
    keys = {pair: target_key(pair[0], ADAPTERS[pair[0]].version, pair[1], asked.target_id, launch) for pair in pairs}
    todo = [pair for pair in pairs if keys[pair] not in (asked.stored or {})]
    observed, _ = lab.run_many(todo, workers=asked.workers, setup=setup) if todo else ([], 0)
    observed = [through.measured_or_not(item) for item in observed]
    if observed and not identity and not any((item.get("reached") or {}).get("reached") for item in observed):
        # Nothing answered: a harness or target failure, never a finding to store and reuse.
        raise TargetUnanswered(f"the target did not answer: no host reached a tool through {spec.name}")
    fresh = dict(zip(todo, observed, strict=True))
    found = {}
    for pair in pairs:
        item = fresh.get(pair)
        if item is not None:
            item = asked.redactor.data(dict(item, fixture=f"target-{asked.target_id}", target_identity=identity))
        found[pair] = (keys[pair], item)
    return found, todo, identity


def run_through_target(
    target_id: int,
    hosts: list[str] | None = None,
    scenarios: list[str] | None = None,
    *,
    refresh: bool = False,
    workers: int = 2,
) -> LabOutcome:
    """Each installed host through a configured target (its stdio command, or its Streamable HTTP
    URL with its headers) in the fixture's scenarios; the target must front the fixture. Reused per
    host version, target launch, the target's own serverInfo and scenario unless `refresh`; what is
    stored has the target's secrets masked."""
    from comparison.models import ProbeTarget

    target = ProbeTarget.objects.get(pk=target_id)
    # Only measurements are reused: a host that was missing or failed is tried again.
    candidates = HostObservation.objects.filter(server=TARGET_SERVER, fixture=f"target-{target.pk}", not_measured="")
    stored = {} if refresh else {row.key: row for row in candidates.defer("raw")}
    asked = ThroughPass(
        target.pk, target.redactor(), hosts, scenarios, stored=stored, workers=workers, builtin=target.builtin
    )
    found, todo, identity = through_spec(target.spec(), asked)
    saved = []
    for key, item in found.values():
        if item is not None:
            item["raw"] = dict(item.get("raw") or {}, target_identity=identity)
            saved.append(_save(item, TARGET_SERVER, key=key))
        else:
            saved.append(observation_dict(stored[key]))
    return LabOutcome(saved, len(found) - len(todo), identity)


def compare_with_direct(via: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each through-target observation beside the same host's direct one at its pinned version
    (run now when none is stored), compared."""
    hosts, scenarios = sorted({o["host"] for o in via}), sorted({o["scenario"] for o in via})
    direct = {(o["host"], o["scenario"]): o for o in run_fixture(hosts, scenarios).observations} if via else {}
    return [through.row(direct.get((seen["host"], seen["scenario"])), seen) for seen in via]


def lab_scenarios_of(chosen: list[str] | None) -> list[str]:
    """The lab scenarios among a probe's chosen scenario keys (the content and failure tools share
    their names with them); all of them when the probe chose none of them."""
    tools = [s.tool for s in catalogue.SCENARIOS]
    return [tool for tool in tools if tool in (chosen or ())] or tools


def real_hosts_pass(target_id: int, run_id: int | None = None, scenarios: list[str] | None = None) -> dict[str, Any]:
    """Every installed host through a target and directly, in the lab scenarios among the run's
    (or `scenarios`), summed per host; recorded on the run that asked for it. A failure is
    recorded, never raised."""
    from comparison.models import ProbeRun, ProbeTarget

    if run_id is not None:
        scenarios = ProbeRun.objects.filter(pk=run_id).values_list("scenarios", flat=True).first()
    try:
        outcome = run_through_target(target_id, scenarios=lab_scenarios_of(scenarios))
        rows = compare_with_direct(outcome.observations)
        summary = through.summary(rows, outcome.ran, outcome.reused, outcome.identity)
    except Exception as error:  # a host or target failing is a recorded pass, never a failed worker
        target = ProbeTarget.objects.filter(pk=target_id).first()
        message = f"{type(error).__name__}: {error}"
        summary = {"status": "failed", "error": (target.redactor().text(message) if target else message)[:2000]}
    if run_id is not None:
        ProbeRun.objects.filter(pk=run_id).update(real_hosts=summary)
    return summary
