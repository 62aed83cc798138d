"""What a parsed register row is about: its title, cells and fields handed to comparison.anchors,
with its spec citations. Pure, no Django."""

from __future__ import annotations

from language.anchors.row_anchors import CELL, TITLE, CitedLine, RowAnchor, row_anchors
from registers.core.format import RowDoc

#: The row fields whose backticked identifiers count (the status column is about the subject).
READ_FIELDS = ("what", "where", "detail")


def doc_anchors(doc: RowDoc) -> list[RowAnchor]:
    fields = {field.key: field.text for field in doc.fields}
    texts = {TITLE: doc.difference or doc.title, CELL: doc.where_cell}
    texts.update({key: fields.get(key, "") for key in READ_FIELDS})
    cited = [CitedLine(c.path, c.line_start, c.field) for c in doc.citations if c.path]
    return row_anchors(texts, cited)
