"""What a host saw through a target set beside what it saw directly from the fixture: the same
scenario's two observations compared on what reached the model and on the chips. Pure."""

from __future__ import annotations

from typing import Any

SAME, DIFFERS, NOT_COMPARED = "same", "differs", "not compared"


def _chips(item: dict[str, Any]) -> dict[str, str]:
    return {cell["feature"]: cell["chip"] for cell in item.get("cells") or []}


def compare(direct: dict[str, Any] | None, via: dict[str, Any] | None) -> dict[str, Any]:
    """{"verdict", "changed": [{feature, direct, via}], "parts_differ"}; not compared when either
    side was not measured (never "same")."""
    if not direct or not via or direct.get("not_measured") or via.get("not_measured"):
        return {"verdict": NOT_COMPARED, "changed": [], "parts_differ": False}
    before, after = _chips(direct), _chips(via)
    changed = [
        {"feature": feature, "direct": before.get(feature, "absent"), "via": after.get(feature, "absent")}
        for feature in sorted(set(before) | set(after))
        if before.get(feature) != after.get(feature)
    ]
    seen_direct, seen_via = direct.get("reached") or {}, via.get("reached") or {}
    parts_differ = (seen_direct.get("parts"), seen_direct.get("error_flag")) != (
        seen_via.get("parts"),
        seen_via.get("error_flag"),
    )
    return {"verdict": DIFFERS if changed or parts_differ else SAME, "changed": changed, "parts_differ": parts_differ}


def affected_hosts(pairs: list[tuple[str, dict[str, Any]]]) -> dict[str, int]:
    """host -> how many scenarios differ through the target (hosts with none are left out)."""
    found: dict[str, int] = {}
    for host, comparison in pairs:
        if comparison["verdict"] == DIFFERS:
            found[host] = found.get(host, 0) + 1
    return found
