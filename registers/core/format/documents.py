"""What reading a register gives: the register and its rows as plain dataclasses, and the error
a register that cannot be read raises. Pure, no Django."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime

from registers.core import citations as citation_grammar
from registers.core.hostnotes import HostNote
from registers.core.support import Support


class RegisterParseError(Exception):
    """A register that cannot be read: names the file, the 1-based line and what was expected."""

    def __init__(self, path: str, line: int, message: str):
        self.path, self.line, self.message = path, line, message
        super().__init__(f"{path}:{line}: {message}")


@dataclass
class ParseWarning:
    line: int
    message: str


@dataclass
class Field:
    key: str
    name: str
    text: str
    line: int


@dataclass
class Label:
    text: str
    kind: str
    revision: str | None = None
    verb: str | None = None
    host: str | None = None


@dataclass
class RowDoc:
    row_id: str
    order: int
    line: int
    title: str = ""
    difference: str = ""
    labels_cell: str = ""
    where_cell: str = ""
    status_cell: str = ""
    value_cell: str = ""
    effort_cell: str = ""
    risk_cell: str = ""
    status_verdict: str = ""
    status_broken: bool = False
    status_note: str = ""
    value_sign: str = ""
    value_level: str = ""
    effort: str = ""
    risk: str = ""
    fields: list[Field] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    support: list[Support] = field(default_factory=list)
    introduced_in: str = ""
    removed_in: str = ""
    deprecated_in: str = ""
    host_notes: list[HostNote] = field(default_factory=list)
    citations: list[citation_grammar.Citation] = field(default_factory=list)
    issue_refs: list[int] = field(default_factory=list)
    wire_refs: list[str] = field(default_factory=list)
    section_line: int | None = None
    has_table_row: bool = True
    source_text: str = ""

    @property
    def content_hash(self) -> str:
        return hashlib.sha256(self.source_text.encode()).hexdigest()


@dataclass
class RegisterDoc:
    path: str
    slug: str
    title: str
    created: datetime
    last_updated: datetime
    increment: int
    status: str
    tags: list[str]
    description: str
    intro: str
    subject: str
    subject_commit: str
    rows: list[RowDoc]
    warnings: list[ParseWarning]
    front_matter: dict[str, str]
    content_hash: str
    #: The text it was read from, as it was: proposed edits are a patch of it.
    text: str = field(default="", repr=False)

    @property
    def prefix(self) -> str:
        prefixes = sorted({row.row_id.rsplit("-", 1)[0] for row in self.rows})
        return ", ".join(prefixes)
