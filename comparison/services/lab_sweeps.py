"""Writes of version sweeps: which versions of a host to measure (from npm's list), each version
installed once into the version cache and run through the catalogue as a worker task (several
workers split a sweep), and bisection toward the first version showing each change."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from comparison.hostlab import catalogue, lab, predictions, ranges, version_cache, versions
from comparison.hostlab.adapters import ADAPTERS
from comparison.hostlab.matrix import FEATURE_SCENARIO
from comparison.models.lab import FIXTURE_SERVER, HostObservation, HostReleases
from comparison.services.lab import _save, _stored

MAX_BISECT_ROUNDS = 8


@dataclass
class SweepOutcome:
    host: str
    versions: list[str]
    ran: int
    reused: int
    install_seconds: dict[str, float]
    bisected: list[str]
    errors: dict[str, str] = dataclasses.field(default_factory=dict)


def releases(host: str, refresh: bool = False) -> list[str]:
    """npm's versions of the host's package, read once and kept (HostReleases)."""
    adapter = ADAPTERS[host]
    stored = HostReleases.objects.filter(host=host).first()
    if stored is not None and not refresh:
        return list(stored.versions)
    found = version_cache.published(adapter.package)
    HostReleases.objects.update_or_create(host=host, defaults={"package": adapter.package, "versions": found})
    return found


def measure_version(host: str, version: str, scenarios: list[str] | None = None, workers: int = 2) -> dict[str, Any]:
    """One version of one host through the catalogue (the task a worker runs): installed into the
    version cache if needed; what is stored for the same key is reused."""
    adapter = dataclasses.replace(ADAPTERS[host], version=version)
    try:
        place, seconds = version_cache.install(adapter, version)
    except version_cache.InstallError as error:
        item = lab.not_measured(adapter, "install", catalogue.fixture_version(), str(error))
        _save(item, FIXTURE_SERVER)
        return {"version": version, "ran": 0, "reused": 0, "install_seconds": 0.0, "error": str(error)}
    pairs = [(host, s) for s in scenarios or [s.tool for s in catalogue.SCENARIOS]]
    observed, reused = lab.run_many(
        pairs, known=_stored, workers=workers, adapters={host: adapter}, setup=lab.RunSetup(install_dir=place)
    )
    for item in observed:
        if "id" not in item:
            item["partings"] = (
                predictions.partings(host, item["scenario"], item["cells"]) if version == ADAPTERS[host].version else []
            )
            _save(item, FIXTURE_SERVER)
    return {"version": version, "ran": len(observed) - reused, "reused": reused, "install_seconds": seconds}


def chips_by_version(host: str) -> dict[str, dict[str, str]]:
    """feature -> {version: chip} from every stored fixture observation of the host (newest per
    version and scenario), one query."""
    rows = HostObservation.objects.filter(host=host, server=FIXTURE_SERVER, fixture=catalogue.fixture_version())
    newest: dict[tuple[str, str], list[dict[str, str]]] = {}
    for row in rows.order_by("-measured_at", "-pk").only("version", "scenario", "cells", "not_measured"):
        if not row.not_measured:
            newest.setdefault((row.version, row.scenario), row.cells)
    found: dict[str, dict[str, str]] = {}
    for feature, scenario in FEATURE_SCENARIO.items():
        for (version, tool), cells in newest.items():
            if tool == scenario:
                cell = next((c for c in cells if c["feature"] == feature), None)
                if cell is not None:
                    found.setdefault(feature, {})[version] = cell["chip"]
    return found


def sweep(host: str, spec: str, *, bisect: bool = False, workers: int = 2) -> SweepOutcome:
    """The versions of `spec`, measured here one after another (comparison.tasks.queue_sweep queues
    them instead, one task per version, for the workers to split). With `bisect`, then every change
    between two measured versions is narrowed to the first version showing it (measured here,
    bounded in rounds)."""
    published = releases(host)
    chosen = versions.choose(spec, published)
    done = [measure_version(host, version, workers=workers) for version in chosen]
    bisected: list[str] = []
    for _ in range(MAX_BISECT_ROUNDS if bisect else 0):
        failed = frozenset(d["version"] for d in done if d.get("error"))
        wanted = sorted(
            {v for chips in chips_by_version(host).values() for v in ranges.next_to_bisect(chips, published, failed)},
            key=versions.key,
        )
        if not wanted:
            break
        done += [measure_version(host, version, workers=workers) for version in wanted]
        bisected += wanted
    return SweepOutcome(
        host,
        chosen,
        sum(d["ran"] for d in done),
        sum(d["reused"] for d in done),
        {d["version"]: d["install_seconds"] for d in done if not d.get("error")},
        bisected,
        {d["version"]: d["error"] for d in done if d.get("error")},
    )
