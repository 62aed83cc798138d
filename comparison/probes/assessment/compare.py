"""Two probe runs side by side, cell by cell (scenario × revision), like a test-run diff. Pure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from comparison.probes.assessment.diffing import diff, payload
from comparison.probes.assessment.volatile import steady

ADDED, REMOVED, CHANGED, UNCHANGED = "added", "removed", "changed", "unchanged"
STATUSES = (ADDED, REMOVED, CHANGED, UNCHANGED)


@dataclass
class CellChange:
    scenario: str
    revision: str
    status: str
    verdict_a: str = ""
    verdict_b: str = ""
    id_a: int | None = None
    id_b: int | None = None
    differences: list[dict[str, Any]] = field(default_factory=list)


def compare(
    cells_a: dict[tuple[str, str], dict[str, Any]], cells_b: dict[tuple[str, str], dict[str, Any]]
) -> list[CellChange]:
    """Cells are {(scenario, revision): {"id", "verdict", "response"}}; order follows run A, then B."""
    keys = list(cells_a) + [key for key in cells_b if key not in cells_a]
    found = []
    for key in keys:
        a, b = cells_a.get(key), cells_b.get(key)
        change = CellChange(key[0], key[1], UNCHANGED)
        if a is None:
            change.status, change.verdict_b, change.id_b = ADDED, b["verdict"], b["id"]
        elif b is None:
            change.status, change.verdict_a, change.id_a = REMOVED, a["verdict"], a["id"]
        else:
            change.verdict_a, change.verdict_b, change.id_a, change.id_b = a["verdict"], b["verdict"], a["id"], b["id"]
            # Run keys, process ids and timestamps differ by nature between runs (probes.volatile).
            change.differences = diff(steady(payload(a["response"])), steady(payload(b["response"])))
            if change.differences or a["verdict"] != b["verdict"]:
                change.status = CHANGED
        found.append(change)
    return found


def describe(diff: Any) -> list[str]:
    """Each difference as `path change` ("result.isError added"), whatever a stored entry lacks."""
    return [f"{d.get('path', '')} {d.get('change', '')}".strip() for d in diff or [] if isinstance(d, dict)]


def counts(changes: list[CellChange]) -> dict[str, int]:
    return {status: sum(1 for change in changes if change.status == status) for status in STATUSES}
