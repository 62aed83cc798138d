"""An edit made in a register's own text: the summary-table cell of the row, or a phrase in a field
of the row's block, and nothing else (every other byte stays as it was). Pure, no Django."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from registers.core.format.grammar import FIELD_LINE, SECTION_HEADING, escape_cell
from registers.core.proposals.edits import SUBJECT_HEADER, TABLE_CELLS, Edit

UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


class EditConflict(ValueError):
    """The text no longer says what the edit replaces (the register changed since)."""


def _cell_spans(line: str) -> list[tuple[int, int]]:
    """(start, end) of each cell's text in a table line, its padding excluded."""
    pipes = [m.start() for m in UNESCAPED_PIPE.finditer(line)]
    spans = []
    for left, right in itertools.pairwise(pipes):
        start, end = left + 1, right
        while start < end and line[start] == " ":
            start += 1
        while end > start and line[end - 1] == " ":
            end -= 1
        spans.append((start, end))
    return spans


def _unescape(text: str) -> str:
    return text.replace("\\|", "|")


def _table_line(lines: list[str], row_id: str) -> int:
    for index, line in enumerate(lines):
        if line.startswith("|"):
            spans = _cell_spans(line)
            if spans and line[spans[0][0] : spans[0][1]] == row_id:
                return index
    raise EditConflict(f"{row_id}: no summary-table line")


def _edit_cell(lines: list[str], edit: Edit) -> None:
    index = _table_line(lines, edit.row_id)
    line = lines[index]
    spans = _cell_spans(line)
    start, end = spans[TABLE_CELLS[edit.place]]
    if _unescape(line[start:end]) != edit.old:
        raise EditConflict(
            f"{edit.row_id}: the {edit.place} cell says {_unescape(line[start:end])!r}, not {edit.old!r}"
        )
    lines[index] = line[:start] + escape_cell(edit.new) + line[end:]


def _field_lines(lines: list[str], row_id: str, name: str) -> range:
    """The lines of a field of the row's block (its bullet and continuation lines)."""
    section = next(
        (i for i, line in enumerate(lines) if (m := SECTION_HEADING.match(line)) and m["id"] == row_id), None
    )
    if section is None:
        raise EditConflict(f"{row_id}: no block")
    for index in range(section + 1, len(lines)):
        if SECTION_HEADING.match(lines[index]):
            break
        found = FIELD_LINE.match(lines[index])
        if found and found["name"] == name:
            end = index + 1
            while end < len(lines) and lines[end].startswith("  ") and lines[end].strip():
                end += 1
            return range(index, end)
    raise EditConflict(f"{row_id}: no {name} field")


def _edit_field(lines: list[str], edits: list[Edit]) -> None:
    """Every edit of one field at once, each phrase a whole one (not the start of a longer path
    or number): `tools.mdx:314` → `:315` beside `tools.mdx:315` → `:316` swaps neither twice."""
    first = edits[0]
    where = _field_lines(lines, first.row_id, first.field)
    wanted = {edit.old: edit.new for edit in edits}
    olds = "|".join(map(re.escape, sorted(wanted, key=len, reverse=True)))
    phrase = re.compile(f"(?<![\\w/.:-])({olds})(?![\\w:-])")
    for old in wanted:
        count = sum(1 for i in where for m in phrase.finditer(lines[i]) if m.group(1) == old)
        if count != 1:
            raise EditConflict(f"{first.row_id}: the {first.field} field does not hold {old!r} exactly once")
    for index in where:
        lines[index] = phrase.sub(lambda m: wanted[m.group(1)], lines[index])


def _edit_header(lines: list[str], edit: Edit) -> None:
    """`<subject> @ <commit>` where the register writes it: the status line, the table header and
    every status bullet (`- **mcpx @ 05c78b2.**`), and nowhere else (prose that names the commit
    keeps it: it said so of that commit)."""
    said = re.compile(rf"(\*\*|\| ){re.escape(edit.old)}(\.?\*\*| \|)")
    count = 0
    for index, line in enumerate(lines):
        if line.startswith(("Status column:", "| ID |", "- **")):
            lines[index], found = said.subn(lambda m: f"{m.group(1)}{edit.new}{m.group(2)}", line)
            count += found
    if not count:
        raise EditConflict(f"the register does not say {edit.old!r}")


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """The text with every edit made (the edits of one field together); EditConflict names the
    first that no longer fits."""
    lines = text.split("\n")
    fields: dict[tuple[str, str], list[Edit]] = {}
    for edit in edits:
        if edit.place == SUBJECT_HEADER:
            _edit_header(lines, edit)
        elif edit.place in TABLE_CELLS:
            _edit_cell(lines, edit)
        else:
            fields.setdefault((edit.row_id, edit.place), []).append(edit)
    for grouped in fields.values():
        _edit_field(lines, grouped)
    return "\n".join(lines)
