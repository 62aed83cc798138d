"""What a proxy added to the items of a list (tools, prompts, resources, templates): a title
invented for every tool, a vendor `_meta`, `arguments: []` on prompts. Named per field with how
many items got it, so a list the proxy decorates is told from one it alters. Pure, no Django."""

from __future__ import annotations

import re
from typing import Any

from comparison.hosts.change_kinds import DECORATED_LIST, MERGED_PAGES
from registers.core.vocabulary import ProbeVerdict

from .families.base import Finding

#: list method → (result key, the field that names an item).
LISTS = {
    "tools/list": ("tools", "name"),
    "prompts/list": ("prompts", "name"),
    "resources/list": ("resources", "uri"),
    "resources/templates/list": ("resourceTemplates", "uriTemplate"),
}


#: list method → the host aspect of its pages (comparison.hosts.reactions).
ASPECTS = {
    "tools/list": "pages-tools",
    "prompts/list": "pages-prompts",
    "resources/list": "pages-resources",
    "resources/templates/list": "pages-templates",
}
_ITEM = re.compile(r"^result\.(?P<key>\w+)\[(?P<index>\d+)\](?:\.(?P<field>[^.\[]+))?$")


def explained(method: str, differences: list[dict[str, Any]], sent: Any) -> bool:
    """Whether every difference is an item or item field added, or the cursor dropped with the
    later pages' items added (what `decorations` names), so the kinds tell the whole change."""
    key = LISTS.get(method, ("", ""))[0]
    first_page = len(items(method, sent))
    for difference in differences:
        path, change = str(difference.get("path", "")), difference.get("change")
        if path == "result.nextCursor" and change == "removed":
            continue
        match = _ITEM.match(path)
        if not match or match["key"] != key or change != "added":
            return False
        if match["field"] is None and int(match["index"]) < first_page:
            return False
    return bool(differences)


def items(method: str, answer: Any) -> dict[str, dict[str, Any]]:
    """{name: item} of a list answer ({"result": …} or a result); {} for anything else."""
    result = answer.get("result", answer) if isinstance(answer, dict) else None
    key, name = LISTS.get(method, ("", ""))
    found = result.get(key) if isinstance(result, dict) else None
    if not isinstance(found, list):
        return {}
    return {str(item.get(name)): item for item in found if isinstance(item, dict)}


def added_fields(sent: dict[str, dict[str, Any]], got: dict[str, dict[str, Any]]) -> dict[str, int]:
    """{field: how many items got it} for fields the client's items have and the upstream's lack."""
    counts: dict[str, int] = {}
    for name, item in got.items():
        before = sent.get(name)
        if before is None:
            continue
        for field in item:
            if field not in before:
                counts[field] = counts.get(field, 0) + 1
    return counts


def _cursor(answer: Any) -> Any:
    result = answer.get("result") if isinstance(answer, dict) else None
    return result.get("nextCursor") if isinstance(result, dict) else None


def decorations(method: str, sent: Any, got: Any) -> list[Finding]:
    """One finding per field the proxy added to items of the list, naming how many, and one when
    the client got the upstream's first page and more, without a cursor (pages merged)."""
    before, after = items(method, sent), items(method, got)
    if not before or not after:
        return []
    key = LISTS[method][0]
    shared = sum(1 for name in after if name in before)
    merged = []
    if _cursor(sent) and not _cursor(got) and shared == len(before) and len(after) > len(before):
        merged.append(
            Finding(
                ProbeVerdict.CHANGED,
                "result.nextCursor",
                f"pages merged: the upstream's first page had {len(before)} {key} and a cursor, the client's "
                f"has {len(after)} and none",
                MERGED_PAGES,
            )
        )
    return merged + [
        Finding(
            ProbeVerdict.CHANGED,
            f"result.{key}[].{field}",
            f"the proxy added `{field}` to {count} of {shared} {key} the upstream sent without it",
            DECORATED_LIST,
        )
        for field, count in sorted(added_fields(before, after).items())
    ]
