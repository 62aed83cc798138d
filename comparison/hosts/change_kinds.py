"""The kinds of change a proxy makes that are not a plain loss, and what each changes for each host.

A finding of a scenario family may name its kind (`families.base.Finding.kind`). A plain loss
counts against every host that uses what was lost (`protocol.outcomes`); a kind says better: pages
merged into one change nothing for a host that follows cursors and show more items to one that
reads the first page only; a message moved to the GET stream is lost only for a host that opens
none. Pure, no Django.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from comparison.hosts.reactions import BEHAVIOUR

MERGED_PAGES = "merged-pages"
SPLIT_PAGES = "split-pages"
REWRITTEN_CURSORS = "rewritten-cursors"
DECORATED_LIST = "decorated-list"
INJECTED_PARAMETER = "injected-parameter"
MOVED_TO_GET_STREAM = "moved-to-get-stream"
EXTRA_UPSTREAM_SESSION = "extra-upstream-session"
ADDED_AS_REVISION_ASKS = "added-as-revision-asks"
PROXY_ITEMS = "proxy-items"
RENAMED_ITEMS = "renamed-items"

#: The lists each host reads the first page of, and no more (its reaction's source says so).
FIRST_PAGE_ONLY = {
    "lootbox": ("pages-tools", "pages-resources"),
    "cloudflare": ("pages-tools",),
}
#: Hosts that open the session's GET stream (their `session-get` reaction uses it).
GET_STREAM_HOSTS = tuple(host for host, aspects in BEHAVIOUR.items() if getattr(aspects.get("session-get"), "uses", 0))


@dataclass(frozen=True)
class Impact:
    affected: bool
    says: str
    #: False where no source read here says what the host does: unknown, scored for nobody.
    known: bool = True


NOT_MODELLED = Impact(False, "not modelled (no source read here says what this host does here): unknown", False)


def _modelled(host: str, aspect: str) -> bool:
    return aspect in BEHAVIOUR.get(host, {})


def _lists(host: str, aspect: str) -> bool:
    """Whether the host asks for the list at all (a host whose reaction says it does not, never meets it)."""
    reaction = BEHAVIOUR.get(host, {}).get(aspect)
    return reaction is None or reaction.uses or aspect in FIRST_PAGE_ONLY.get(host, ())


def _paging(first_page_only: str, cursors: str) -> Callable[[str, str], Impact]:
    """What pages merged or split do: a host that reads one page sees `first_page_only`; one that
    follows cursors, `cursors` (no change)."""

    def impact(host: str, aspect: str) -> Impact:
        if not _modelled(host, aspect):
            return NOT_MODELLED
        if aspect in FIRST_PAGE_ONLY.get(host, ()):
            return Impact(True, first_page_only)
        if not _lists(host, aspect):
            return Impact(False, "never asks for this list")
        return Impact(False, cursors)

    return impact


def _decorated(host: str, aspect: str) -> Impact:
    if aspect.startswith("pages-") and not _lists(host, aspect):
        return Impact(False, "never asks for this list")
    return Impact(True, "offers its model the items with what the proxy added")


def _listing(says: str) -> Callable[[str, str], Impact]:
    """A change to which items a list holds: it reaches every host that asks for the list."""

    def impact(host: str, aspect: str) -> Impact:
        if aspect.startswith("pages-") and not _lists(host, aspect):
            return Impact(False, "never asks for this list")
        return Impact(True, says)

    return impact


def _moved(host: str, aspect: str) -> Impact:
    if host in GET_STREAM_HOSTS:
        return Impact(False, "opens the GET stream: gets the messages there")
    reaction = BEHAVIOUR.get(host, {}).get(aspect)
    if reaction is None:
        return NOT_MODELLED
    if not reaction.uses:
        return Impact(False, f"opens no GET stream, but does not use these either ({reaction.does})")
    return Impact(True, "opens no GET stream: loses every message the proxy moved there")


def _nobody(says: str) -> Callable[[str, str], Impact]:
    return lambda host, aspect: Impact(False, says)


@dataclass(frozen=True)
class Kind:
    title: str
    #: (host, aspect) → what the change does to that host.
    impact: Callable[[str, str], Impact]


KINDS: dict[str, Kind] = {
    MERGED_PAGES: Kind(
        "pages merged into one",
        _paging(
            "reads one page: through this proxy it sees every item, directly only the first page's",
            "follows cursors: gets the same items in one page",
        ),
    ),
    SPLIT_PAGES: Kind(
        "pages split",
        _paging(
            "reads one page: the items the proxy moved to later pages never reach it",
            "follows cursors: gets the same items over more pages",
        ),
    ),
    REWRITTEN_CURSORS: Kind("cursors rewritten", _nobody("cursors are opaque: a host passes back what it got")),
    DECORATED_LIST: Kind("list items decorated", _decorated),
    INJECTED_PARAMETER: Kind(
        "parameter injected",
        _nobody("its own request is unchanged; the upstream acts on a parameter the host never sent"),
    ),
    MOVED_TO_GET_STREAM: Kind("moved to the GET stream", _moved),
    EXTRA_UPSTREAM_SESSION: Kind(
        "extra upstream session",
        _nobody("its own session is unchanged; the upstream sees a client the host never opened"),
    ),
    ADDED_AS_REVISION_ASKS: Kind("added as the revision asks", _nobody("changes nothing: the revision asks for it")),
    PROXY_ITEMS: Kind(
        "items of the proxy's own", _listing("offers its model the proxy's own items beside the upstream's")
    ),
    RENAMED_ITEMS: Kind(
        "items renamed",
        _listing("knows the items by the proxy's names only: settings and prompts naming the upstream's miss them"),
    ),
}


def title(kind: str) -> str:
    found = KINDS.get(kind)
    return found.title if found else kind


def impact(kinds: list[str] | tuple[str, ...], host: str, aspect: str) -> Impact | None:
    """What the named kinds do to a host together: affected when any of them affects it; unknown
    (NOT_MODELLED) when no source says for one of them; None when a kind is unknown (the caller
    falls back to the plain reading of a loss)."""
    found = [KINDS[kind].impact(host, aspect) for kind in kinds if kind in KINDS]
    if not found or len(found) != len(kinds):
        return None
    affected = [item for item in found if item.affected]
    if not affected and not all(item.known for item in found):
        return NOT_MODELLED  # one kind's effect is unknown and none is known to affect the host
    return Impact(bool(affected), "; ".join(dict.fromkeys(item.says for item in (affected or found))))
