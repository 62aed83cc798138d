"""Does a cited line still say what the register quotes? Pure, no Django, no git.

Registers quote source lines in several ways the file does not: backticks dropped or added,
`\\"` escapes, curly instead of straight quotes, quotes wrapped across lines, Markdown links whose
relative target was expanded to an absolute URL or left out, table rows with their padding, and
quotes cut anywhere, inside a link's text or target or after a table's first cell. Both sides are
reduced to the same plain words before comparing: link text kept, link targets and brackets
dropped, table pipes and padding collapsed, emphasis and code marks dropped. The quote only has
to appear inside the cited lines, starting on one of them; a quote whose words are not there is
still drifted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from language.vocabulary import CITATION_VERDICTS, FAILING_CITATIONS, CitationVerdict

EXACT, MOVED, DRIFTED, FILE_MISSING, NO_QUOTE, NO_SOURCE = CitationVerdict
VERDICTS = CITATION_VERDICTS
FAILING = FAILING_CITATIONS

MARKDOWN_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)")
#: A quote cut inside a link's target: `[text](/spec/20` at the end.
CUT_TARGET = re.compile(r"\]\([^)\s]*$")
#: Underscore emphasis (`_word_`), not the underscores inside identifiers (`is_error`).
UNDERSCORE_EMPHASIS = re.compile(r"(?<!\w)_+|_+(?!\w)")
DROPPED = str.maketrans("", "", "[]`*")
CURLY = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'"})
ELLIPSIS = re.compile(r"…|\.\.\.")
WHITESPACE = re.compile(r"\s+")
# How far past the cited range a wrapped quote may run on.
WRAP_LINES = 4


@dataclass(frozen=True)
class Located:
    verdict: str
    line: int | None = None
    detail: str = ""


def normalise(text: str) -> str:
    text = text.translate(CURLY).replace('\\"', '"')
    text = MARKDOWN_LINK.sub(r"\1", text)
    text = CUT_TARGET.sub("", text)
    text = UNDERSCORE_EMPHASIS.sub("", text.replace("|", " ").translate(DROPPED))
    return WHITESPACE.sub(" ", text).strip()


class SourceText(list):
    """A file's lines that remember their normalised forms: many citations of one file then
    normalise it once (a plain list of lines works too, at the cost of redoing it)."""

    def __init__(self, lines):
        super().__init__(lines)
        self.normalised: dict[int, str] = {}
        self.whole: tuple[str, list[tuple[int, int]]] | None = None


def _normal_line(lines: list[str], number: int) -> str:
    cache = getattr(lines, "normalised", None)
    if cache is None:
        return normalise(lines[number - 1])
    if number not in cache:
        cache[number] = normalise(lines[number - 1])
    return cache[number]


def _joined(lines: list[str], first: int, last: int) -> tuple[str, list[tuple[int, int]]]:
    """Normalised text of lines[first..last] (1-based, inclusive) and (offset, line) starts."""
    whole = first == 1 and last == len(lines) and isinstance(lines, SourceText)
    if whole and lines.whole is not None:
        return lines.whole
    parts: list[str] = []
    starts: list[tuple[int, int]] = []
    offset = 0
    for number in range(first, last + 1):
        text = _normal_line(lines, number)
        starts.append((offset, number))
        parts.append(text)
        offset += len(text) + 1
    joined = " ".join(parts), starts
    if whole:
        lines.whole = joined
    return joined


def _line_at(starts: list[tuple[int, int]], position: int) -> int:
    line = starts[0][1]
    for offset, number in starts:
        if offset > position:
            break
        line = number
    return line


def _find_all(haystack: str, pieces: list[str]) -> list[int]:
    """Start positions where every piece occurs in order, the first piece starting there."""
    found: list[int] = []
    start = haystack.find(pieces[0])
    while start != -1:
        cursor = start + len(pieces[0])
        for piece in pieces[1:]:
            cursor = haystack.find(piece, cursor)
            if cursor == -1:
                break
            cursor += len(piece)
        else:
            found.append(start)
        start = haystack.find(pieces[0], start + 1)
    return found


def locate(quote: str, lines: list[str], line_start: int | None, line_end: int | None = None) -> Located:
    """The verdict for a citation of `lines` (the file, split into lines) at line_start[-line_end]."""
    total = len(lines)
    first = line_start or 0
    last = max(line_end or first, first)
    pieces = [piece.strip() for piece in ELLIPSIS.split(normalise(quote)) if piece.strip()]
    if not pieces:
        if first < 1 or last > total:
            return Located(DRIFTED, None, f"line {last} is past the end of the file ({total} lines)")
        return Located(NO_QUOTE, first, "no quote to compare; the cited lines exist")
    if total == 0:
        return Located(DRIFTED, None, "the file is empty")
    if 1 <= first <= total:
        window_end = min(total, last + WRAP_LINES)
        text, starts = _joined(lines, first, window_end)
        for position in _find_all(text, pieces):
            if _line_at(starts, position) <= last:
                return Located(EXACT, first, "")
    text, starts = _joined(lines, 1, total)
    positions = _find_all(text, pieces)
    if not positions:
        return Located(DRIFTED, None, "the quote is not in the file")
    candidates = sorted({_line_at(starts, position) for position in positions}, key=lambda n: (abs(n - first), n))
    moved_to = candidates[0]
    others = f"; also at {', '.join(map(str, candidates[1:4]))}" if len(candidates) > 1 else ""
    return Located(MOVED, moved_to, f"the quote is at line {moved_to} ({moved_to - first:+d}){others}")
