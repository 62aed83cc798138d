"""The kinds of anchor, and how one is written: `kind:name`. Pure.

- `method:tools/list`, `notification:notifications/progress`: JSON-RPC methods the schemas define;
- `type:CallToolResult`: a schema definition; `field:CallToolResult.isError`: a property of one;
  `prop:nextCursor`: a property name the row did not tie to a definition;
- `capability:tools.listChanged`, `error:-32602`, `meta:io.modelcontextprotocol/logLevel`;
- `header:Mcp-Session-Id`, `http:GET`, `status:405`: the HTTP transport, from the spec pages;
- `page:pagination`, `page:pagination#error-handling`: a spec page and a section of it.
"""

from __future__ import annotations

from functools import lru_cache

METHOD, NOTIFICATION, TYPE, FIELD, PROP = "method", "notification", "type", "field", "prop"
CAPABILITY, ERROR, META, HEADER, HTTP, STATUS, PAGE = "capability", "error", "meta", "header", "http", "status", "page"
KINDS = (METHOD, NOTIFICATION, TYPE, FIELD, PROP, CAPABILITY, ERROR, META, HEADER, HTTP, STATUS, PAGE)
#: Kinds whose presence per revision the official schemas tell.
SCHEMA_KINDS = (METHOD, NOTIFICATION, TYPE, FIELD, CAPABILITY, ERROR, META)
LABELS = {
    METHOD: "request",
    NOTIFICATION: "notification",
    TYPE: "schema definition",
    FIELD: "schema property",
    PROP: "property name",
    CAPABILITY: "capability",
    ERROR: "error code",
    META: "_meta key",
    HEADER: "HTTP header",
    HTTP: "HTTP method",
    STATUS: "HTTP status",
    PAGE: "spec page",
}


def anchor(kind: str, name: str) -> str:
    return f"{kind}:{name}"


def split(value: str) -> tuple[str, str]:
    kind, _, name = value.partition(":")
    return kind, name


@lru_cache(maxsize=65536)
def keys(value: str) -> frozenset[str]:
    """The anchor and the broader anchors it falls under: a property under its definition and its
    bare name, a page section under its page, a capability option under its capability."""
    kind, name = split(value)
    found = {value}
    if kind == FIELD and "." in name:
        definition, _, prop = name.partition(".")
        found |= {anchor(TYPE, definition), anchor(PROP, prop.rsplit(".", 1)[-1])}
    elif kind == PAGE and "#" in name:
        found.add(anchor(PAGE, name.partition("#")[0]))
    elif kind == CAPABILITY and "." in name:
        found.add(anchor(CAPABILITY, name.partition(".")[0]))
    return frozenset(found)


@lru_cache(maxsize=65536)
def meets(left: str, right: str) -> bool:
    """Two anchors meet when they are the same or one falls under the other (`field:Tool.title`
    meets `type:Tool` and `prop:title`, not `field:Prompt.title`)."""
    return left == right or left in keys(right) or right in keys(left)


def meet(left: frozenset[str] | set[str], right: frozenset[str] | set[str]) -> set[str]:
    """The anchors of `left` that meet some anchor of `right`."""
    return set(met(frozenset(left), frozenset(right)))


@lru_cache(maxsize=65536)
def met(left: frozenset[str], right: frozenset[str]) -> frozenset[str]:
    """`meet` of two frozen sets, worked out once: a run's cells repeat a few hundred anchor sets
    (one scenario at every revision, one catalogue in every run), so thousands of cells against a
    row cost a few hundred meetings, not one each."""
    return frozenset(value for value in left if any(meets(value, other) for other in right))


def all_keys(anchors) -> frozenset[str]:
    """Every key of every anchor: what a set of anchors can meet."""
    return frozenset().union(*(keys(value) for value in anchors))


class AnchorIndex:
    """Items (each a set of anchors) by the keys they hold, so a row finds the items that meet its
    anchors without a scan: the keys narrow, `meet` decides (two properties of one definition
    share a key but do not meet)."""

    def __init__(self, anchor_sets):
        self.sets = [frozenset(anchors) for anchors in anchor_sets]
        self.by_key: dict[str, list[int]] = {}
        for index, anchors in enumerate(self.sets):
            for key in all_keys(anchors):
                self.by_key.setdefault(key, []).append(index)

    def meeting(self, anchors) -> list[int]:
        """The indexes of the items that meet `anchors`, in item order."""
        wanted = frozenset(anchors)
        candidates = sorted({i for key in all_keys(wanted) for i in self.by_key.get(key, ())})
        return [i for i in candidates if met(wanted, self.sets[i])]
