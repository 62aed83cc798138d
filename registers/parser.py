"""Register Markdown -> RegisterDoc. Pure, no Django.

The format (the legend is registers/data/README.md): an H1 title, a fenced front-matter block,
intro paragraphs, the status line, a summary table with one row per ID, then one `## <ID> …`
section per row with `- **Name.** text` bullet fields (continuations indented by two spaces).

Malformed structure raises RegisterParseError naming the file, the line and what was expected.
Oddities a reader can live with (a table row without a section, a duplicate ID, …) are kept as
warnings on the register.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime

from markdown_it import MarkdownIt

from . import citations as citation_grammar
from .hostnotes import HostNote, build_host_notes
from .support import Support, host_segments, milestones, revision_support
from .vocabulary import EFFORT_SIZES, FIXED_LABELS, REVISION_VERBS, REVISIONS, RISK_LEVELS, STATUS_VERDICTS

TABLE_HEADER_FIXED = ("ID", "Difference", "Labels", "Where it exists")
TABLE_HEADER_TAIL = ("Value", "Effort", "Risk")
FRONT_MATTER_KEYS = ("created", "last-updated", "increment", "status", "tags", "description")

H1 = re.compile(r"^# (?P<title>\S.*)$")
FENCE = "```"
#: The version of the rules that turn a register's text into rows (cells, states, citations).
#: Bump it when a rule changes what a row reads as: the next load re-reads every row, even where
#: the text did not change (and records no new row version for them).
READING_RULES = 2
FRONT_MATTER_LINE = re.compile(r"^(?P<key>[a-z-]+):\s+(?P<value>.*)$")
STATUS_LINE = re.compile(r"^Status column: \*\*(?P<subject>[^*@]+?) @ (?P<commit>[0-9a-f]{7,40})\*\*\.")
ROW_ID = re.compile(r"^[A-Z]{2,6}-\d{2,3}$")
SECTION_HEADING = re.compile(r"^## (?P<id>\S+) (?P<title>.+)$")
FIELD_LINE = re.compile(r"^- \*\*(?P<name>.+?)\.\*\*(?: (?P<text>.*))?$")
CONTINUATION = re.compile(r"^  (?P<text>\S.*)$")
CODE_SPAN_LABEL = re.compile(r"`([^`]+)`")
REVISION_LABEL = re.compile(r"^(?P<rev>\d{4}-\d{2}-\d{2}) (?P<verb>has|removes|deprecates)$")
STATUS_CELL = re.compile(r"^(?P<verdict>✓|✗|partial|n/a|acc\.)(?P<broken> broken)?(?: — (?P<note>.*))?$")
VALUE_CELL = re.compile(r"^(?P<sign>[+−-]) (?P<level>\S+)$")

STANDARD_FIELDS = {
    "What": "what",
    "Where": "where",
    "Effort": "effort",
    "Risk": "risk",
    "Detail": "detail",
    "Sources": "sources",
}
REQUIRED_FIELDS = ("what", "where", "status", "value", "effort", "risk", "detail", "sources")

_TABLE_MD = MarkdownIt("commonmark").enable("table")


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

    def field_text(self, key: str) -> str:
        return next((f.text for f in self.fields if f.key == key), "")

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

    @property
    def prefix(self) -> str:
        prefixes = sorted({row.row_id.rsplit("-", 1)[0] for row in self.rows})
        return ", ".join(prefixes)


def looks_like_register(text: str) -> bool:
    """True for register documents; False for essays and matrices that share the folder."""
    has_status = any(STATUS_LINE.match(line) for line in text.splitlines())
    has_table = any(line.startswith("| ID |") for line in text.splitlines())
    return has_status and has_table


def slug_from_path(path: str) -> str:
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return name[:-3] if name.endswith(".md") else name


def parse_register(
    text: str, path: str = "<string>", *, slug: str | None = None, require_fields: bool = True
) -> RegisterDoc:
    """Parse one register. A duplicate row ID is always an error; so is a row without one of the
    eight standard fields, unless `require_fields` is off (then it is a warning): every row of the
    real corpus has all eight, so a missing one is a broken edit, not a style."""
    reader = _Reader(text, path)
    title = reader.title()
    front = reader.front_matter()
    intro = reader.intro()
    subject, commit = reader.status_line()
    table_rows = reader.table(subject, commit)
    sections = reader.sections(subject)
    try:
        rows = _merge(table_rows, sections, reader.warnings, subject, require_fields=require_fields)
    except RegisterParseError as error:
        raise RegisterParseError(path, error.line, error.message) from None
    return RegisterDoc(
        path=path,
        slug=slug or slug_from_path(path),
        title=title,
        created=front["created"],
        last_updated=front["last-updated"],
        increment=front["increment"],
        status=front["status"],
        tags=front["tags"],
        description=front["description"],
        intro=intro,
        subject=subject,
        subject_commit=commit,
        rows=rows,
        warnings=reader.warnings,
        front_matter=front["raw"],
        content_hash=hashlib.sha256(text.encode()).hexdigest(),
    )


class _Reader:
    """Walks the lines of one register; each method consumes one block of the skeleton."""

    def __init__(self, text: str, path: str):
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        self.lines = text.split("\n")
        self.path = path
        self.pos = 0
        self.warnings: list[ParseWarning] = []

    def error(self, line_index: int, message: str) -> RegisterParseError:
        last_line = len(self.lines) - 1 if self.lines and self.lines[-1] == "" else len(self.lines)
        if line_index >= last_line:
            return RegisterParseError(self.path, max(last_line, 1), f"{message} (reached the end of the file)")
        return RegisterParseError(self.path, line_index + 1, message)

    def skip_blank(self) -> None:
        while self.pos < len(self.lines) and not self.lines[self.pos].strip():
            self.pos += 1

    def current(self) -> str:
        return self.lines[self.pos] if self.pos < len(self.lines) else ""

    def title(self) -> str:
        self.skip_blank()
        match = H1.match(self.current())
        if not match:
            raise self.error(self.pos, "expected the register title as an H1 line `# <title>`")
        self.pos += 1
        return match.group("title").strip()

    def front_matter(self) -> dict:
        self.skip_blank()
        if self.current().strip() != FENCE:
            raise self.error(self.pos, "expected the front-matter block opened by a bare ``` line")
        opened = self.pos
        self.pos += 1
        values: dict[str, str] = {}
        key_lines: dict[str, int] = {}
        last_key = None
        while True:
            if self.pos >= len(self.lines):
                raise self.error(opened, "front-matter block is never closed by a ``` line")
            line = self.current()
            self.pos += 1
            if line.strip() == FENCE:
                break
            match = FRONT_MATTER_LINE.match(line)
            if match:
                last_key = match.group("key")
                values[last_key] = match.group("value").strip()
                key_lines[last_key] = self.pos - 1
            elif line.strip() and last_key:
                values[last_key] = f"{values[last_key]} {line.strip()}"
            elif line.strip():
                raise self.error(self.pos - 1, "expected `key: value` in the front matter")
        for key in FRONT_MATTER_KEYS:
            if key not in values:
                raise self.error(opened, f"front matter lacks the `{key}:` key")
        return {
            "created": self._timestamp(values["created"], key_lines["created"], "created"),
            "last-updated": self._timestamp(values["last-updated"], key_lines["last-updated"], "last-updated"),
            "increment": self._integer(values["increment"], key_lines["increment"]),
            "status": values["status"],
            "tags": [tag.strip() for tag in values["tags"].split(",") if tag.strip()],
            "description": values["description"],
            "raw": values,
        }

    def _timestamp(self, value: str, line: int, key: str) -> datetime:
        try:
            stamp = datetime.fromisoformat(value)
        except ValueError:
            raise self.error(line, f"`{key}:` expected an ISO-8601 timestamp, got {value!r}") from None
        if stamp.tzinfo is None:
            raise self.error(line, f"`{key}:` expected a timestamp with a UTC offset, got {value!r}")
        return stamp

    def _integer(self, value: str, line: int) -> int:
        if not value.isdigit():
            raise self.error(line, f"`increment:` expected a whole number, got {value!r}")
        return int(value)

    def intro(self) -> str:
        self.skip_blank()
        start = self.pos
        while self.pos < len(self.lines) and not STATUS_LINE.match(self.current()):
            line = self.current()
            if line.startswith("| ") or line.startswith("## "):
                raise self.error(
                    self.pos, "expected the status line `Status column: **<subject> @ <commit>**.` before the table"
                )
            self.pos += 1
        if self.pos >= len(self.lines):
            raise self.error(start, "expected the status line `Status column: **<subject> @ <commit>**.`")
        return "\n".join(self.lines[start : self.pos]).strip()

    def status_line(self) -> tuple[str, str]:
        match = STATUS_LINE.match(self.current())
        assert match is not None
        self.pos += 1
        return match.group("subject").strip(), match.group("commit")

    def table(self, subject: str, commit: str) -> list[dict]:
        self.skip_blank()
        start = self.pos
        while self.pos < len(self.lines) and self.current().startswith("|"):
            self.pos += 1
        block = self.lines[start : self.pos]
        if len(block) < 2:
            raise self.error(start, "expected the summary table (`| ID | Difference | … |`) after the status line")
        expected = (*TABLE_HEADER_FIXED, f"{subject} @ {commit}", *TABLE_HEADER_TAIL)
        header = _escaped_split(block[0])
        if tuple(header) != expected:
            raise self.error(start, "expected the table header `| " + " | ".join(expected) + " |`")
        for offset, line in enumerate(block[2:], start=2):
            cells = _escaped_split(line)
            if len(cells) != len(expected):
                raise self.error(
                    start + offset,
                    f"expected {len(expected)} table cells (escape a literal pipe as \\|), found {len(cells)}",
                )
        return _table_rows(block, start)

    def sections(self, subject: str) -> list[dict]:
        self.skip_blank()
        sections: list[dict] = []
        while self.pos < len(self.lines):
            line = self.current()
            if not line.strip():
                self.pos += 1
                continue
            match = SECTION_HEADING.match(line)
            if not match or not ROW_ID.match(match.group("id")):
                raise self.error(self.pos, "expected a row section heading `## <ID> <title>` (ID like CT-01)")
            section = {"id": match.group("id"), "title": match.group("title").strip(), "line": self.pos + 1}
            start = self.pos
            self.pos += 1
            section["fields"] = self._fields(subject)
            section["source"] = "\n".join(self.lines[start : self.pos]).rstrip()
            sections.append(section)
        return sections

    def _fields(self, subject: str) -> list[Field]:
        fields: list[Field] = []
        while self.pos < len(self.lines):
            line = self.current()
            if line.startswith("## "):
                break
            if not line.strip():
                self.pos += 1
                continue
            match = FIELD_LINE.match(line)
            if match:
                name = match.group("name")
                fields.append(Field(_field_key(name, subject), name, (match.group("text") or "").strip(), self.pos + 1))
            elif fields and CONTINUATION.match(line):
                fields[-1].text = f"{fields[-1].text} {line.strip()}".strip()
            else:
                raise self.error(
                    self.pos,
                    "expected a bullet field `- **<Name>.** <text>` or a continuation line indented by two spaces",
                )
            self.pos += 1
        return fields


def _escaped_split(line: str) -> list[str]:
    """Cells of a table line, counting only unescaped pipes (used to check the cell count)."""
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", body)]


def _table_rows(block: list[str], start: int) -> list[dict]:
    """Parse the table with markdown-it (code spans and escaped pipes handled by the GFM rules)."""
    tokens = _TABLE_MD.parse("\n".join(block) + "\n")
    rows: list[dict] = []
    current: list[str] | None = None
    line = 0
    in_body = False
    for token in tokens:
        if token.type == "tbody_open":
            in_body = True
        elif token.type == "tr_open" and in_body:
            current = []
            line = start + (token.map[0] if token.map else 0) + 1
        elif token.type == "inline" and current is not None:
            current.append(token.content.strip())
        elif token.type == "tr_close" and current is not None:
            rows.append({"cells": current, "line": line, "raw": block[line - start - 1]})
            current = None
    return rows


def _field_key(name: str, subject: str) -> str:
    if name in STANDARD_FIELDS:
        return STANDARD_FIELDS[name]
    if re.fullmatch(rf"{re.escape(subject)} @ [0-9a-f]{{7,40}}", name):
        return "status"
    if name.startswith("Value to "):
        return "value"
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def classify_label(text: str, subject: str) -> Label:
    match = REVISION_LABEL.match(text)
    if match and match.group("rev") in REVISIONS and match.group("verb") in REVISION_VERBS:
        return Label(text, "revision", revision=match.group("rev"), verb=match.group("verb"))
    generic = text.replace(subject, "mcpx") if subject else text
    if generic in FIXED_LABELS:
        kind, host = FIXED_LABELS[generic]
        return Label(text, kind, host=host)
    return Label(text, "other")


def _merge(
    table_rows: list[dict],
    sections: list[dict],
    warnings: list[ParseWarning],
    subject: str,
    *,
    require_fields: bool = True,
) -> list[RowDoc]:
    """Pair table rows with sections by ID (titles differ in many rows, so never by text). Two
    rows or two sections with one ID would make one shadow the other: that is an error."""
    by_id: dict[str, dict] = {}
    for section in sections:
        if section["id"] in by_id:
            first = by_id[section["id"]]["line"]
            raise RegisterParseError(
                "", section["line"], f"duplicate section `## {section['id']}` (the first is on line {first})"
            )
        by_id[section["id"]] = section
    rows: list[RowDoc] = []
    seen: dict[str, int] = {}
    for table_row in table_rows:
        row_id = table_row["cells"][0].strip("`")
        if not ROW_ID.match(row_id):
            raise RegisterParseError(
                "", table_row["line"], f"expected a row ID like CT-01 in the first cell, got {row_id!r}"
            )
        if row_id in seen:
            raise RegisterParseError(
                "",
                table_row["line"],
                f"duplicate row ID {row_id} in the summary table (the first is on line {seen[row_id]})",
            )
        seen[row_id] = table_row["line"]
        section = by_id.get(row_id)
        if section is None:
            warnings.append(ParseWarning(table_row["line"], f"table row {row_id} has no `## {row_id}` section"))
        rows.append(_build_row(row_id, len(rows) + 1, table_row, section, warnings, subject, require_fields))
    for section in sections:
        if section["id"] not in seen and by_id.get(section["id"]) is section:
            warnings.append(ParseWarning(section["line"], f"section {section['id']} has no row in the summary table"))
            seen[section["id"]] = section["line"]
            rows.append(_build_row(section["id"], len(rows) + 1, None, section, warnings, subject, require_fields))
    table_order = [r["cells"][0] for r in table_rows]
    section_order = [s["id"] for s in sections if s["id"] in table_order]
    if section_order != [i for i in table_order if i in section_order]:
        warnings.append(
            ParseWarning(sections[0]["line"] if sections else 0, "sections are not in the order of the summary table")
        )
    return rows


def _build_row(
    row_id: str,
    order: int,
    table_row: dict | None,
    section: dict | None,
    warnings: list[ParseWarning],
    subject: str,
    require_fields: bool = True,
) -> RowDoc:
    row = RowDoc(row_id=row_id, order=order, line=(table_row or section or {}).get("line", 0))
    if table_row is not None:
        _apply_cells(row, table_row, warnings, subject)
    else:
        row.has_table_row = False
    if section is not None:
        row.title = section["title"]
        row.section_line = section["line"]
        row.fields = section["fields"]
        present = {f.key for f in row.fields}
        for key in REQUIRED_FIELDS:
            if key not in present:
                message = f"{row_id} has no `- **{_field_label(key, subject)}.**` field"
                if require_fields:
                    raise RegisterParseError("", section["line"], message + " (every row needs all eight)")
                warnings.append(ParseWarning(section["line"], message))
    row.title = row.title or row.difference
    row.source_text = "\n".join(
        part for part in ((table_row or {}).get("raw", ""), (section or {}).get("source", "")) if part
    )
    _derive(row, subject)
    return row


def _field_label(key: str, subject: str) -> str:
    if key == "status":
        return f"{subject or 'subject'} @ <commit>"
    return key.capitalize()


def _apply_cells(row: RowDoc, table_row: dict, warnings: list[ParseWarning], subject: str) -> None:
    cells = table_row["cells"]
    line = table_row["line"]
    (
        _,
        row.difference,
        row.labels_cell,
        row.where_cell,
        row.status_cell,
        row.value_cell,
        row.effort_cell,
        row.risk_cell,
    ) = cells
    status = STATUS_CELL.match(row.status_cell)
    if not status:
        raise RegisterParseError(
            "",
            line,
            f"{row.row_id}: expected the status cell as `✓|✗|partial|n/a|acc. — <note>`, got {row.status_cell!r}",
        )
    row.status_verdict = STATUS_VERDICTS[status.group("verdict")]
    row.status_broken = bool(status.group("broken"))
    row.status_note = status.group("note") or ""
    value = VALUE_CELL.match(row.value_cell)
    if not value:
        raise RegisterParseError(
            "",
            line,
            f"{row.row_id}: expected the value cell as `+ low|med|high` or `− <reason>`, got {row.value_cell!r}",
        )
    row.value_sign = "+" if value.group("sign") == "+" else "−"
    row.value_level = value.group("level")
    if row.value_sign == "+" and row.value_level not in ("low", "med", "high"):
        raise RegisterParseError(
            "", line, f"{row.row_id}: expected `+ low`, `+ med` or `+ high`, got {row.value_cell!r}"
        )
    if row.effort_cell not in EFFORT_SIZES:
        raise RegisterParseError("", line, f"{row.row_id}: expected effort S, M, L or XL, got {row.effort_cell!r}")
    if row.risk_cell not in RISK_LEVELS:
        raise RegisterParseError("", line, f"{row.row_id}: expected risk low, med or high, got {row.risk_cell!r}")
    row.effort, row.risk = row.effort_cell, row.risk_cell
    label_texts = CODE_SPAN_LABEL.findall(row.labels_cell)
    leftover = CODE_SPAN_LABEL.sub("", row.labels_cell).strip()
    if leftover:
        warnings.append(ParseWarning(line, f"{row.row_id}: text outside code spans in the Labels cell: {leftover!r}"))
    if not label_texts:
        warnings.append(ParseWarning(line, f"{row.row_id} has no labels"))
    unique = list(dict.fromkeys(label_texts))
    row.labels = [classify_label(text, subject) for text in unique]


def _derive(row: RowDoc, subject: str) -> None:
    """Everything computed from cells and fields: support, milestones, citations, host notes, refs."""
    events = [(label.revision, label.verb) for label in row.labels if label.kind == "revision"]
    row.support = revision_support(row.where_cell, events)
    for key, value in milestones(row.support, events).items():
        setattr(row, key, value)
    for f in row.fields:
        row.citations.extend(citation_grammar.scan(f.text, field_name=f.key))
    ref_text = " ".join([row.status_cell, *(f.text for f in row.fields)])
    row.issue_refs = citation_grammar.issue_refs(ref_text)
    row.wire_refs = citation_grammar.wire_refs(ref_text)
    row.host_notes = build_host_notes(
        subject_name=subject,
        fields=[(f.key, f.text) for f in row.fields],
        label_hosts=[label.host for label in row.labels if label.kind == "host" and label.host],
        subject_has_others_dont=any(
            label.text.replace(subject, "mcpx") == "mcpx has, others don't" for label in row.labels
        ),
        where_segments=host_segments(row.where_cell),
        status_verdict=row.status_verdict,
        citations=row.citations,
    )
