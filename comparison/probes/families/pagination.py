"""Pagination: the fixture serves every list over three pages (its usual items on page 1, two more
pages of items named here), and the probe follows `nextCursor`: every page must arrive once, in
order, none repeated, and the walk must end. A proxy that drops the cursor answers page 1 forever;
one that drops `nextCursor` hides every later page. Every revision has it."""

from __future__ import annotations

from typing import Any

from comparison.hosts import change_kinds
from comparison.probes.assessment import item_names, listing
from comparison.probes.families.base import Family, Finding, Played, Scenario
from comparison.probes.families.playing import add, error_of
from language.vocabulary import ProbeVerdict as V

NAME = "pagination"
PAGE_SIZE = 2
MAX_PAGES = 8
CURSOR = "fixture-page-"

#: list method → (result key, the item field that names it, the items of pages 2 and 3).
LISTS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "tools/list": ("tools", "name", ("paged-tool-1", "paged-tool-2", "paged-tool-3", "paged-tool-4")),
    "prompts/list": ("prompts", "name", ("paged-prompt-1", "paged-prompt-2", "paged-prompt-3")),
    "resources/list": (
        "resources",
        "uri",
        ("fixture://paged/1.txt", "fixture://paged/2.txt", "fixture://paged/3.txt", "fixture://paged/4.txt"),
    ),
    "resources/templates/list": (
        "resourceTemplates",
        "uriTemplate",
        ("fixture://paged/{page}/a", "fixture://paged/{page}/b", "fixture://paged/{page}/c"),
    ),
}
KEYS = {
    "tools/list": "pages-tools",
    "prompts/list": "pages-prompts",
    "resources/list": "pages-resources",
    "resources/templates/list": "pages-templates",
}


def later_names(method: str) -> tuple[str, ...]:
    """The names of the fixture's items after its first page of `method`'s list."""
    return LISTS[method][2] if method in LISTS else ()


class BadCursor(ValueError):
    """A cursor the fixture never handed out."""


def page(first: list[Any], later: list[Any], cursor: Any) -> tuple[list[Any], str | None]:
    """The fixture's side: page 1 is `first`, then `later` PAGE_SIZE at a time."""
    if cursor is None:
        return list(first), (f"{CURSOR}2" if later else None)
    if not isinstance(cursor, str) or not cursor.startswith(CURSOR) or not cursor[len(CURSOR) :].isdigit():
        raise BadCursor(f"Invalid cursor: {str(cursor)[:60]}")
    number = int(cursor[len(CURSOR) :])
    start = (number - 2) * PAGE_SIZE
    if number < 2 or start >= len(later):
        raise BadCursor(f"Invalid cursor: {cursor}")
    end = start + PAGE_SIZE
    return list(later[start:end]), (f"{CURSOR}{number + 1}" if end < len(later) else None)


def play(client: Any, scenario: Scenario, revision: str, key: str) -> Played:
    played = Played()
    result_key, field, _ = LISTS[scenario.method]
    pages: list[list[str]] = []
    items: list[list[dict[str, Any]]] = []
    cursors: list[str] = []
    params: dict[str, Any] = {}
    for _ in range(MAX_PAGES):
        exchange = add(played, client.request(scenario.method, dict(params)))
        result = (exchange.response or {}).get("result")
        if exchange.failure or not isinstance(result, dict) or not isinstance(result.get(result_key), list):
            played.notes["stopped"] = exchange.failure or error_of(exchange) or f"no {result_key} list in the answer"
            break
        kept = [item for item in result[result_key] if isinstance(item, dict)]
        pages.append([str(item.get(field)) for item in kept])
        items.append(kept)
        cursor = result.get("nextCursor")
        if not isinstance(cursor, str) or not cursor:
            break
        cursors.append(cursor)
        params = {"cursor": cursor}
    else:
        played.notes["endless"] = True
    played.notes.update(pages=pages, cursors=cursors, items=items)
    if played.failure and pages:
        played.failure = ""  # a later page failed: that is the finding, the first page came
    return played


def assess(scenario: Scenario, played: Played, revision: str) -> list[Finding]:
    _, _, later = LISTS[scenario.method]
    pages: list[list[str]] = played.notes.get("pages", [])
    if not pages:
        return [Finding(V.NOT_TESTABLE, scenario.method, f"no first page: {played.notes.get('stopped', 'no answer')}")]
    findings: list[Finding] = []
    seen = [name for items in pages for name in items]
    # A gateway's renamed items are matched back: the walk is judged on the upstream's names.
    renamed = {name: other for name in later if name not in seen for other in seen if item_names.affixed(name, other)}
    back = {new: old for old, new in renamed.items()}
    seen = [back.get(name, name) for name in seen]
    pages = [[back.get(name, name) for name in page] for page in pages]
    missing = [name for name in later if name not in seen]
    if len(pages) > 1 and pages[1] == pages[0]:
        findings.append(
            Finding(V.LOST, "params.cursor", "page 2 came back as page 1: the cursor did not reach the upstream")
        )
    elif missing and len(pages) == 1:
        findings.append(Finding(V.LOST, "result.nextCursor", _one_page(pages[0], missing, played)))
    elif missing:
        why = played.notes.get("stopped") or "the walk ended early"
        findings.append(Finding(V.LOST, scenario.method, f"{len(missing)} items never arrived ({why})"))
    if played.notes.get("endless"):
        findings.append(Finding(V.CHANGED, "result.nextCursor", f"still another cursor after {MAX_PAGES} pages"))
    repeated = sorted({name for name in seen if seen.count(name) > 1})
    if repeated and not findings:
        findings.append(Finding(V.CHANGED, scenario.method, f"items repeated across pages: {repeated[:5]}"))
    got_later = [name for name in seen if name in later]
    if not findings and got_later != list(later):
        findings.append(Finding(V.CHANGED, scenario.method, f"later items out of order: {got_later}"))
    reference = played.notes.get("reference")
    if not findings and isinstance(reference, dict) and reference.get("pages"):
        findings += compare_pages(scenario.method, played.notes, reference)
    elif not findings and not isinstance(reference, dict):
        findings.append(
            Finding(
                V.NOT_COMPARED,
                scenario.method,
                "every item arrived once, in order; the pages were not compared with the upstream's "
                "(it could not be probed directly)",
            )
        )
    return _renaming(scenario.method, renamed) + findings


def _renaming(method: str, renamed: dict[str, str]) -> list[Finding]:
    if not renamed:
        return []
    pairs = ", ".join(f"`{old} → {new}`" for old, new in list(renamed.items())[: listing.NAMED_ITEMS])
    return [Finding(V.CHANGED, f"{method} names", f"later pages' items renamed: {pairs}", change_kinds.RENAMED_ITEMS)]


def _one_page(first: list[str], missing: list[str], played: Played) -> str:
    """What the one page the client got says, in the words its evidence supports."""
    reference = played.notes.get("reference")
    upstream_first = (reference.get("pages") or [[]])[0] if isinstance(reference, dict) else None
    if not first:
        lost = len(missing) + len(upstream_first or [])
        return f"page 1 came empty and without nextCursor: none of the {lost} items of the list reach the client"
    return f"page 1 came without nextCursor: {len(missing)} items of later pages never reach the client"


def _shape(pages: list[list[str]]) -> str:
    return f"{len(pages)} page{'s' if len(pages) != 1 else ''} ({' + '.join(str(len(page)) for page in pages)} items)"


def compare_pages(method: str, got: dict[str, Any], sent: dict[str, Any]) -> list[Finding]:
    """What the client's pages and items are beside the upstream's: pages merged or split, cursors
    rewritten, fields added to items or altered."""
    findings = []
    pages, upstream_pages = got["pages"], sent["pages"]
    shape = f"the upstream sent {_shape(upstream_pages)}, the client got {_shape(pages)}"
    if len(pages) < len(upstream_pages):
        findings.append(Finding(V.CHANGED, "result.nextCursor", f"pages merged: {shape}", change_kinds.MERGED_PAGES))
    elif len(pages) > len(upstream_pages):
        findings.append(Finding(V.CHANGED, "result.nextCursor", f"pages split: {shape}", change_kinds.SPLIT_PAGES))
    elif got.get("cursors") != sent.get("cursors"):
        findings.append(
            Finding(
                V.CHANGED,
                "result.nextCursor",
                f"cursors rewritten: the upstream's {sent.get('cursors')}, the client's {got.get('cursors')}"[:300],
                change_kinds.REWRITTEN_CURSORS,
            )
        )
    flat = {name: item for page in _named(method, got) for name, item in page.items()}
    upstream_flat = {name: item for page in _named(method, sent) for name, item in page.items()}
    findings += listing.decorations(
        method,
        {"result": {item_names.LISTS[method][0]: list(upstream_flat.values())}},
        {"result": {item_names.LISTS[method][0]: list(flat.values())}},
    )
    altered = sorted(
        name
        for name, item in flat.items()
        if name in upstream_flat and any(item.get(key) != value for key, value in upstream_flat[name].items())
    )
    if altered:
        findings.append(Finding(V.CHANGED, method, f"{len(altered)} items reached the client altered: {altered[:5]}"))
    return findings


def _named(method: str, notes: dict[str, Any]) -> list[dict[str, dict[str, Any]]]:
    key = item_names.LISTS[method][1]
    return [{str(item.get(key)): item for item in page} for page in notes.get("items") or []]


FAMILY = Family(
    NAME,
    "Pagination",
    tuple(Scenario(KEYS[method], f"{method} over three pages", method, {}, (), family=NAME) for method in LISTS),
    play=play,
    assess=assess,
    compared=True,
)

#: What every scenario of the family exercises (comparison.anchors), beside its own.
ANCHORS: tuple[str, ...] = ("prop:nextCursor", "prop:cursor", "type:PaginatedResult", "page:pagination")
