"""RegisterDoc's way back: a register (or several) written in the register format, so that
reading the text gives the same rows, cells, fields, states and citations. Pure, no Django."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .grammar import FRONT_MATTER_KEYS, REGISTER_SEPARATOR, STATUS_LINE_TEXT, escape_cell, table_header


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
    """Several registers in one text, separated so `split_registers` gives each back."""
    for index, (head, rows) in enumerate(registers):
        if index:
            yield REGISTER_SEPARATOR
        yield from register_text(head, rows)


def split_registers(text: str) -> list[str]:
    return [part.strip("\n") + "\n" for part in text.split(REGISTER_SEPARATOR)]
