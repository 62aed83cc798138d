"""The test relays (tests/support/relay.py over stdio, http_relay.py over HTTP) in front of the built-in
fixture, losing one thing: as a configured probe target, or probed directly; and the readings of
their outcomes the tests share."""

from __future__ import annotations

import sys
from pathlib import Path

from comparison.hostlab import catalogue
from comparison.probes.fixture import forkserver
from comparison.probes.processes.launch import free_port
from comparison.probes.run.runner import ProbePlan, TargetSpec, run_probe
from comparison.probes.run.scenarios import FIXTURE
from language.vocabulary import REVISIONS

RELAY = Path(__file__).with_name("relay.py")
HTTP_RELAY = Path(__file__).with_name("http_relay.py")
ALL = [str(revision) for revision in REVISIONS]


def relay_target(lose: str):
    from comparison.models import ProbeTarget

    return ProbeTarget.objects.create(
        name=f"relay losing {lose}",
        transport="stdio",
        command=[sys.executable, str(RELAY), "--lose", lose, "--", *catalogue.fixture_command()],
        upstream="fixture",
    )


def through_stdio_relay(change: str, keys: list[str] | None = None, revisions_=ALL, tries_: int = 3):
    spec = TargetSpec(
        f"relay {change}",
        "stdio",
        command=[sys.executable, str(RELAY), "--lose", change, "--", *forkserver.fixture_command()],
        upstream="fixture",
    )
    chosen = [s for s in FIXTURE if keys is None or s.key in keys]
    return run_probe(spec, ProbePlan(scenarios=chosen, revisions=revisions_, tries=tries_))


def http_relay_spec(change: str) -> TargetSpec:
    """The HTTP relay as a target that each run launches (and ends whole after)."""
    port = free_port()
    return TargetSpec(
        f"http relay {change}",
        "http",
        url=f"http://127.0.0.1:{port}/mcp",
        launch=[sys.executable, str(HTTP_RELAY), "--port", str(port), "--lose", change],
        upstream="fixture",
    )


def through_http_relay(change: str, keys: list[str] | None = None, revisions_=ALL):
    chosen = [s for s in FIXTURE if keys is None or s.key in keys]
    return run_probe(http_relay_spec(change), ProbePlan(scenarios=chosen, revisions=revisions_))


def cells(outcomes) -> dict[tuple[str, str], object]:
    return {(o.scenario.key, o.requested): o for o in outcomes}


def kinds(outcome) -> set[str]:
    return {f.get("kind") for f in outcome.findings if f.get("kind")}
