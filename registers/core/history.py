"""What changed between two versions of a row. Pure, no Django."""

from __future__ import annotations

from typing import Any

CELLS = ("title", "difference", "where_cell", "status_cell", "value_cell", "effort_cell", "risk_cell")
CELL_NAMES = {
    "title": "title",
    "difference": "difference",
    "where_cell": "where it exists",
    "status_cell": "status",
    "value_cell": "value",
    "effort_cell": "effort",
    "risk_cell": "risk",
}


def changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Readable changes from `before` to `after` (two row snapshots)."""
    found: list[str] = []
    if before.get("status_verdict") != after.get("status_verdict"):
        found.append(f"status verdict {before.get('status_verdict') or '—'} → {after.get('status_verdict') or '—'}")
    for key in CELLS:
        if key != "status_cell" and before.get(key) != after.get(key):
            found.append(f"{CELL_NAMES[key]}: {before.get(key)!r} → {after.get(key)!r}")
    old_labels, new_labels = set(before.get("labels", [])), set(after.get("labels", []))
    found += [f"label added: {label}" for label in sorted(new_labels - old_labels)]
    found += [f"label removed: {label}" for label in sorted(old_labels - new_labels)]
    old_fields = {f["name"]: f["text"] for f in before.get("fields", [])}
    new_fields = {f["name"]: f["text"] for f in after.get("fields", [])}
    for name in new_fields:
        if name not in old_fields:
            found.append(f"field added: {name}")
        elif old_fields[name] != new_fields[name]:
            found.append(f"field changed: {name}")
    found += [f"field removed: {name}" for name in old_fields if name not in new_fields]
    return found


def snapshot(row: Any, labels: list[str]) -> dict[str, Any]:
    """The parts of a row a version keeps (`row` is a Row or anything with the same attributes)."""
    data = {key: getattr(row, key) for key in CELLS}
    data["status_verdict"] = row.status_verdict
    data["labels"] = labels
    data["fields"] = [{"name": f["name"], "text": f["text"]} for f in row.fields]
    return data
