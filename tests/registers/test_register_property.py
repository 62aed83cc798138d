"""Generated registers (every irregularity of the format) parse to what was written, and survive
the Markdown export: parse, export, parse again gives the same rows, states and citations."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from registers.core.format import RegisterHead, RegisterRow, parse_register, register_text
from tests.support.register_grammar import GeneratedRegister, generated_register
from tests.support.register_text import comparable
from tests.support.strategies import examples

PROPERTY = settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def head(doc) -> RegisterHead:
    return RegisterHead(
        title=doc.title,
        subject=doc.subject,
        subject_commit=doc.subject_commit,
        created=doc.front_matter["created"],
        last_updated=doc.front_matter["last-updated"],
        increment=doc.increment,
        status=doc.status,
        tags=tuple(doc.tags),
        description=doc.front_matter["description"],
        intro=doc.intro,
    )


def written(row) -> RegisterRow:
    cells = ("difference", "labels_cell", "where_cell", "status_cell", "value_cell", "effort_cell", "risk_cell")
    return RegisterRow(
        row.row_id, row.title, tuple(getattr(row, cell) for cell in cells), tuple((f.name, f.text) for f in row.fields)
    )


@PROPERTY
@given(generated_register())
def test_generated_registers_parse_to_what_was_written(generated: GeneratedRegister):
    doc = parse_register(generated.text, "generated.md")
    assert doc.warnings == []
    assert [row.row_id for row in doc.rows] == [row.row_id for row in generated.rows]
    for row, written in zip(doc.rows, generated.rows, strict=True):
        cells = (row.difference, row.labels_cell, row.where_cell, row.status_cell, row.value_cell)
        assert (*cells, row.effort_cell, row.risk_cell) == tuple(cell.replace("\\|", "|") for cell in written.cells)
        assert row.title == written.heading
        assert [field.name for field in row.fields] == [label.removesuffix(".") for label, _ in written.fields]
        assert [field.text for field in row.fields] == [text for _, text in written.fields]
        cited = [
            (c.path, c.line_start, c.line_end, c.quote)
            for c in row.citations
            if c.field == "sources" and c.path and not c.continuation
        ]
        assert cited == [(c.path, c.line_start, c.line_end, c.quote) for c in written.cited]
        assert len(row.support) == 5
        assert all(s.state for s in row.support)


@PROPERTY
@given(generated_register())
def test_generated_registers_survive_the_markdown_export(generated: GeneratedRegister):
    doc = parse_register(generated.text, "generated.md")
    exported = "".join(register_text(head(doc), [written(row) for row in doc.rows]))
    again = parse_register(exported, "generated.md")
    assert again.warnings == []
    assert comparable(again) == comparable(doc)
