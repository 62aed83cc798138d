"""Field-level differences between two answers, as the proxy diff and the run comparison show
them. Pure, no Django."""

from __future__ import annotations

import re
from typing import Any

from comparison.hosts.present import shorten

#: The differences one answer keeps: a proxy that decorates every item of a long list is told in
#: full (the page shows the first SHOWN_DIFFS and says how many more), yet the work stays bounded.
MAX_DIFFS = 1000
SHOWN_DIFFS = 40
#: Fields that name an item of a list (tools and prompts by name, resources by URI, templates by
#: URI template): such lists are compared item by item by that name, never by position, so a proxy
#: that puts items of its own first, or reorders, changes no item of the upstream's.
IDENTITY_FIELDS = ("name", "uri", "uriTemplate")


def identity_field(before: list, after: list) -> str:
    """The field that names every item of both lists, once each; "" when there is none."""
    if not before or not after or not all(isinstance(item, dict) for item in (*before, *after)):
        return ""
    for field in IDENTITY_FIELDS:
        names = [[item.get(field) for item in side] for side in (before, after)]
        if all(isinstance(n, str) for side in names for n in side) and all(len(set(s)) == len(s) for s in names):
            return field
    return ""


def item_path(path: str, field: str, name: str) -> str:
    """Where an item of a named list is: `result.tools[name=text]`."""
    return f"{path}[{field}={name}]"


def _diff_by_identity(before: list, after: list, field: str, path: str, out: list, *, subset: bool) -> None:
    later = {item[field]: item for item in after}
    for item in before:
        where = item_path(path, field, item[field])
        if item[field] in later:
            diff(item, later[item[field]], where, out, subset=subset)
        else:
            out.append({"path": where, "change": "removed", "before": shorten(item, 80)})
    earlier = {item[field] for item in before}
    for item in after:
        if item[field] not in earlier:
            out.append({"path": item_path(path, field, item[field]), "change": "added", "after": shorten(item, 80)})


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
    elif isinstance(before, list) and isinstance(after, list) and (field := identity_field(before, after)):
        _diff_by_identity(before, after, field, path, out, subset=subset)
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


_ITEM = re.compile(r"\[(?:\d+|(?:name|uri|uriTemplate)=[^\]]*)\]")


def groups(diffs: list[dict]) -> list[dict]:
    """The differences by what they change, items of a list taken together: 101 lines of
    `result.tools[name=…]._meta added` are one group of 101. First seen first."""
    counted: dict[tuple[str, str], int] = {}
    for entry in diffs:
        if isinstance(entry, dict):
            key = (_ITEM.sub("[…]", str(entry.get("path", ""))), str(entry.get("change", "")))
            counted[key] = counted.get(key, 0) + 1
    return [{"path": path, "change": change, "count": count} for (path, change), count in counted.items()]
