"""Register Markdown → RegisterDoc: the document's skeleton, block by block. Pure, no Django.

The format: an H1 title, a fenced front-matter block, intro paragraphs, the status line, a
summary table with one row per ID, then one `## <ID> …` section per row with `- **Name.** text`
bullet fields (continuations indented by two spaces). Malformed structure raises
RegisterParseError naming the file, the line and what was expected. Oddities a reader can live
with (a table row without a section, …) are kept as warnings on the register; what each row's
cells and fields mean is read in `rows.py`.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime

from markdown_it import MarkdownIt

from registers.core.format.documents import Field, ParseWarning, RegisterDoc, RegisterParseError
from registers.core.format.grammar import (
    CONTINUATION,
    FENCE,
    FIELD_LINE,
    FRONT_MATTER_KEYS,
    FRONT_MATTER_LINE,
    H1,
    ROW_ID,
    SECTION_HEADING,
    STANDARD_FIELDS,
    STATUS_LINE,
    table_header,
)
from registers.core.format.rows import merge, non_ascii_note

_TABLE_MD = MarkdownIt("commonmark").enable("table")
SEPARATOR_CELL = re.compile(r"^\s*:?-+:?\s*$")


def looks_like_register(text: str) -> bool:
    """True for register documents; False for essays and matrices that share the folder."""
    has_status = any(STATUS_LINE.match(line) for line in text.splitlines())
    has_table = any(line.startswith("| ID |") for line in text.splitlines())
    return has_status and has_table


def slug_from_path(path: str) -> str:
    """`dir/tools.md` → tools; `dir/export.md#tools`, one register of a file that holds several → tools."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1].rsplit("#", 1)[-1]
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
        rows = merge(table_rows, sections, reader.warnings, subject, require_fields=require_fields)
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
        text=text,
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
        if self.current().startswith("\ufeff"):
            raise self.error(
                self.pos, "the file starts with a byte order mark (U+FEFF): save it as UTF-8 without a BOM"
            )
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
        # ASCII digits only: "²".isdigit() and "１".isdigit() are true, and int() then fails.
        if not (value.isascii() and value.isdigit()):
            raise self.error(line, f"`increment:` expected a whole number in ASCII digits (0-9), got {value!r}")
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
        expected = table_header(subject, commit)
        header = _escaped_split(block[0])
        if tuple(header) != expected:
            raise self.error(start, "expected the table header `| " + " | ".join(expected) + " |`")
        separator = _escaped_split(block[1])
        if len(separator) != len(expected) or not all(SEPARATOR_CELL.match(cell) for cell in separator):
            # Without it the table is no table: every row's cells would load blank.
            raise self.error(
                start + 1, f"expected the table's separator row `|{' --- |' * len(expected)}` ({len(expected)} cells)"
            )
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
                odd = non_ascii_note(match.group("id")) if match else ""
                raise self.error(self.pos, f"expected a row section heading `## <ID> <title>` (ID like CT-01){odd}")
            section = {"id": match.group("id"), "title": match.group("title").strip(), "line": self.pos + 1}
            start = self.pos
            self.pos += 1
            section["fields"] = self._fields(subject)
            section["source"] = "\n".join(self.lines[start : self.pos]).rstrip()
            sections.append(section)
        return sections

    def _fields(self, subject: str) -> list[Field]:
        fields: list[Field] = []
        # Each field's lines, joined once at the end: adding every continuation line to the text
        # copied it again per line (200,000 lines of a 20 MB field: 92 s).
        lines: list[list[str]] = []
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
                fields.append(Field(_field_key(name, subject), name, "", self.pos + 1))
                lines.append([(match.group("text") or "").strip()])
            elif fields and CONTINUATION.match(line):
                lines[-1].append(line.strip())
            else:
                raise self.error(
                    self.pos,
                    "expected a bullet field `- **<Name>.** <text>` or a continuation line indented by two spaces",
                )
            self.pos += 1
        for field, parts in zip(fields, lines, strict=True):
            field.text = " ".join(parts).strip()
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
