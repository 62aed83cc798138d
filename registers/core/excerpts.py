"""Excerpts of cited files: which lines to show around a citation (cut at verification, kept as
plain text) and their highlighted HTML (rendered when a page shows them). Pure, no Django.

Highlighting is left to the page because it cost half of a verification run (every cited file
lexed whole), while a page shows a handful of excerpts of a few lines each, and is cached.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape
from pathlib import PurePosixPath

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_for_filename
from pygments.util import ClassNotFound

CONTEXT_LINES = 3
MAX_EXCERPT_LINES = 40
#: Lines of a stored excerpt are cut to this length: a minified file must not fill the database.
MAX_LINE_CHARS = 400


def span(total: int, start: int | None, end: int | None, found: int | None = None) -> tuple[int, int, int, int] | None:
    """(first, last, focus first, focus last) line numbers of an excerpt of a `total`-line file
    cited at `start`-`end` (or found at `found`, for a moved quote), or None."""
    focus_start = found or start
    if not focus_start or focus_start > total:
        return None
    length = max((end or start or focus_start) - (start or focus_start), 0)
    focus_end = min(focus_start + length, total, focus_start + MAX_EXCERPT_LINES)
    return max(1, focus_start - CONTEXT_LINES), min(total, focus_end + CONTEXT_LINES), focus_start, focus_end


def cut(lines: list[str], start: int | None, end: int | None, found: int | None = None) -> dict:
    """The excerpt to keep: {"first", "focus": [first, last], "lines"}; empty when there is none."""
    where = span(len(lines), start, end, found)
    if where is None:
        return {}
    first, last, focus_start, focus_end = where
    return {
        "first": first,
        "focus": [focus_start, focus_end],
        "lines": [line[:MAX_LINE_CHARS] for line in lines[first - 1 : last]],
    }


def render(path: str, excerpt: dict) -> str:
    """A kept excerpt as HTML: numbered lines, the cited ones marked, highlighted by file type.
    Anything malformed in a stored excerpt renders as nothing rather than failing a page."""
    try:
        first, (focus_start, focus_end), lines = int(excerpt["first"]), excerpt["focus"], list(excerpt["lines"])
    except (KeyError, TypeError, ValueError):
        return ""
    if not lines or not all(isinstance(line, str) for line in lines):
        return ""
    highlighted = highlight("\n".join(lines) + "\n", lexer_for(path), _PLAIN).split("\n")
    last = first + len(lines) - 1
    width = len(str(last))
    out = []
    for offset, number in enumerate(range(first, last + 1)):
        body = highlighted[offset] if offset < len(highlighted) else escape(lines[offset])
        line = f'<span class="linenos">{number:>{width}}</span>{body}\n'
        out.append(f'<span class="hll">{line}</span>' if focus_start <= number <= focus_end else line)
    return f'<div class="highlight excerpt"><pre tabindex="0"><code>{"".join(out)}</code></pre></div>'


#: One formatter for every file: plain spans, no wrapper (render adds line numbers and marks).
_PLAIN = HtmlFormatter(nowrap=True)


@lru_cache(maxsize=64)
def _lexer_for_suffix(suffix: str):
    # stripnl off: an excerpt's leading blank lines must keep the line numbers right.
    try:
        return get_lexer_for_filename(f"file{suffix}", stripnl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False)


def lexer_for(path: str):
    """The lexer for a file type, looked up once per suffix (the lookup scans every lexer)."""
    name = path.removesuffix(".mdx") + (".md" if path.endswith(".mdx") else "")
    return _lexer_for_suffix(PurePosixPath(name).suffix.lower())
