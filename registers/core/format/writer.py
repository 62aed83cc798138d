"""RegisterDoc's way back: a register (or several) written in the register format, so that
reading the text gives the same rows, cells, fields, states and citations. Pure, no Django."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from registers.core.format.grammar import (
    FRONT_MATTER_KEYS,
    REGISTER_SEPARATOR,
    SEPARATOR_LINE,
    STATUS_LINE_TEXT,
    escape_cell,
    table_header,
)


@dataclass(frozen=True)
class RegisterHead:
    """What a register says before its rows. Timestamps as written (ISO 8601 with an offset)."""

    title: str
    subject: str
    subject_commit: str
    created: str
    last_updated: str
    increment: int
    status: str
    tags: tuple[str, ...]
    description: str
    intro: str = ""
    slug: str = ""


@dataclass(frozen=True)
class RegisterRow:
    """One row as a register writes it: the eight summary-table cells and the section's fields."""

    row_id: str
    title: str
    cells: tuple[str, str, str, str, str, str, str]  # difference, labels … risk
    fields: tuple[tuple[str, str], ...]  # (bullet name, text)


def register_text(head: RegisterHead, rows: Iterable[RegisterRow]) -> Iterator[str]:
    """One register document, in chunks."""
    rows = list(rows)
    values = {
        "created": head.created,
        "last-updated": head.last_updated,
        "increment": str(head.increment),
        "status": head.status,
        "tags": ", ".join(head.tags),
        "description": head.description,
    }
    yield f"# {head.title}\n\n```\n"
    for key in FRONT_MATTER_KEYS:
        yield f"{key + ':':<14}{values[key]}\n"
    yield "```\n\n"
    if head.intro:
        yield head.intro.strip() + "\n\n"
    yield STATUS_LINE_TEXT.format(subject=head.subject, commit=head.subject_commit) + "\n\n"
    header = table_header(head.subject, head.subject_commit)
    yield "| " + " | ".join(header) + " |\n"
    yield "| " + " | ".join("---" for _ in header) + " |\n"
    for row in rows:
        yield "| " + " | ".join(escape_cell(cell) for cell in (row.row_id, *row.cells)) + " |\n"
    for row in rows:
        yield f"\n## {row.row_id} {row.title}\n\n"
        for name, text in row.fields:
            yield f"- **{name}.** {text}\n"


def registers_text(registers: Iterable[tuple[RegisterHead, list[RegisterRow]]]) -> Iterator[str]:
    """Several registers in one text, separated so `register_parts` gives each back with its slug."""
    before = None
    for head, rows in registers:
        if before is not None:
            yield REGISTER_SEPARATOR.format(before=before.slug or "register", after=head.slug or "register")
        yield from register_text(head, rows)
        before = head


def register_parts(text: str) -> list[tuple[str | None, str]]:
    """(slug, text) of each register in a text that holds several; a part keeps blank lines in place
    of the lines before it, so a line number in it is the line number in the whole file. The slug
    is None where the separator does not name it (exports written before it did)."""
    separators = list(SEPARATOR_LINE.finditer(text))
    if not separators:
        return [(None, text)]
    bounds = [0, *(m for s in separators for m in (s.start(), s.end())), len(text)]
    slugs = [separators[0].group("before"), *(s.group("after") for s in separators)]
    return [
        _part(text, start, end, slug)
        for (start, end), slug in zip(zip(bounds[::2], bounds[1::2], strict=True), slugs, strict=True)
    ]


def _part(text: str, start: int, end: int, slug: str | None) -> tuple[str | None, str]:
    body = text[start:end]
    lead = len(body) - len(body.lstrip("\n"))
    return slug, "\n" * text.count("\n", 0, start + lead) + body.strip("\n") + "\n"


def split_registers(text: str) -> list[str]:
    return [part.lstrip("\n") for _, part in register_parts(text)]
