"""The citation grammar of the registers: text -> Citation data. Pure, no Django.

Registers cite in a handful of forms (see registers/data/README.md and the register legend):

- a file locator in a code span: `` `schema/2025-06-18/schema.ts:761` ``, `` `v1:packages/…:32-40` ``,
  optionally followed by a double-quoted verbatim quote, a code-span quote or a parenthetical;
- the short continuation `` `:224-226` ``, which reuses the previous file of the same field;
- URLs, in angle brackets or bare, followed by a quote, `("Heading": "quote")` or `L12–L14`;
- wire-session references: `wire W21`, `wire S5, W26`, `wire L1–L3`.

The scanner looks for these anchored forms instead of splitting on `;`, because quotes are
sometimes truncated mid-token and leave unbalanced backticks or quotes behind.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field as dataclass_field

FILE_SPAN = re.compile(r"`((?:v1:|v2:|nix:)?[@\w.][\w./@+%-]*):(\d+)(?:-(\d+))?`")
CONTINUATION_SPAN = re.compile(r"`:(\d+)(?:-(\d+))?`")
ANGLE_URL = re.compile(r"<(https?://[^>\s]+)>")
BARE_URL = re.compile(r"https?://[^\s<>\"`;]+")
WIRE_ID = r"[WSML]\d+(?:–[WSML]?\d+)?"
# Each pattern starts with its literal and checks what stands before it with a lookbehind after
# it, so the regex engine can skip to the literal: a leading `\b` or lookbehind tried every
# position of a 20 MB field (wire: 0.42 s a search, issue numbers: 0.79 s).
WIRE_GROUP = re.compile(rf"w(?<!\ww)ire ({WIRE_ID}(?:, {WIRE_ID})*)")
URL_LINES = re.compile(r"L(\d+)(?:–L(\d+))?")
QUOTE_END = re.compile(r"\s*(?:[;,)]|\.(?=\s|;|$)|$)")
NEXT_CITATION = re.compile(r";\s+(?=`(?:v1:|v2:|nix:)?[@\w.][\w./@+%-]*:\d+|<?https?://|wire [WSML]\d)")
ISSUE_REF = re.compile(r"#(?<![^\s(;,]#)(\d{1,6})\b")
BARE_WIRE_GROUP = re.compile(r"\((W\d+(?:–W?\d+)?(?:, W\d+(?:–W?\d+)?)*)\)")

# Longest prefixes first: `docs/docs/` and `docs/extensions/` are spec pages, `docs/` alone is
# the subject's own documentation.
PATH_FAMILIES: tuple[tuple[str, str, str | None], ...] = (
    ("v1:", "host-source", "opencode-v1"),
    ("v2:", "host-source", "opencode-v2"),
    ("nix:", "repo-file", None),
    ("schema/", "spec-schema", None),
    ("docs/docs/", "spec-guide", None),
    ("docs/extensions/", "spec-extension", None),
    ("seps/", "spec-sep", None),
    (".lootbox/", "host-source", "lootbox"),
    ("internal/", "subject-source", "mcpx"),
    ("plugin/", "subject-source", "mcpx"),
    ("cmd/", "subject-source", "mcpx"),
    ("docs/", "subject-doc", "mcpx"),
)
SPEC_PAGE = re.compile(r"^\d{4}-\d{2}-\d{2}/")
TOP_LEVEL_DOC = re.compile(r"^[A-Z][A-Z0-9_-]*\.md$")
PACKAGE_FILE = re.compile(r"^@?[\w.-]+(?:/[\w.-]+)?@\d[\w.-]*/")

URL_HOSTS = {
    "developers.cloudflare.com": "cloudflare",
    "blog.cloudflare.com": "cloudflare",
}


@dataclass
class Citation:
    kind: str
    raw: str
    field: str = ""
    path: str = ""
    line_start: int | None = None
    line_end: int | None = None
    quote: str = ""
    quote_style: str = ""  # "double", "code" or ""
    note: str = ""
    url: str = ""
    host: str | None = None
    wire_ids: list[str] = dataclass_field(default_factory=list)
    continuation: bool = False

    @property
    def locator(self) -> str:
        return locator(self.kind, self.path, self.url, self.wire_ids, self.line_start, self.line_end)


def locator(kind: str, path: str, url: str, wire_ids: list[str], line_start: int | None, line_end: int | None) -> str:
    """How a citation is written back: `path:12-14`, `url L12–L14`, or `wire W5, W6`."""
    if kind == "wire":
        return "wire " + ", ".join(wire_ids)
    target = path or url
    if line_start is None:
        return target
    if kind == "url":
        return f"{target} L{line_start}" + (f"–L{line_end}" if line_end else "")
    if line_end and line_end != line_start:
        return f"{target}:{line_start}-{line_end}"
    return f"{target}:{line_start}"


def classify_path(path: str) -> tuple[str, str | None]:
    """Return (kind, host) for a cited file path."""
    for prefix, kind, host in PATH_FAMILIES:
        if path.startswith(prefix):
            return kind, host
    if SPEC_PAGE.match(path):
        return "spec-page", None
    if PACKAGE_FILE.match(path):
        return "package-file", None
    if TOP_LEVEL_DOC.match(path):
        return "subject-doc", "mcpx"
    return "file", None


def url_host(url: str) -> str | None:
    netloc = url.split("://", 1)[-1].split("/", 1)[0].lower()
    return URL_HOSTS.get(netloc)


def expand_wire_ids(group: str) -> list[str]:
    """`W5, L1–L3` -> ["W5", "L1", "L2", "L3"]; a range is expanded, bounded at 100 ids."""
    ids: list[str] = []
    for part in group.split(", "):
        match = re.fullmatch(r"([WSML])(\d+)(?:–([WSML])?(\d+))?", part.strip())
        if not match:
            continue
        letter, first, _, last = match.groups()
        start = int(first)
        stop = int(last) if last else start
        if stop < start or stop - start > 100:
            stop = start
        ids.extend(f"{letter}{n}" for n in range(start, stop + 1))
    return ids


def _read_double_quote(text: str, pos: int) -> tuple[str, int] | None:
    """A quote opening at text[pos] == '"'. Ends at the first unescaped '"' that is followed by a
    list separator, a full stop, a closing parenthesis or the end; runs to the end otherwise."""
    next_citation = NEXT_CITATION.search(text, pos + 1)
    limit = next_citation.start() if next_citation else len(text)
    i = pos + 1
    while i < limit:
        char = text[i]
        if char == "\\" and i + 1 < len(text):
            i += 2
            continue
        if char == '"' and QUOTE_END.match(text, i + 1):
            return unescape_quote(text[pos + 1 : i]), i + 1
        i += 1
    # A truncated quote that was never closed: it ends where the next citation begins.
    return unescape_quote(text[pos + 1 : limit].rstrip(". ")), limit


def unescape_quote(text: str) -> str:
    return text.replace('\\"', '"').replace("\\\\", "\\")


def _read_code_quote(text: str, pos: int) -> tuple[str, int] | None:
    end = text.find("`", pos + 1)
    if end == -1:
        return None
    return text[pos + 1 : end], end + 1


def _read_paren(text: str, pos: int) -> tuple[str, int]:
    """A parenthetical opening at text[pos] == '('. Nested parentheses are balanced; a quote
    inside may contain a ')' so quotes are skipped over."""
    depth, i, in_quote = 0, pos, False
    while i < len(text):
        char = text[i]
        if char == '"' and (i == 0 or text[i - 1] != "\\"):
            in_quote = not in_quote
        elif not in_quote and char == "(":
            depth += 1
        elif not in_quote and char == ")":
            depth -= 1
            if depth == 0:
                return text[pos + 1 : i], i + 1
        i += 1
    return text[pos + 1 :], len(text)


def _skip_spaces(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] == " ":
        pos += 1
    return pos


def _file_tail(citation: Citation, text: str, pos: int) -> int:
    """Read what may follow a file locator: a quote, a code-span quote or a parenthetical."""
    start = _skip_spaces(text, pos)
    if start >= len(text):
        return pos
    char = text[start]
    if char == '"':
        quote, end = _read_double_quote(text, start)
        citation.quote, citation.quote_style = quote, "double"
        return end
    if char == "`" and not FILE_SPAN.match(text, start) and not CONTINUATION_SPAN.match(text, start):
        read = _read_code_quote(text, start)
        if read:
            citation.quote, citation.quote_style = read[0], "code"
            return read[1]
    if char == "(" and not BARE_WIRE_GROUP.match(text, start):
        note, end = _read_paren(text, start)
        citation.note = note
        return end
    return pos


def _apply_url_lines(citation: Citation, text: str) -> bool:
    match = URL_LINES.search(text)
    if not match:
        return False
    citation.line_start = int(match.group(1))
    citation.line_end = int(match.group(2)) if match.group(2) else None
    return True


def _url_tail(citation: Citation, text: str, pos: int) -> int:
    """Read what may follow a URL: `(L1–L2)`, `("Heading": "quote")`, `("quote")`, a bare
    `L4–L12`, or a double quote."""
    start = _skip_spaces(text, pos)
    if start >= len(text):
        return pos
    char = text[start]
    if char == "(":
        inner, end = _read_paren(text, start)
        if not _apply_url_lines(citation, inner) or '"' in inner:
            heading_quote = re.fullmatch(r'\s*(?:"([^"]*)"|([^"]*?)):\s*"(.*)"\s*', inner, re.S)
            if heading_quote:
                citation.note = (heading_quote.group(1) or heading_quote.group(2) or "").strip()
                citation.quote, citation.quote_style = unescape_quote(heading_quote.group(3)), "double"
            elif inner.strip().startswith('"'):
                citation.quote = unescape_quote(inner.strip().strip('"'))
                citation.quote_style = "double"
            elif inner.strip().startswith("`"):
                citation.quote, citation.quote_style = inner.strip().strip("`"), "code"
            else:
                citation.note = inner.strip()
        return end
    lines = URL_LINES.match(text, start)
    if lines:
        citation.line_start = int(lines.group(1))
        citation.line_end = int(lines.group(2)) if lines.group(2) else None
        end = lines.end()
        quote_start = _skip_spaces(text, end)
        if quote_start < len(text) and text[quote_start] == '"':
            citation.quote, end = _read_double_quote(text, quote_start)
            citation.quote_style = "double"
        return end
    if char == '"':
        quote, end = _read_double_quote(text, start)
        citation.quote, citation.quote_style = quote, "double"
        return end
    return pos


def _strip_url(url: str) -> str:
    return url.rstrip(".,:")


def scan(text: str, *, field_name: str = "") -> list[Citation]:
    """Every citation in one field's text, in order of appearance."""
    found: list[Citation] = []
    last_path = ""
    pos = 0
    upcoming = _Upcoming(text)
    while pos < len(text):
        match = upcoming.first_from(pos)
        if match is None:
            break
        form, m = match
        if form == "file":
            path = m.group(1)
            kind, host = classify_path(path)
            citation = Citation(
                kind=kind,
                raw="",
                field=field_name,
                path=path,
                host=host,
                line_start=int(m.group(2)),
                line_end=int(m.group(3)) if m.group(3) else None,
            )
            end = _file_tail(citation, text, m.end())
            last_path = path
        elif form == "continuation":
            if not last_path:
                pos = m.end()
                continue
            kind, host = classify_path(last_path)
            citation = Citation(
                kind=kind,
                raw="",
                field=field_name,
                path=last_path,
                host=host,
                continuation=True,
                line_start=int(m.group(1)),
                line_end=int(m.group(2)) if m.group(2) else None,
            )
            end = m.end()
        elif form == "wire":
            citation = Citation(kind="wire", raw="", field=field_name, wire_ids=expand_wire_ids(m.group(1)))
            end = m.end()
        else:
            url = _strip_url(m.group(1) if form == "angle" else m.group(0))
            citation = Citation(kind="url", raw="", field=field_name, url=url, host=url_host(url))
            url_end = m.end() if form == "angle" else m.start() + len(url)
            end = _url_tail(citation, text, url_end)
        citation.raw = text[m.start() : end].strip()
        found.append(citation)
        pos = max(end, m.end())
    return found


FORMS = (
    ("file", FILE_SPAN),
    ("continuation", CONTINUATION_SPAN),
    ("angle", ANGLE_URL),
    ("bare", BARE_URL),
    ("wire", WIRE_GROUP),
)


class _Upcoming:
    """The next match of every citation form at or after a position, each searched again only
    once the scan has passed it: searching every form from every citation read the text to its
    end once per citation for a form that never occurs again (10,000 citations: 49 s)."""

    def __init__(self, text: str):
        self.text = text
        self.next: dict[str, re.Match[str] | None] = {}

    def first_from(self, pos: int) -> tuple[str, re.Match[str]] | None:
        best: tuple[str, re.Match[str]] | None = None
        for form, pattern in FORMS:
            m = self.next.get(form)
            if form not in self.next or (m is not None and m.start() < pos):
                m = pattern.search(self.text, pos)
                self.next[form] = m
            if m is not None and (best is None or m.start() < best[1].start()):
                best = (form, m)
        return best


def issue_refs(text: str) -> list[int]:
    """`#206`-style references, in order, without duplicates."""
    seen: list[int] = []
    for match in ISSUE_REF.finditer(text):
        number = int(match.group(1))
        if number not in seen:
            seen.append(number)
    return seen


def wire_refs(text: str) -> list[str]:
    """Wire-session ids from `wire W5, W6` groups and the bare `(W22)` form."""
    ids: list[str] = []
    for pattern in (WIRE_GROUP, BARE_WIRE_GROUP):
        for match in pattern.finditer(text):
            for wire_id in expand_wire_ids(match.group(1)):
                if wire_id not in ids:
                    ids.append(wire_id)
    return ids
