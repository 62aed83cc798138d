"""What a proxy added to the items of a list (tools, prompts, resources, templates): a title
invented for every tool, a vendor `_meta`, `arguments: []` on prompts. Named per field with how
many items got it, so a list the proxy decorates is told from one it alters. Pure, no Django."""

from __future__ import annotations

import re
from typing import Any

from comparison.hosts.change_kinds import DECORATED_LIST, MERGED_PAGES, PROXY_ITEMS, RENAMED_ITEMS
from comparison.probes.assessment.item_names import LISTS, affixed, items, renames
from comparison.probes.families.base import Finding
from language.vocabulary import ProbeVerdict

#: list method → the host aspect of its pages (comparison.hosts.reactions).
ASPECTS = {
    "tools/list": "pages-tools",
    "prompts/list": "pages-prompts",
    "resources/list": "pages-resources",
    "resources/templates/list": "pages-templates",
}
_ITEM = re.compile(r"^result\.(?P<key>\w+)\[(?:(?P<index>\d+)|\w+=(?P<name>[^\]]*))\](?:\.(?P<field>[^.\[]+))?$")
#: How many items a finding names before it says "and N more".
NAMED_ITEMS = 8


def explained(method: str, differences: list[dict[str, Any]], sent: Any, got: Any = None) -> bool:
    """Whether every difference is one the kinds name: an item or item field added, the cursor
    dropped with the later pages' items added (`decorations`), an item renamed or of the proxy's
    own (`membership`), so the kinds tell the whole change."""
    key = LISTS.get(method, ("", ""))[0]
    first_page = items(method, sent)
    renamed = renames(method, sent, got) if got is not None else {}
    for difference in differences:
        path, change = str(difference.get("path", "")), difference.get("change")
        if path == "result.nextCursor" and change == "removed":
            continue
        match = _ITEM.match(path)
        if not match or match["key"] != key:
            return False
        whole = match["field"] is None
        if whole and match["name"] is not None:
            if (change == "removed" and match["name"] in renamed) or (
                change == "added" and match["name"] not in first_page
            ):
                continue
            return False
        if change != "added" or (whole and int(match["index"]) < len(first_page)):
            return False
    return bool(differences)


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


def unexplained(method: str, differences: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The differences of a list answer that are not about its items or its cursor (what the
    kinds of `decorations` and `membership` tell): a caching hint rewritten, a field added."""
    key = LISTS.get(method, ("", ""))[0]
    about_items = (f"result.{key}[", "result.nextCursor")
    return [d for d in differences if not str(d.get("path", "")).startswith(about_items)]


def membership(method: str, sent: Any, got: Any, later: tuple[str, ...] = ()) -> list[Finding]:
    """Which items the client's list holds against the upstream's, by name: items renamed (one
    finding naming each), items missing, and items of the proxy's own. The upstream's later pages
    merged into the list are not the proxy's own: `later` names them where they are known (the
    fixture's); otherwise a list merged whole counts none of its extra items as the proxy's."""
    before, after = items(method, sent), items(method, got)
    if method not in LISTS or not before or not isinstance(got, dict) or "result" not in got:
        return []
    key = LISTS[method][0]
    renamed = renames(method, sent, got)
    findings = []
    if renamed:
        pairs = [f"{old} → {new}" for old, new in renamed.items()]
        findings.append(
            Finding(ProbeVerdict.CHANGED, f"result.{key}[].name", f"renamed: {_named(pairs, key)}", RENAMED_ITEMS)
        )
    missing = [name for name in before if name not in after and name not in renamed]
    if missing:
        findings.append(
            Finding(ProbeVerdict.LOST, f"result.{key}", f"missing from the client's list: {_named(missing, key)}")
        )
    merged = _cursor(sent) and not _cursor(got) and not missing
    upstreams = [name for name in after if name in later or any(affixed(item, name) for item in later)]
    own = [name for name in after if name not in before and name not in renamed.values() and name not in upstreams]
    if own and not (merged and not later):
        findings.append(
            Finding(
                ProbeVerdict.CHANGED,
                f"result.{key}",
                f"the proxy's own, not the upstream's: {_named(own, key)}",
                PROXY_ITEMS,
            )
        )
    return findings


def _named(names: list[str], key: str) -> str:
    shown = ", ".join(f"`{name}`" for name in names[:NAMED_ITEMS])
    more = f" and {len(names) - NAMED_ITEMS} more" if len(names) > NAMED_ITEMS else ""
    return f"{len(names)} {key if len(names) != 1 else key.rstrip('s')}: {shown}{more}"
