"""The hosts matrix in the caniuse form, built from observations (plain dicts): hosts × features,
each cell a chip with the version measured and the observation it comes from. Pure."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from comparison.hostlab.adapters import ADAPTERS
from comparison.hostlab.features import CHIPS, FEATURES, NOT_MEASURED

#: The scenario whose run shows each feature on the matrix (the feature's plainest case).
FEATURE_SCENARIO = {
    "text": "text",
    "image": "image",
    "audio": "audio",
    "resource-text": "resource-text",
    "resource-blob": "resource-blob",
    "resource-link": "resource-link",
    "structured": "structured-only",
    "structured-beside": "structured",
    "annotations": "annotations",
    "unknown-type": "unknown-type",
    "error-flag": "is-error",
    "rpc-error": "rpc-error",
}
#: What each host told the upstream, as matrix columns: (key, title).
TOLD = (
    ("first_request", "first request"),
    ("protocol_version", "protocol version"),
    ("capabilities", "capabilities"),
    ("client_info", "clientInfo"),
    ("pagination", "pagination (tools/list)"),
    ("progress_token", "progressToken on calls"),
    ("call_meta", "_meta on tools/call"),
)


@dataclass
class Cell:
    feature: str
    chip: str
    detail: str
    version: str = ""
    observation: int | None = None
    scenario: str = ""
    parted: dict[str, str] | None = None


@dataclass
class HostRow:
    key: str
    label: str
    version: str
    package: str
    runnable: bool
    why_not: str
    cells: list[Cell] = field(default_factory=list)
    told: list[tuple[str, str, Any]] = field(default_factory=list)


def _index(observations: Iterable[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """The newest observation per (host, scenario) among those given (newest first wins)."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for item in observations:
        found.setdefault((item["host"], item["scenario"]), item)
    return found


def feature_cell(host: str, feature: str, index: dict[tuple[str, str], dict[str, Any]]) -> Cell:
    scenario = FEATURE_SCENARIO[feature]
    item = index.get((host, scenario))
    if item is None:
        return Cell(feature, NOT_MEASURED, "no run yet", scenario=scenario)
    if item.get("not_measured"):
        return Cell(feature, NOT_MEASURED, item["not_measured"], item["version"], item.get("id"), scenario)
    cell = next((c for c in item["cells"] if c["feature"] == feature), None)
    if cell is None:
        cell = next(iter(item["cells"]), {"chip": NOT_MEASURED, "detail": "the run shows nothing of it"})
    parted = next((p for p in item.get("partings") or [] if p["feature"] == feature), None)
    return Cell(feature, cell["chip"], cell["detail"], item["version"], item.get("id"), scenario, parted)


def _told_value(key: str, told: dict[str, Any]) -> Any:
    value = told.get(key)
    if key == "capabilities":
        return ", ".join(sorted(value or {})) or "none"
    if key == "client_info":
        return f"{(value or {}).get('name', '?')} {(value or {}).get('version', '')}".strip()
    if key == "pagination":
        return (value or {}).get("tools/list", "not asked")
    if key == "call_meta":
        return ", ".join(value or []) or "none"
    if key == "progress_token":
        return "sent" if value else "not sent"
    return value or "?"


def host_rows(observations: Iterable[dict[str, Any]], hosts: list[str] | None = None) -> list[HostRow]:
    index = _index(observations)
    rows = []
    for key, adapter in ADAPTERS.items():
        if hosts and key not in hosts:
            continue
        row = HostRow(key, adapter.label, adapter.version, adapter.package, adapter.runnable, adapter.unavailable)
        row.cells = [feature_cell(key, feature, index) for feature in FEATURES]
        told_from = next((item for (host, _), item in index.items() if host == key and item.get("told")), None)
        told = (told_from or {}).get("told") or {}
        measured = told and "not_measured" not in told
        row.told = [(name, title, _told_value(name, told) if measured else "not measured") for name, title in TOLD]
        rows.append(row)
    return rows


def differing(a: HostRow, b: HostRow) -> list[tuple[str, Cell, Cell]]:
    """The features (by chip) and told columns where two hosts differ: "compare two hosts"."""
    found = [(FEATURES[x.feature], x, y) for x, y in zip(a.cells, b.cells, strict=True) if x.chip != y.chip]
    found += [
        (title, Cell(name, "", str(x)), Cell(name, "", str(y)))
        for (name, title, x), (_, _, y) in zip(a.told, b.told, strict=True)
        if name != "client_info" and x != y
    ]
    return found


def chip_counts(rows: list[HostRow]) -> dict[str, int]:
    counts = dict.fromkeys(CHIPS, 0)
    for row in rows:
        for cell in row.cells:
            counts[cell.chip] = counts.get(cell.chip, 0) + 1
    return counts
