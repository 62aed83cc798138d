"""Which item of a list is which: tools and prompts by name, resources by URI, templates by URI
template, and an item a gateway renamed matched back to the upstream's. Pure, no Django."""

from __future__ import annotations

from typing import Any

#: list method → (result key, the field that names an item).
LISTS = {
    "tools/list": ("tools", "name"),
    "prompts/list": ("prompts", "name"),
    "resources/list": ("resources", "uri"),
    "resources/templates/list": ("resourceTemplates", "uriTemplate"),
}


#: Characters a gateway puts between its own segment and an upstream item's name.
SEPARATORS = frozenset("_-./:")


def items(method: str, answer: Any) -> dict[str, dict[str, Any]]:
    """{name: item} of a list answer ({"result": …} or a result); {} for anything else."""
    result = answer.get("result", answer) if isinstance(answer, dict) else None
    key, name = LISTS.get(method, ("", ""))
    found = result.get(key) if isinstance(result, dict) else None
    if not isinstance(found, list):
        return {}
    return {str(item.get(name)): item for item in found if isinstance(item, dict)}


def _alike(upstream: dict[str, Any], listed: dict[str, Any], name: str) -> bool:
    """The same item under another name: every field but the name (and a title) equal."""
    rest = [field for field in (*upstream, *listed) if field not in (name, "title")]
    return bool(rest) and all(upstream.get(field) == listed.get(field) for field in rest)


def renames(method: str, sent: Any, got: Any) -> dict[str, str]:
    """{upstream name: the name the client's list gives it} for items the proxy renamed: by the
    segment a gateway inserts into the names (a prefix, a suffix, or a namespace after a URI's
    scheme: the one most of the missing names share), else matched back by their fields
    (description, schemas, annotations) when exactly one item has them."""
    before, after = items(method, sent), items(method, got)
    name = LISTS.get(method, ("", "name"))[1]
    missing = [key for key in before if key not in after]
    extra = [key for key in after if key not in before]
    found = by_insert(missing, extra)
    for key in missing:
        if key in found:
            continue
        alike = [o for o in extra if o not in found.values() and _alike(before[key], after[o], name)]
        if len(alike) == 1:
            found[key] = alike[0]
    return found


def inserts(upstream: str, listed: str) -> set[tuple[int, str]]:
    """(where, what) for each way `listed` is `upstream` with one segment inserted at a boundary
    (the start, the end, or next to a separator)."""
    extra = len(listed) - len(upstream)
    if extra <= 0:
        return set()
    found = set()
    for at in range(len(upstream) + 1):
        if listed.startswith(upstream[:at]) and listed.endswith(upstream[at:]):
            segment = listed[at : at + extra]
            bounded = at in (0, len(upstream)) or upstream[at - 1] in SEPARATORS or upstream[at] in SEPARATORS
            if bounded and (segment[0] in SEPARATORS or segment[-1] in SEPARATORS or at in (0, len(upstream))):
                where = 0 if at == 0 else -1 if at == len(upstream) else 1
                found.add((where, segment))
    return found


def by_insert(missing: list[str], extra: list[str]) -> dict[str, str]:
    """The renames explained by the one inserted segment most of the names share."""
    counts: dict[tuple[int, str], int] = {}
    pairs: dict[tuple[int, str], dict[str, list[str]]] = {}
    for key in missing:
        for other in extra:
            for insert in inserts(key, other):
                counts[insert] = counts.get(insert, 0) + 1
                pairs.setdefault(insert, {}).setdefault(key, []).append(other)
    if not counts:
        return {}
    best = max(counts, key=lambda insert: (counts[insert], -len(insert[1])))
    return {key: others[0] for key, others in pairs[best].items() if len(others) == 1}


def affixed(upstream: str, listed: str) -> bool:
    """Whether `listed` is `upstream` with a gateway's segment inserted (`fixture_text`)."""
    return bool(inserts(upstream, listed))
