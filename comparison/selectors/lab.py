"""Reads of the host lab: the newest observation per host and scenario, for the pinned versions and
the current fixture, in one query per page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from common.beside_runs import kept_beside_runs
from comparison.hostlab import catalogue, conformance_client, matrix, predictions
from comparison.hostlab.adapters import ADAPTERS
from comparison.hostlab.features import CHIPS, FEATURES
from comparison.hostlab.versions import key as versions_key
from comparison.hosts import measured, protocol
from comparison.models import ProbeTarget
from comparison.models.lab import FIXTURE_SERVER, TARGET_SERVER, HostObservation
from comparison.probes import families
from comparison.services import lab as lab_services
from comparison.services.lab import USER_SERVER, observation_dict

LIST_FIELDS = (
    "id", "key", "host", "label", "version", "scenario", "fixture", "server", "measured_at", "seconds",
    "not_measured", "command", "reached", "told", "cells", "partings", "egress",
)  # fmt: skip


def current_observations(host: str | None = None, scenario: str | None = None) -> list[dict[str, Any]]:
    """Fixture observations of each host's pinned version and this fixture version: those that
    measured something first, each part newest first (a host that did not run since, missing or
    failing here, never hides what was measured)."""
    rows = HostObservation.objects.filter(server=FIXTURE_SERVER, fixture=catalogue.fixture_version())
    if host:
        rows = rows.filter(host=host)
    if scenario:
        rows = rows.filter(scenario=scenario)
    pinned = {key: adapter.version for key, adapter in ADAPTERS.items()}
    rows = sorted(rows.order_by("-measured_at", "-pk").defer("raw"), key=lambda row: bool(row.not_measured))
    return [observation_dict(row) for row in rows if pinned.get(row.host) == row.version]


#: The one command that installs the hosts the lab runs, at their pinned versions.
INSTALL_COMMAND = "scripts/install_hosts.sh"
#: The lab's observations shipped with the project (what the start command loads).
SHIPPED_SNAPSHOT = Path(__file__).resolve().parents[1] / "data" / "host_lab_observations.json"


@kept_beside_runs
def measured_for_probes() -> dict[str, measured.Measured]:
    """The hosts the lab measured at their pinned versions, as a probe run predicts from them:
    each feature's chip, and the protocol version each host asks for. From this database's
    observations, else (none stored yet) from the shipped snapshot."""
    return measured_hosts_of(current_observations() or shipped_observations())


def shipped_observations() -> list[dict[str, Any]]:
    """The shipped snapshot's fixture observations of this fixture version, newest first."""
    try:
        items = json.loads(SHIPPED_SNAPSHOT.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    fixture = catalogue.fixture_version()
    found = [
        item
        for item in (items if isinstance(items, list) else [])
        if isinstance(item, dict) and item.get("server") == FIXTURE_SERVER and item.get("fixture") == fixture
    ]
    pinned = {key: adapter.version for key, adapter in ADAPTERS.items()}
    found = [item for item in found if pinned.get(item.get("host")) == item.get("version")]
    return sorted(found, key=lambda item: str(item.get("measured_at", "")), reverse=True)


def measured_hosts_of(observations: list[dict[str, Any]]) -> dict[str, measured.Measured]:
    rows = matrix.host_rows(observations)
    return measured.measured_hosts(
        {
            "key": row.key,
            "label": row.label,
            "version": row.version,
            "cells": [{"feature": c.feature, "chip": c.chip, "detail": c.detail} for c in row.cells],
            "asks": next((str(value) for name, _, value in row.told if name == "protocol_version"), ""),
        }
        for row in rows
    )


def observation(pk: int, *, private: bool = False) -> HostObservation | None:
    """An observation; a user's own-server lab run (its tool, command and capture) only for
    `private` callers, those who may run the lab: to anyone else it does not exist."""
    found = HostObservation.objects.filter(pk=pk)
    return (found if private else found.exclude(server=USER_SERVER)).first()


def batch(batch_key: str) -> list[dict[str, Any]]:
    rows = HostObservation.objects.filter(key__endswith=f"/{batch_key}").order_by("host").defer("raw")
    return [observation_dict(row) for row in rows]


def matrix_page(hosts: list[str], chip: str) -> dict[str, Any]:
    rows = matrix.host_rows(current_observations(), hosts or None)
    if chip:
        rows = [row for row in rows if any(cell.chip == chip for cell in row.cells)]
    suite = conformance_rows()
    return {
        "not_installed": not_installed_hosts(),
        "install_command": INSTALL_COMMAND,
        "rows": rows,
        "conformance": {row.key: conformance_summary(suite.get(row.key, [])) for row in rows},
        "suite_version": conformance_client.SUITE_VERSION,
        "features": list(FEATURES.items()),
        "told_titles": [title for _, title in matrix.TOLD],
        "counts": matrix.chip_counts(rows),
        "chips": CHIPS,
        "hosts": [(key, adapter.label) for key, adapter in ADAPTERS.items()],
        "chosen_hosts": hosts,
        "chosen_chip": chip,
        "fixture": catalogue.fixture_version(),
        **protocol_table(),
    }


def protocol_table() -> dict[str, Any]:
    """The hand models' table of the rest of the protocol (the former Hosts page), shown below."""
    return {
        "protocol_hosts": [(protocol.HOST_NAMES[host], protocol.NEWEST[host]) for host in protocol.HOSTS],
        "protocol_groups": [(f.title, protocol.table(f.scenarios)) for f in families.FAMILIES if f.play],
    }


def host_page(key: str) -> dict[str, Any] | None:
    adapter = ADAPTERS.get(key)
    if adapter is None:
        return None
    found = current_observations(host=key)
    by_scenario = {}
    for item in found:
        by_scenario.setdefault(item["scenario"], item)
    scenarios = [(scenario, by_scenario.get(scenario.tool)) for scenario in catalogue.SCENARIOS]
    told = next((item["told"] for item in found if item.get("told")), {})
    return {
        "adapter": adapter,
        "row": matrix.host_rows(found, [key])[0],
        "scenarios": scenarios,
        "told": told,
        "partings": [(item["scenario"], p) for item in found for p in item.get("partings") or []],
        "model": predictions.MODELS.get(key, ("", None))[0],
        "fixture": catalogue.fixture_version(),
        "conformance": conformance_rows(key).get(key, []),
        "version_ranges": host_ranges(key),
        "suite_version": conformance_client.SUITE_VERSION,
        "suite_not_run": conformance_client.NOT_RUN,
    }


def feature_page(feature: str) -> dict[str, Any] | None:
    if feature not in FEATURES:
        return None
    # One entry per host, scenario and version: the newest (observations of several lab versions
    # may be stored for the same run; what measured something comes first).
    newest: dict[tuple[str, str, str], dict[str, Any]] = {}
    for item in current_observations():
        newest.setdefault((item["host"], item["scenario"], item["version"]), item)
    found = list(newest.values())
    lines = []
    for key, adapter in ADAPTERS.items():
        cells = [
            (item["scenario"], item["version"], item["id"], cell)
            for item in found
            if item["host"] == key
            for cell in item["cells"]
            if cell["feature"] == feature
        ]
        lines.append((key, adapter.label, adapter.unavailable, sorted(cells, key=lambda c: c[0])))
    spans = {
        key: item
        for key in ADAPTERS
        for item in host_ranges(key)
        if item["feature"] == feature and len(item["versions"]) > 1
    }
    return {
        "feature": feature,
        "title": FEATURES[feature],
        "lines": lines,
        "scenario": matrix.FEATURE_SCENARIO[feature],
        "spans": spans,
    }


def compare_page(a: str, b: str) -> dict[str, Any] | None:
    if a not in ADAPTERS or b not in ADAPTERS or a == b:
        return None
    rows = {row.key: row for row in matrix.host_rows(current_observations(), [a, b])}
    return {"a": rows[a], "b": rows[b], "differing": matrix.differing(rows[a], rows[b])}


def observation_page(row: HostObservation) -> dict[str, Any]:
    adapter = ADAPTERS.get(row.host)
    raw = row.raw or {}
    return {
        "observation": observation_dict(row),
        "adapter": adapter,
        "capture_json": json.dumps(raw.get("capture"), indent=2)[:200_000],
        "upstream_lines": raw.get("upstream", [])[:400],
        "files": sorted((raw.get("files") or {}).items()),
        "stdout": raw.get("stdout", ""),
        "stderr": raw.get("stderr", ""),
        "told_json": json.dumps(row.told, indent=2),
        "direct": _direct_of(row) if row.server == TARGET_SERVER else None,
    }


def _direct_of(row: HostObservation) -> dict[str, Any] | None:
    """The same host and scenario run directly against the fixture: the other side of a run
    through a target."""
    found = current_observations(host=row.host, scenario=row.scenario)
    return found[0] if found else None


def lab_form_page() -> dict[str, Any]:
    targets = ProbeTarget.objects.filter(transport="stdio", enabled=True).order_by("name").only("pk", "name")
    return {
        "targets": list(targets),
        "hosts": [(key, adapter.label, _why_not(adapter)) for key, adapter in ADAPTERS.items()],
        "installed": installed_hosts(),
        "install_command": INSTALL_COMMAND,
    }


def _why_not(adapter) -> str:
    """Why the lab will not run a host here ("" when it will)."""
    if adapter.unavailable:
        return adapter.unavailable
    return "" if _installed(adapter) else f"not installed here: {INSTALL_COMMAND} installs it"


def conformance_rows(host: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """host -> the suite's client scenarios as last run against its pinned version, one query."""
    rows = HostObservation.objects.filter(
        server=lab_services.CONFORMANCE_SERVER, fixture=conformance_client.SUITE_VERSION
    ).order_by("host", "scenario", "-measured_at", "-pk")
    if host:
        rows = rows.filter(host=host)
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for row in rows.only("pk", "host", "version", "scenario", "cells", "not_measured", "seconds"):
        if ADAPTERS.get(row.host) is None or ADAPTERS[row.host].version != row.version:
            continue
        cell = (row.cells or [{}])[0]
        found.setdefault(row.host, {}).setdefault(
            row.scenario.removeprefix("conformance:"),
            {"scenario": row.scenario.removeprefix("conformance:"), "outcome": cell.get("chip", "not measured"),
             "detail": cell.get("detail", ""), "id": row.pk, "seconds": row.seconds},
        )  # fmt: skip
    return {key: [by[s] for s in conformance_client.SCENARIOS if s in by] for key, by in found.items()}


def conformance_summary(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "not measured"
    passed = sum(1 for row in rows if row["outcome"] == conformance_client.PASSED)
    return f"{passed} of {len(rows)} pass"


def host_ranges(host: str) -> list[dict[str, Any]]:
    """Per feature, the BCD-style ranges of a host over every version measured, with the gaps."""
    from comparison.hostlab import ranges as version_ranges
    from comparison.models.lab import HostReleases
    from comparison.services import lab_sweeps

    stored = HostReleases.objects.filter(host=host).first()
    published = list(stored.versions) if stored else []
    found = []
    for feature, chips in lab_sweeps.chips_by_version(host).items():
        spans, gaps = version_ranges.ranges(chips, published or list(chips))
        found.append(
            {
                "feature": feature,
                "title": FEATURES.get(feature, feature),
                "ranges": [dict(vars(span), words=span.words()) for span in spans],
                "gaps": [dict(vars(gap), words=gap.words()) for gap in gaps],
                "versions": sorted(chips, key=versions_key),
            }
        )
    return found


def range_lines(host: str) -> list[tuple[str, str]]:
    return [
        (item["feature"], "; ".join([r["words"] for r in item["ranges"]] + [g["words"] for g in item["gaps"]]))
        for item in host_ranges(host)
    ]


def target_hosts(target_id: int) -> dict[str, Any]:
    """What each real host saw through a target beside what it saw directly, per scenario, from
    the newest observations of each (two queries)."""
    from comparison.hostlab import through

    via_rows = HostObservation.objects.filter(server=TARGET_SERVER, fixture=f"target-{target_id}")
    via: dict[tuple[str, str], dict[str, Any]] = {}
    for row in via_rows.order_by("-measured_at", "-pk").defer("raw"):
        if ADAPTERS.get(row.host) is not None and ADAPTERS[row.host].version == row.version:
            via.setdefault((row.host, row.scenario), observation_dict(row))
    if not via:
        return {"rows": [], "affected": {}}
    direct = {(item["host"], item["scenario"]): item for item in reversed(current_observations())}
    rows = [through.row(direct.get(pair), seen) for pair, seen in sorted(via.items())]
    compared = sum(1 for row in rows if row["verdict"] != through.NOT_COMPARED)
    return {
        "rows": rows,
        "affected": through.affected_hosts([(r["host"], r) for r in rows]),
        "compared": compared,
        "not_compared": len(rows) - compared,
    }


def install_state() -> str:
    """Which hosts are installed here: the Hosts page says so, so its cached copy is keyed by it."""
    return ",".join(not_installed_hosts())


def installed_hosts() -> list[str]:
    """The labels of the hosts the lab can run here (installed), for the run form."""
    return [adapter.label for adapter in ADAPTERS.values() if adapter.runnable and _installed(adapter)]


def not_installed_hosts() -> list[str]:
    """The labels of the hosts the lab could run but are not installed here."""
    return [adapter.label for adapter in ADAPTERS.values() if adapter.runnable and not _installed(adapter)]


def _installed(adapter) -> bool:
    from comparison.hostlab.install import missing
    from comparison.hostlab.lab import binary_path

    # codemode runs under node: its package is what has to be there.
    return binary_path(adapter, None) is not None and adapter.package not in missing()
