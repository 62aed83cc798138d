"""What a register row is about, read from its own text: the identifiers it names in backticks
(title, What, Where, Detail, the Where-it-exists cell) and the spec lines it cites (the schema
definition and property a cited `schema.ts` line belongs to, the page and section a cited `.mdx`
line is in). Pure.

The anchors found in the row's title are its *subject*: what its revision claim is about. The
rest say what else the row touches.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from language.anchors import kinds
from language.anchors.schema_lines import place_at
from language.anchors.vocabulary import PAGES, SPEC_REVISIONS, Vocabulary, page_topic, schema_source, vocabulary

TITLE, CELL = "title", "where-cell"
#: The row fields read for identifiers, and how each is named on the row page.
FIELD_NAMES = {
    TITLE: "the title",
    CELL: "the Where-it-exists cell",
    "what": "What",
    "where": "Where",
    "detail": "Detail",
}
SCHEMA_CITATION, PAGE_CITATION = "schema-citation", "page-citation"
#: A property name this many definitions share says nothing of what a row is about on its own.
GENERIC_OWNERS = 15
_BACKTICKED = re.compile(r"`([^`\n]{1,120})`")
_PART = re.compile(r"[A-Za-z_$][\w$]*(?:[./][A-Za-z_$][\w$-]*)*|-?\d{3,5}")
_SCHEMA_CITATION = re.compile(r"^schema/([\w-]+)/schema\.ts$")
_PAGE_CITATION = re.compile(r"^(\d{4}-\d{2}-\d{2}|draft)/(.+\.mdx)$")
_HEADING = re.compile(r"^(#{2,4})\s+(.+?)\s*$")
_ERROR_LINE = re.compile(r"^export const [A-Z_]+\s*=\s*(-\d+);")


@dataclass(frozen=True)
class RowAnchor:
    anchor: str
    how: str  # a FIELD_NAMES key, or SCHEMA_CITATION / PAGE_CITATION
    where: str = ""  # the token read, or the citation

    @property
    def subject(self) -> bool:
        return self.how == TITLE

    def as_dict(self) -> dict[str, str]:
        return {"anchor": self.anchor, "how": self.how, "where": self.where}


@dataclass(frozen=True)
class CitedLine:
    path: str
    line: int | None
    field: str = ""


def _generic(name: str, vocab: Vocabulary) -> bool:
    """Does a property name belong to so many definitions (counted as definitions, not the inline
    objects of their properties) that it says nothing on its own?"""
    return sum("." not in owner for owner in vocab.owners.get(name, ())) >= GENERIC_OWNERS


def _known(value: str, vocab: Vocabulary) -> bool:
    return value in vocab.present


def resolve(token: str, vocab: Vocabulary | None = None) -> list[str]:
    """The anchors one backticked token names (none when it names nothing the spec has)."""
    vocab = vocab or vocabulary()
    token = token.strip().rstrip(".,;:()")
    whole = _whole(token, vocab)
    if whole:
        return whole
    found: list[str] = []
    for part in _PART.findall(token):
        for value in _whole(part, vocab, parts=True):
            if value not in found:
                found.append(value)
    return found


def _whole(token: str, vocab: Vocabulary, parts: bool = False) -> list[str]:
    for kind in (kinds.METHOD, kinds.NOTIFICATION, kinds.META, kinds.ERROR, kinds.TYPE, kinds.HTTP):
        if _known(kinds.anchor(kind, token), vocab):
            return [kinds.anchor(kind, token)]
    if token.lower() in vocab.headers:
        return [kinds.anchor(kinds.HEADER, vocab.headers[token.lower()])]
    status = re.fullmatch(r"(?:HTTP )?(\d{3})(?: [A-Z][\w ]*)?", token)
    if status and _known(kinds.anchor(kinds.STATUS, status.group(1)), vocab):
        return [kinds.anchor(kinds.STATUS, status.group(1))]
    if token in vocab.literals:
        return [kinds.anchor(kinds.TYPE, vocab.literals[token])]
    if token.startswith("capabilities.") and _known(kinds.anchor(kinds.CAPABILITY, token[13:]), vocab):
        return [kinds.anchor(kinds.CAPABILITY, token[13:])]
    dotted = _dotted(token, vocab)
    if dotted:
        return dotted
    if token in vocab.short_methods and not parts:
        return [kinds.anchor(kinds.METHOD, vocab.short_methods[token])]
    if token in vocab.short_methods and token[:1].islower() and any(c.isupper() for c in token):
        return [kinds.anchor(kinds.METHOD, vocab.short_methods[token])]  # `setLevel`, `createMessage`
    if token in vocab.owners and not _generic(token, vocab):
        return [kinds.anchor(kinds.PROP, token)]
    return []


def _dotted(token: str, vocab: Vocabulary) -> list[str]:
    """`Tool.title`, `Tool.execution.taskSupport`, `_meta.progressToken`."""
    if "." not in token or "/" in token:
        return []
    head, *rest = token.split(".")
    if not rest or not all(rest):
        return []
    if _known(kinds.anchor(kinds.TYPE, head), vocab):
        found = [kinds.anchor(kinds.FIELD, f"{head}.{rest[0]}")]
        nested = kinds.anchor(kinds.FIELD, f"{head}.{'.'.join(rest[:2])}")
        if len(rest) > 1 and _known(nested, vocab):
            found.append(nested)
        elif len(rest) > 1 and rest[-1] in vocab.owners and not _generic(rest[-1], vocab):
            found.append(kinds.anchor(kinds.PROP, rest[-1]))
        return [value for value in found if _known(value, vocab) or value.startswith(kinds.PROP)]
    last = rest[-1]
    return [kinds.anchor(kinds.PROP, last)] if last in vocab.owners and not _generic(last, vocab) else []


def _scoped(values: list[str], tokens: list[str], vocab: Vocabulary) -> list[str]:
    """A bare property the same text ties to a definition that has it (`_meta` on `Prompt`) is that
    definition's property; tied to a union (`ContentBlock`), it is each member's. A generic one with
    no definition beside it says nothing."""
    types = [kinds.split(value)[1] for value in values if value.startswith(kinds.TYPE + ":")]
    types += [member for definition in types for member in sorted(vocab.members.get(definition, ()))]
    scoped: list[str] = []
    for token in tokens:
        name = token.strip().rstrip(".,;:()")
        if name in vocab.owners and not _whole(name, vocab):
            for definition in types:
                field = kinds.anchor(kinds.FIELD, f"{definition}.{name}")
                if _known(field, vocab) and field not in scoped:
                    scoped.append(field)
    return scoped


_PLAIN_WORDS = re.compile(r"[a-z][a-z_]*")


def _title_phrases(text: str, vocab: Vocabulary, plain_names: bool = True) -> list[tuple[str, str]]:
    """Definitions a title names in plain words: two words that, joined in CamelCase and made
    singular, are a definition (`content blocks` → ContentBlock, `prompt messages` →
    PromptMessage); and a block type's tag (`audio allowed in …`) where the title also names a
    property that could accept it. Plain-word names count only where no backticked one does."""
    plain = _BACKTICKED.sub(" | ", text or "")
    found: list[tuple[str, str]] = []
    for chunk in re.split(r"[^a-z_ ]+", plain) if plain_names else ():
        words = _PLAIN_WORDS.findall(chunk)
        for first, second in pairwise(words):
            name = first.capitalize() + second.removesuffix("s").capitalize()
            if _known(kinds.anchor(kinds.TYPE, name), vocab):
                found.append((kinds.anchor(kinds.TYPE, name), f"{first} {second}"))
    if "`" in (text or "") and "." in "".join(_BACKTICKED.findall(text)):
        for word in _PLAIN_WORDS.findall(plain):
            if word in vocab.literals and word not in ("text", "resource"):
                found.append((kinds.anchor(kinds.TYPE, vocab.literals[word]), word))
    return found


def text_anchors(text: str, vocab: Vocabulary | None = None, title: bool = False) -> list[tuple[str, str]]:
    """(anchor, token) for every identifier a piece of Markdown names in backticks (and, in a
    title, every definition it names in plain words)."""
    vocab = vocab or vocabulary()
    tokens = _BACKTICKED.findall(text or "")
    found: list[tuple[str, str]] = []
    for token in tokens:
        for value in resolve(token, vocab):
            found.append((value, token))
    if title:
        found += _title_phrases(text, vocab, plain_names=not found)
    named = [value for value, _ in found]
    for value in _scoped(named, tokens, vocab):
        found.append((value, value.split(":", 1)[1]))
    return found


def cited_anchors(cited: CitedLine, vocab: Vocabulary | None = None) -> list[str]:
    """The anchors one cited spec line stands for."""
    vocab = vocab or vocabulary()
    schema = _SCHEMA_CITATION.match(cited.path)
    if schema and cited.line and schema.group(1) in SPEC_REVISIONS:
        return _schema_line(schema.group(1), cited.line, vocab)
    page = _PAGE_CITATION.match(cited.path)
    if page and page.group(1) in SPEC_REVISIONS:
        topic = page_topic(page.group(2))
        if kinds.anchor(kinds.PAGE, topic) not in vocab.present or topic in ("changelog", "index", "basic"):
            return []
        section = page_section(page.group(1), page.group(2), cited.line) if cited.line else ""
        whole = kinds.anchor(kinds.PAGE, topic)
        return [whole, f"{whole}#{section}"] if section else [whole]
    return []


def _schema_line(revision: str, line: int, vocab: Vocabulary) -> list[str]:
    place = place_at(revision, line)
    if place is None:
        text = _lines(revision)[line - 1] if 1 <= line <= len(_lines(revision)) else ""
        error = _ERROR_LINE.match(text)
        return [kinds.anchor(kinds.ERROR, error.group(1))] if error else []
    found = [kinds.anchor(kinds.TYPE, place.definition)]
    if place.prop and place.prop not in ("method", "params", "jsonrpc", "id"):
        found.append(kinds.anchor(kinds.FIELD, place.name))
    method = vocab.definition_methods.get(place.definition)
    if method:
        found.append(method)
    return [value for value in found if _known(value, vocab)] or found[:1]


@lru_cache(maxsize=len(SPEC_REVISIONS))
def _lines(revision: str) -> tuple[str, ...]:
    return tuple(schema_source(revision).splitlines())


def slug(heading: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", re.sub(r"[`*_]", "", heading).lower()).strip("-")


@lru_cache(maxsize=512)
def _headings(revision: str, page: str) -> tuple[tuple[int, str], ...]:
    path = PAGES / revision / page
    if not path.is_file() or ".." in page:
        return ()
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = _HEADING.match(line)
        if match:
            found.append((number, slug(match.group(2))))
    return tuple(found)


def page_section(revision: str, page: str, line: int) -> str:
    """The slug of the nearest heading at or above a line of a spec page ("" above the first)."""
    above = [name for number, name in _headings(revision, page) if number <= line]
    return above[-1] if above else ""


def row_anchors(
    texts: dict[str, str], citations: Iterable[CitedLine], vocab: Vocabulary | None = None
) -> list[RowAnchor]:
    """Every anchor of a row, each once, with how it was first found: `texts` maps a FIELD_NAMES
    key to its text (the title first, so that its anchors are the subject)."""
    vocab = vocab or vocabulary()
    found: dict[str, RowAnchor] = {}
    for key in FIELD_NAMES:
        for value, token in text_anchors(texts.get(key, ""), vocab, title=key == TITLE):
            found.setdefault(value, RowAnchor(value, key, token))
    for cited in citations:
        how = SCHEMA_CITATION if cited.path.startswith("schema/") else PAGE_CITATION
        where = f"{cited.path}:{cited.line}" if cited.line else cited.path
        for value in cited_anchors(cited, vocab):
            found.setdefault(value, RowAnchor(value, how, where))
    return list(found.values())


HOW_LABELS = {
    **{key: f"named in {name}" for key, name in FIELD_NAMES.items()},
    SCHEMA_CITATION: "the cited schema line is in it",
    PAGE_CITATION: "the cited spec page (and section)",
}


def shown(stored: list[dict]) -> list[dict[str, str | bool]]:
    """Stored row anchors as the row page lists them: the anchor, its kind, how it was found."""
    found = []
    for item in stored:
        if not isinstance(item, dict) or not item.get("anchor"):
            continue
        kind, name = kinds.split(str(item["anchor"]))
        found.append(
            {
                "anchor": item["anchor"],
                "name": name,
                "kind": kinds.LABELS.get(kind, kind),
                "how": HOW_LABELS.get(str(item.get("how", "")), str(item.get("how", ""))),
                "where": str(item.get("where", "")),
                "subject": item.get("how") == TITLE,
            }
        )
    return found
