"""Field-level differences between two answers, as the proxy diff and the run comparison show
them. Pure, no Django."""

from __future__ import annotations

from typing import Any

from comparison.hosts.present import shorten

MAX_DIFFS = 40


def payload(response: dict[str, Any] | None) -> dict[str, Any] | None:
    """The part of a JSON-RPC response a host acts on: its result or its error."""
    if not isinstance(response, dict):
        return None
    if "error" in response:
        return {"error": response["error"]}
    return {"result": response.get("result")}


def diff(before: Any, after: Any, path: str = "", out: list | None = None, *, subset: bool = False) -> list[dict]:
    """Field-level differences; with `subset`, keys missing from `before` are not reported."""
    out = [] if out is None else out
    if len(out) >= MAX_DIFFS:
        return out
    if isinstance(before, dict) and isinstance(after, dict):
        for key in before:
            where = f"{path}.{key}" if path else key
            if key not in after:
                out.append({"path": where, "change": "removed", "before": shorten(before[key], 80)})
            else:
                diff(before[key], after[key], where, out, subset=subset)
        if not subset:
            for key in after:
                if key not in before:
                    where = f"{path}.{key}" if path else key
                    out.append({"path": where, "change": "added", "after": shorten(after[key], 80)})
    elif isinstance(before, list) and isinstance(after, list):
        for index in range(max(len(before), len(after))):
            where = f"{path}[{index}]"
            if index >= len(after):
                out.append({"path": where, "change": "removed", "before": shorten(before[index], 80)})
            elif index >= len(before):
                out.append({"path": where, "change": "added", "after": shorten(after[index], 80)})
            else:
                diff(before[index], after[index], where, out, subset=subset)
    elif before != after:
        out.append({"path": path, "change": "changed", "before": shorten(before, 80), "after": shorten(after, 80)})
    return out[:MAX_DIFFS]
