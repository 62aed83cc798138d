"""What a register document's fields become on the models: every column of a Register and a Row
that comes straight from the document, and the link of a citation."""

from __future__ import annotations

from django.utils import timezone

from registers import models
from registers.core.anchoring import doc_anchors
from registers.core.citations import Citation
from registers.core.format import READING_RULES, RegisterDoc, RowDoc
from registers.core.lint import lint
from registers.core.rendering import Renderer
from registers.core.sources import SourceRoot, root_for


def fill_register(register: models.Register, doc: RegisterDoc, renderer: Renderer, roots: list[SourceRoot]) -> None:
    """A register's columns from its document (rendered Markdown, lint findings, the rules it was read with)."""
    register.title = doc.title
    register.title_html = renderer.inline(doc.title)
    register.description = doc.description
    register.tags = doc.tags
    register.status = doc.status
    register.created = doc.created
    register.last_updated = doc.last_updated
    register.increment = doc.increment
    register.subject = doc.subject
    register.subject_commit = doc.subject_commit
    register.intro = doc.intro
    register.intro_html = renderer.block(doc.intro)
    register.prefix = doc.prefix
    register.source_path = doc.path
    register.content_hash = doc.content_hash
    register.read_with = READING_RULES
    register.warnings = [{"line": w.line, "message": w.message} for w in doc.warnings]
    register.findings = [finding.as_dict() for finding in lint(doc, roots)]
    register.front_matter = doc.front_matter
    register.loaded_at = timezone.now()


def fill_row(row: models.Row, doc: RowDoc, renderer: Renderer) -> None:
    """A row's columns from its document (children and listing HTML are written elsewhere)."""
    inline = renderer.inline
    row.order = doc.order
    row.line = doc.line
    row.title = doc.title
    row.title_html = inline(doc.title)
    row.difference = doc.difference
    row.difference_html = inline(doc.difference)
    row.labels_cell = doc.labels_cell
    row.where_cell = doc.where_cell
    row.where_html = inline(doc.where_cell)
    row.status_cell = doc.status_cell
    row.status_html = inline(doc.status_cell)
    row.value_cell = doc.value_cell
    row.effort_cell = doc.effort_cell
    row.risk_cell = doc.risk_cell
    row.status_verdict = doc.status_verdict
    row.status_broken = doc.status_broken
    row.status_note = doc.status_note
    row.value_sign = doc.value_sign
    row.value_level = doc.value_level
    row.effort = doc.effort
    row.risk = doc.risk
    row.introduced_in = doc.introduced_in
    row.removed_in = doc.removed_in
    row.deprecated_in = doc.deprecated_in
    row.has_table_row = doc.has_table_row
    row.fields = [
        {"key": f.key, "name": f.name, "text": f.text, "html": inline(f.text), "line": f.line} for f in doc.fields
    ]
    row.issue_refs = doc.issue_refs
    row.wire_refs = doc.wire_refs
    row.content_hash = doc.content_hash
    row.read_with = READING_RULES
    row.anchors = [found.as_dict() for found in doc_anchors(doc)]
    row.search_text = " ".join(
        [
            doc.row_id,
            doc.title,
            doc.difference,
            doc.where_cell,
            doc.status_cell,
            doc.labels_cell,
            *(f.text for f in doc.fields),
        ]
    ).lower()


def web_url(citation: Citation, roots: list[SourceRoot]) -> str:
    """A link to the cited lines: the URL itself, or the source root's permalink template."""
    if citation.kind == "url":
        return citation.url
    if not citation.path:
        return ""
    root = root_for(citation.path, roots)
    if root is None:
        return ""
    return root.link(root.repo_path(citation.path), root.commit, citation.line_start, citation.line_end)
