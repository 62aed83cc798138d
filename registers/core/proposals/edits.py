"""What a proposed register edit is: one place in one row, the text there now and the text the
evidence says, and the evidence. A row whose evidence is mixed gets no edit: it is listed as
needing a person, with the evidence on each side. Pure, no Django."""

from __future__ import annotations

from dataclasses import dataclass

#: The kinds of edit, each decided by one kind of evidence.
REVISION, HOST, STATUS, CITATION = "revision", "host", "status", "citation"
KINDS = (REVISION, HOST, STATUS, CITATION)
#: The places an edit is made: a summary-table cell, or a field of the row's block.
LABELS, WHERE, STATUS_CELL = "labels", "where", "status"
TABLE_CELLS = {LABELS: 2, WHERE: 3, STATUS_CELL: 4}
#: The status column's `<subject> @ <commit>`, wherever the register writes it: the status line,
#: the table header and every row's status bullet (the edit's row is "").
SUBJECT_HEADER = "subject header"


@dataclass(frozen=True)
class Evidence:
    source: str  # "MCP JSON Schema", "host lab", "probe run #12", "cited source"
    says: str
    link: str = ""


@dataclass(frozen=True)
class Edit:
    row_id: str
    kind: str
    #: A table cell (LABELS, WHERE, STATUS_CELL), "field:NAME" (a bullet of the row's block), or
    #: SUBJECT_HEADER.
    place: str
    old: str
    new: str
    evidence: tuple[Evidence, ...] = ()

    @property
    def field(self) -> str:
        return self.place.removeprefix("field:") if self.place.startswith("field:") else ""

    def as_dict(self) -> dict:
        return {
            "row": self.row_id,
            "kind": self.kind,
            "place": self.place,
            "old": self.old,
            "new": self.new,
            "evidence": [{"source": e.source, "says": e.says, "link": e.link} for e in self.evidence],
        }


@dataclass(frozen=True)
class NeedsPerson:
    row_id: str
    kind: str
    why: str
    evidence: tuple[Evidence, ...] = ()

    def as_dict(self) -> dict:
        return {
            "row": self.row_id,
            "kind": self.kind,
            "why": self.why,
            "evidence": [{"source": e.source, "says": e.says, "link": e.link} for e in self.evidence],
        }
