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


#: Separators a gateway puts between its prefix (or suffix) and an upstream item's name.
AFFIX_SEPARATORS = ("_", "__", "-", ".", "/", ":")


def items(method: str, answer: Any) -> dict[str, dict[str, Any]]:
    """{name: item} of a list answer ({"result": …} or a result); {} for anything else."""
    result = answer.get("result", answer) if isinstance(answer, dict) else None
    key, name = LISTS.get(method, ("", ""))
    found = result.get(key) if isinstance(result, dict) else None
    if not isinstance(found, list):
        return {}
    return {str(item.get(name)): item for item in found if isinstance(item, dict)}


def affixed(upstream: str, listed: str) -> bool:
    """Whether `listed` is `upstream` with a gateway's prefix or suffix (`fixture_text`, `text.up`)."""
    if listed == upstream or upstream not in listed:
        return False
    head, _, tail = listed.partition(upstream)
    return (not head or head.endswith(AFFIX_SEPARATORS)) and (not tail or tail.startswith(AFFIX_SEPARATORS))


def _alike(upstream: dict[str, Any], listed: dict[str, Any], name: str) -> bool:
    """The same item under another name: every field but the name (and a title) equal."""
    rest = [field for field in (*upstream, *listed) if field not in (name, "title")]
    return bool(rest) and all(upstream.get(field) == listed.get(field) for field in rest)


def renames(method: str, sent: Any, got: Any) -> dict[str, str]:
    """{upstream name: the name the client's list gives it} for items the proxy renamed: matched
    back by their fields (description, schemas, annotations), else by a gateway's prefix or suffix
    when exactly one listed item carries the name so."""
    before, after = items(method, sent), items(method, got)
    name = LISTS.get(method, ("", "name"))[1]
    missing = [key for key in before if key not in after]
    extra = [key for key in after if key not in before]
    found: dict[str, str] = {}
    for key in missing:
        candidates = [other for other in extra if other not in found.values()]
        alike = [other for other in candidates if _alike(before[key], after[other], name)]
        by_affix = [other for other in candidates if affixed(key, other)]
        chosen = [other for other in alike if other in by_affix] or (alike if len(alike) == 1 else []) or by_affix
        if len(chosen) == 1:
            found[key] = chosen[0]
    return found
