"""Writes of the host lab: run hosts through the fixture's scenarios (reusing what is stored for the
same host version, scenario, fixture version and lab version), or through a configured stdio
target's server, and store every observation."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction

from common.pagecache import bump_data_version
from comparison.hostlab import catalogue, conformance_client, lab, predictions, through
from comparison.hostlab.adapters import ADAPTERS
from comparison.models.lab import FIXTURE_SERVER, HostObservation
from comparison.probes.fixture import forkserver
from comparison.probes.targets.secrets import Redactor

USER_SERVER = "user"


@dataclass
class LabOutcome:
    observations: list[dict[str, Any]]
    reused: int
    #: What a target said it is (through-target runs).
    identity: str = ""

    @property
    def ran(self) -> int:
        return len(self.observations) - self.reused


def _stored(key: str) -> dict[str, Any] | None:
    found = HostObservation.objects.filter(key=key, not_measured="").first()
    return None if found is None else observation_dict(found)


def observation_dict(row: HostObservation) -> dict[str, Any]:
    return {
        "id": row.pk,
        "key": row.key,
        "host": row.host,
        "label": row.label,
        "version": row.version,
        "scenario": row.scenario,
        "fixture": row.fixture,
        "server": row.server,
        "measured_at": row.measured_at.isoformat(),
        "seconds": row.seconds,
        "not_measured": row.not_measured,
        "command": row.command,
        "reached": row.reached,
        "told": row.told,
        "cells": row.cells,
        "partings": row.partings,
        "egress": row.egress,
        "page": row.get_absolute_url(),
    }


def _save(observation: dict[str, Any], server: str, key: str | None = None) -> dict[str, Any]:
    """Stores an observation under its key; one that measured nothing never replaces one that did
    (a host missing here, or a capture that failed, leaves the stored measurement as it was)."""
    if observation.get("not_measured"):
        kept = HostObservation.objects.filter(key=key or observation["key"], not_measured="").first()
        if kept is not None:
            return observation_dict(kept)
    fields = {
        "host": observation["host"],
        "label": observation["label"],
        "version": observation["version"],
        "scenario": observation["scenario"],
        "fixture": observation["fixture"],
        "server": server,
        "measured_at": datetime.fromisoformat(observation["measured_at"])
        if "measured_at" in observation
        else datetime.now().astimezone(),
        "seconds": observation.get("seconds"),
        "not_measured": observation.get("not_measured", ""),
        "command": observation.get("command", []),
        "reached": observation.get("reached", {}),
        "told": observation.get("told", {}),
        "cells": observation.get("cells", []),
        "partings": observation.get("partings", []),
        "egress": observation.get("egress", []),
        "raw": observation.get("raw", {}),
    }
    row, _ = HostObservation.objects.update_or_create(key=key or observation["key"], defaults=fields)
    return observation_dict(row)


def run_fixture(
    hosts: list[str] | None = None, scenarios: list[str] | None = None, *, refresh: bool = False, workers: int = 2
) -> LabOutcome:
    """The catalogue through each host; what is stored for the same key is reused unless `refresh`."""
    hosts = hosts or list(ADAPTERS)
    scenarios = scenarios or [scenario.tool for scenario in catalogue.SCENARIOS]
    pairs = [(host, scenario) for host in hosts for scenario in scenarios]
    known = (lambda key: None) if refresh else _stored
    observations, reused = lab.run_many(pairs, known=known, workers=workers)
    saved = []
    for observation in observations:
        if "id" in observation:  # reused as stored
            saved.append(observation)
            continue
        observation = through.measured_or_not(observation)
        observation["partings"] = predictions.partings(
            observation["host"], observation["scenario"], observation["cells"]
        )
        with transaction.atomic():
            saved.append(_save(observation, FIXTURE_SERVER))
    if any("id" not in observation for observation in observations):
        # The register pages read host states from the lab: what they cached is stale now.
        bump_data_version()
    return LabOutcome(saved, reused)


def run_server(
    server: lab.RunSetup,
    tool: str,
    *,
    hosts: list[str] | None = None,
    redactor: Redactor | None = None,
    workers: int = 2,
    batch: str | None = None,
) -> LabOutcome:
    """A user's stdio MCP server (`server.server`, its environment and the tool's arguments)
    through each host, calling `tool` once; secrets masked before anything is stored (the command,
    its environment's values, whatever came back)."""
    redactor = redactor or Redactor(list(server.server_env.values()))
    pairs = [(host, tool) for host in hosts or list(ADAPTERS)]
    observations, _ = lab.run_many(pairs, workers=workers, setup=server)
    stamp = batch or datetime.now().astimezone().strftime("%Y%m%dT%H%M%S%f")
    saved = [
        _save(redactor.data(through.measured_or_not(observation)), USER_SERVER, key=f"{observation['key']}/{stamp}")
        for observation in observations
    ]
    return LabOutcome(saved, 0)


def run_target(target_id: int, tool: str, arguments: dict[str, Any], batch: str) -> int:
    """An admin-configured stdio target through every host: its command and environment as
    configured, every secret of it (and of the dashboard) masked in what is stored."""
    from comparison.models import ProbeTarget

    target = ProbeTarget.objects.get(pk=target_id)
    spec = target.spec()
    command, env = list(spec.command), dict(spec.env)
    if target.builtin:
        command, env = forkserver.fixture_command(), catalogue.fixture_environment()
    setup = lab.RunSetup(server=command, server_env=env, arguments=dict(arguments or {}))
    outcome = run_server(setup, tool, redactor=target.redactor(), batch=batch)
    return len(outcome.observations)


CONFORMANCE_SERVER = "conformance"


def conformance_key(host: str, version: str, scenario: str) -> str:
    return f"{host}@{version}/conformance:{scenario}/suite-{conformance_client.SUITE_VERSION}/lab-{lab.lab_version()}"


def run_conformance(
    hosts: list[str] | None = None, scenarios: list[str] | None = None, *, refresh: bool = False
) -> LabOutcome:
    """The official suite's client scenarios against each host, stored beside the observations
    (never mixed into their chips); reused per host version, scenario and suite version."""
    saved, reused = [], 0
    for host in hosts or [key for key, adapter in ADAPTERS.items() if adapter.runnable]:
        adapter = ADAPTERS[host]
        for scenario in scenarios or conformance_client.SCENARIOS:
            key = conformance_key(host, adapter.version, scenario)
            stored = None if refresh else HostObservation.objects.filter(key=key).first()
            if stored is not None:
                saved.append(observation_dict(stored))
                reused += 1
                continue
            found = conformance_client.run_scenario(host, scenario)
            chip = found["outcome"]
            item = {
                "host": host, "label": adapter.label, "version": adapter.version, "scenario": f"conformance:{scenario}",
                "fixture": conformance_client.SUITE_VERSION, "seconds": found["seconds"],
                "not_measured": found["error"] if chip == conformance_client.NOT_MEASURED else "",
                "command": ["conformance", "client", "--scenario", scenario, "--command",
                            f"python -m comparison.hostlab.conformance_client {host}"],
                "cells": [{"feature": "conformance", "chip": chip, "detail": _checks_detail(found["checks"])}],
                "raw": {"checks": found["checks"], "client": found.get("client", ""), "error": found["error"]},
            }  # fmt: skip
            saved.append(_save(item, CONFORMANCE_SERVER, key=key))
    return LabOutcome(saved, reused)


def _checks_detail(checks: list[dict[str, str]]) -> str:
    failed = [c for c in checks if c["status"] in ("FAILURE", "ERROR")]
    if not checks:
        return "no check was made"
    if failed:
        return "; ".join(f"{c['id']}: {c['message']}" for c in failed)[:500]
    return f"{len(checks)} check(s) passed"


SNAPSHOT_FIELDS = (
    "key", "host", "label", "version", "scenario", "fixture", "server", "measured_at", "seconds", "not_measured",
    "command", "reached", "told", "cells", "partings", "egress",
)  # fmt: skip


def export_snapshot() -> list[dict[str, Any]]:
    """The fixture observations of every measured version (the ranges) and the conformance ones of
    the pinned versions, for shipping as data (the raw model requests are left out: they hold each
    host's whole system prompt)."""
    rows = HostObservation.objects.filter(server__in=(FIXTURE_SERVER, CONFORMANCE_SERVER)).order_by(
        "-measured_at", "-pk"
    )
    fixture = catalogue.fixture_version()
    found, seen = [], set()
    for row in rows:
        current = row.fixture in (fixture, conformance_client.SUITE_VERSION)
        pinned = ADAPTERS.get(row.host) is not None and ADAPTERS[row.host].version == row.version
        swept = row.server == FIXTURE_SERVER and not row.not_measured
        where = (row.server, row.host, row.version, row.scenario)
        if not (current and (pinned or swept)) or where in seen:
            continue
        seen.add(where)
        item = {name: getattr(row, name) for name in SNAPSHOT_FIELDS}
        item["measured_at"] = row.measured_at.isoformat()
        raw = row.raw or {}
        item["raw"] = {
            "upstream": [dict(line, line=str(line.get("line", ""))[:500]) for line in raw.get("upstream", [])[:30]],
            "checks": raw.get("checks", []),
            "files": raw.get("files", {}),
            "capture": "left out of the shipped snapshot: run manage.py host_lab to capture it here",
        }
        found.append(item)
    from comparison.models.lab import HostReleases

    # The published releases go along, so the shipped ranges name their gaps.
    releases = [{"releases": r.host, "package": r.package, "versions": r.versions} for r in HostReleases.objects.all()]
    return sorted(found, key=lambda item: item["key"]) + sorted(releases, key=lambda item: item["releases"])


def load_snapshot(items: list[dict[str, Any]]) -> int:
    """Stores shipped observations where none with the same key is stored, or where the stored one
    measured nothing or is older than the shipped one (a measurement made here since stays); returns
    how many were stored."""
    from comparison.models.lab import HostReleases

    stored = {
        key: (measured_at, not_measured)
        for key, measured_at, not_measured in HostObservation.objects.filter(
            key__in=[i.get("key") for i in items if isinstance(i, dict)]
        ).values_list("key", "measured_at", "not_measured")
    }
    added = 0
    with transaction.atomic():
        for item in items:
            if (
                isinstance(item, dict)
                and isinstance(item.get("releases"), str)
                and isinstance(item.get("versions"), list)
            ):
                fields = {"package": str(item.get("package", ""))[:100], "versions": [str(v) for v in item["versions"]]}
                HostReleases.objects.get_or_create(host=item["releases"][:40], defaults=fields)
                continue
            if not isinstance(item, dict) or item.get("server") not in (FIXTURE_SERVER, CONFORMANCE_SERVER):
                continue
            if item.get("key") in stored and not _shipped_is_better(item, *stored[item["key"]]):
                continue
            _save(item, item["server"], key=item["key"])
            added += 1
    if added:
        bump_data_version()  # the register pages read host states from the lab
    return added


def _shipped_is_better(item: dict[str, Any], measured_at: datetime, not_measured: str) -> bool:
    if item.get("not_measured"):
        return False
    if not_measured:
        return True
    try:
        shipped = datetime.fromisoformat(str(item.get("measured_at", "")))
    except ValueError:
        return False
    return shipped.tzinfo is not None and shipped > measured_at
