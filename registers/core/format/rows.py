"""What a register row's cells and fields mean: the summary-table cells checked and parsed, the
labels classified, table rows paired with sections, and everything derived (revision support,
milestones, citations, host notes, references). Pure, no Django."""

from __future__ import annotations

from dataclasses import dataclass

from language.vocabulary import (
    EFFORT_SIZES,
    FIXED_LABELS,
    REVISION_VERBS,
    REVISIONS,
    RISK_LEVELS,
    STATUS_VERDICTS,
)
from registers.core import citations as citation_grammar
from registers.core.format.documents import Label, ParseWarning, RegisterParseError, RowDoc
from registers.core.format.grammar import (
    CODE_SPAN_LABEL,
    REQUIRED_FIELDS,
    REVISION_LABEL,
    ROW_ID,
    STATUS_CELL,
    VALUE_CELL,
    field_label,
)
from registers.core.hostnotes import build_host_notes
from registers.core.support import milestones, revision_support


def classify_label(text: str, subject: str) -> Label:
    match = REVISION_LABEL.match(text)
    if match and match.group("rev") in REVISIONS and match.group("verb") in REVISION_VERBS:
        return Label(text, "revision", revision=match.group("rev"), verb=match.group("verb"))
    generic = text.replace(subject, "mcpx") if subject else text
    if generic in FIXED_LABELS:
        kind, host = FIXED_LABELS[generic]
        return Label(text, kind, host=host)
    return Label(text, "other")


@dataclass(frozen=True)
class _Reading:
    """What every row of one merge is read with: where warnings go, the register's subject, and
    whether a missing field is an error (else a warning)."""

    warnings: list[ParseWarning]
    subject: str
    require_fields: bool


def merge(
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
    reading = _Reading(warnings, subject, require_fields)
    for table_row in table_rows:
        row_id = table_row["cells"][0].strip("`")
        if not ROW_ID.match(row_id):
            raise RegisterParseError(
                "",
                table_row["line"],
                f"expected a row ID like CT-01 in the first cell, got {row_id!r}{non_ascii_note(row_id)}",
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
            message = f"table row {row_id} has no `## {row_id}` section"
            if require_fields:
                # Loaded, it would be a row with none of its eight fields: a register cut short.
                raise RegisterParseError("", table_row["line"], message + " (every row needs its section)")
            warnings.append(ParseWarning(table_row["line"], message))
        rows.append(_build_row(row_id, len(rows) + 1, table_row, section, reading))
    for section in sections:
        if section["id"] not in seen and by_id.get(section["id"]) is section:
            message = f"section {section['id']} has no row in the summary table"
            if require_fields:
                # Loaded, it would have no status, labels or revision cells.
                raise RegisterParseError("", section["line"], message + " (every section needs its table row)")
            warnings.append(ParseWarning(section["line"], message))
            seen[section["id"]] = section["line"]
            rows.append(_build_row(section["id"], len(rows) + 1, None, section, reading))
    table_order = [r["cells"][0] for r in table_rows]
    section_order = [s["id"] for s in sections if s["id"] in table_order]
    if section_order != [i for i in table_order if i in section_order]:
        warnings.append(
            ParseWarning(sections[0]["line"] if sections else 0, "sections are not in the order of the summary table")
        )
    return rows


def _build_row(row_id: str, order: int, table_row: dict | None, section: dict | None, reading: _Reading) -> RowDoc:
    warnings, subject, require_fields = reading.warnings, reading.subject, reading.require_fields
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
                message = f"{row_id} has no `- **{field_label(key, subject)}.**` field"
                if require_fields:
                    raise RegisterParseError("", section["line"], message + " (every row needs all eight)")
                warnings.append(ParseWarning(section["line"], message))
    row.title = row.title or row.difference
    row.source_text = "\n".join(
        part for part in ((table_row or {}).get("raw", ""), (section or {}).get("source", "")) if part
    )
    _derive(row, subject)
    return row


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
    row.host_notes = build_host_notes(row, subject)


def non_ascii_note(text: str) -> str:
    """What to add to an error about a row ID that is not ASCII (look-alike digits and letters)."""
    odd = [char for char in text if not char.isascii()]
    if not odd:
        return ""
    return (
        " (" + ", ".join(f"{char!r} is U+{ord(char):04X}" for char in odd[:3]) + ": IDs are ASCII letters and digits)"
    )
