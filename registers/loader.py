"""RegisterDoc -> database, in one transaction per run, idempotent.

Every file is parsed before the database is touched, and all writes happen in one transaction,
so a run that fails on any file leaves the database exactly as it was. Registers are keyed by
slug, rows by (register, row id); an unchanged file is skipped by its content hash unless
`force` is set, and an unchanged row is left alone.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from . import facts, history, models
from .citations import Citation
from .parser import RegisterDoc, RegisterParseError, RowDoc, looks_like_register, parse_register, slug_from_path
from .rendering import LinkTargets, Renderer
from .sources import SourceRoot, root_for
from .verification import effective_roots


class RegisterLoadError(Exception):
    """A load that changed nothing; the message names the file and, where known, the line."""


@dataclass
class LoadReport:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    registers: list[str] = field(default_factory=list)
    skipped_files: list[str] = field(default_factory=list)
    unchanged_registers: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{len(self.registers)} register(s): {self.created} created, {self.updated} updated, "
            f"{self.unchanged} unchanged, {self.removed} removed"
        )


def register_files(paths: list[Path]) -> tuple[list[tuple[Path, str]], list[Path]]:
    """(file, text) pairs to load and files skipped: a directory contributes its `*.md` registers
    only (essays, matrices and the README share the folder); a file named explicitly is always read."""
    files: list[tuple[Path, str]] = []
    skipped: list[Path] = []
    for path in paths:
        if path.is_dir():
            for candidate in sorted(path.glob("*.md")):
                text = _read(candidate)
                if looks_like_register(text):
                    files.append((candidate, text))
                else:
                    skipped.append(candidate)
        elif path.is_file():
            files.append((path, _read(path)))
        else:
            raise RegisterLoadError(f"{path}: no such file or directory")
    return files, skipped


def _read(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise RegisterLoadError(
            f"{path}:{line}: not UTF-8 text ({error.reason} at byte {error.start}, column {column})"
        ) from None


def parse_files(files: list[tuple[Path, str]], *, require_fields: bool = True) -> list[RegisterDoc]:
    docs: list[RegisterDoc] = []
    for path, text in files:
        try:
            docs.append(parse_register(text, str(path), require_fields=require_fields))
        except RegisterParseError as error:
            raise RegisterLoadError(str(error)) from None
    return docs


def _check_slugs(files: list[tuple[Path, str]]) -> None:
    seen: dict[str, Path] = {}
    for path, _ in files:
        slug = slug_from_path(str(path))
        if slug in seen:
            raise RegisterLoadError(f"{path}: register slug {slug!r} is also loaded from {seen[slug]}")
        seen[slug] = path


def load_registers(paths: list[Path], *, force: bool = False, require_fields: bool = True) -> LoadReport:
    files, skipped = register_files(paths)
    _check_slugs(files)
    report = LoadReport(skipped_files=[str(path) for path in skipped])
    # A file whose bytes match what was loaded last time was valid then and is skipped unparsed.
    known = dict(
        models.Register.objects.filter(slug__in=[slug_from_path(str(p)) for p, _ in files]).values_list(
            "slug", "content_hash"
        )
    )
    changed = [
        (path, text)
        for path, text in files
        if force or known.get(slug_from_path(str(path))) != hashlib.sha256(text.encode()).hexdigest()
    ]
    docs = parse_files(changed, require_fields=require_fields)
    changed_paths = {path for path, _ in changed}
    unchanged = [slug_from_path(str(path)) for path, _ in files if path not in changed_paths]
    renderer = Renderer(_link_targets())
    roots = effective_roots()
    touched: list[int] = []
    with transaction.atomic():
        if unchanged:
            report.unchanged += models.Row.objects.filter(register__slug__in=unchanged).count()
            report.unchanged_registers.extend(unchanged)
        for doc in docs:
            touched.extend(_load_one(doc, renderer, roots, report, force=force))
        facts.refresh(touched)
    if docs:
        analyze_register_tables()
    report.registers = [slug_from_path(str(p)) for p, _ in files]
    return report


REGISTER_TABLES = (
    models.Register,
    models.Row,
    models.Label,
    models.RevisionSupport,
    models.HostNote,
    models.Citation,
    models.RowVersion,
)


def analyze_register_tables() -> None:
    """Fresh planner statistics after a bulk write, so the next query is not planned for empty
    tables (PostgreSQL only; inside an outer transaction it still helps that transaction)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in REGISTER_TABLES:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


def _link_targets() -> LinkTargets:
    row = reverse("registers:row_by_id", args=["ROWID"]).replace("ROWID", "{id}")
    register = reverse("registers:register_detail", args=["SLUG"]).replace("SLUG", "{slug}")
    return LinkTargets(row=row, register=register)


def _load_one(
    doc: RegisterDoc, renderer: Renderer, roots: list[SourceRoot], report: LoadReport, *, force: bool
) -> list[int]:
    """Write one register; returns the keys of the rows it created or changed."""
    register = models.Register.objects.filter(slug=doc.slug).first() or models.Register(slug=doc.slug)
    previous = (register.increment, register.subject_commit, register.last_updated) if register.pk else None
    _fill_register(register, doc, renderer)
    register.save()

    existing = {row.row_id: row for row in register.rows.all()}
    wanted = {row.row_id for row in doc.rows}
    stale = [row.pk for row_id, row in existing.items() if row_id not in wanted]
    if stale:
        models.Row.objects.filter(pk__in=stale).delete()
        report.removed += len(stale)

    touched: list[int] = []
    for row_doc in doc.rows:
        row = existing.get(row_doc.row_id)
        if row is not None and row.content_hash == row_doc.content_hash and row.order == row_doc.order and not force:
            report.unchanged += 1
            continue
        if row is None:
            row = models.Row(register=register, row_id=row_doc.row_id)
            report.created += 1
        else:
            report.updated += 1
            if previous and row.content_hash != row_doc.content_hash:
                _keep_version(row, previous)
        _fill_row(row, row_doc, renderer)
        row.save()
        _replace_children(row, row_doc, renderer, roots)
        touched.append(row.pk)
    return touched


def _keep_version(row: models.Row, previous: tuple) -> None:
    increment, commit, last_updated = previous
    labels = [label.text for label in row.labels.order_by("order")]
    models.RowVersion.objects.create(
        row=row, increment=increment, commit=commit, last_updated=last_updated, snapshot=history.snapshot(row, labels)
    )


def _fill_register(register: models.Register, doc: RegisterDoc, renderer: Renderer) -> None:
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
    register.warnings = [{"line": w.line, "message": w.message} for w in doc.warnings]
    register.front_matter = doc.front_matter
    register.loaded_at = timezone.now()


def _fill_row(row: models.Row, doc: RowDoc, renderer: Renderer) -> None:
    row.order = doc.order
    row.line = doc.line
    row.title = doc.title
    row.title_html = renderer.inline(doc.title)
    row.difference = doc.difference
    row.difference_html = renderer.inline(doc.difference)
    row.labels_cell = doc.labels_cell
    row.where_cell = doc.where_cell
    row.where_html = renderer.inline(doc.where_cell)
    row.status_cell = doc.status_cell
    row.status_html = renderer.inline(doc.status_cell)
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
        {"key": f.key, "name": f.name, "text": f.text, "html": renderer.inline(f.text), "line": f.line}
        for f in doc.fields
    ]
    row.issue_refs = doc.issue_refs
    row.wire_refs = doc.wire_refs
    row.content_hash = doc.content_hash
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


VERIFICATION_FIELDS = (
    "verdict",
    "verified_commit",
    "verified_at",
    "source_key",
    "repo_path",
    "found_line",
    "verify_detail",
    "excerpt_html",
)


def _citation_key(path: str, line_start, line_end, quote: str, url: str) -> tuple:
    return (path, line_start, line_end, quote, url)


def _replace_children(row: models.Row, doc: RowDoc, renderer: Renderer, roots: list[SourceRoot]) -> None:
    # A citation that reads the same after a reload keeps its last verification.
    kept = {
        _citation_key(c.path, c.line_start, c.line_end, c.quote, c.url): {f: getattr(c, f) for f in VERIFICATION_FIELDS}
        for c in row.citations.all()
    }
    row.labels.all().delete()
    row.support.all().delete()
    row.host_notes.all().delete()
    row.citations.all().delete()
    models.Label.objects.bulk_create(
        models.Label(
            row=row,
            order=index,
            text=label.text,
            kind=label.kind,
            revision=label.revision or "",
            verb=label.verb or "",
            host=label.host or "",
        )
        for index, label in enumerate(doc.labels)
    )
    models.RevisionSupport.objects.bulk_create(
        models.RevisionSupport(row=row, revision=s.revision, state=s.state, note=s.note, source=s.source)
        for s in doc.support
    )
    models.HostNote.objects.bulk_create(
        models.HostNote(
            row=row,
            host=note.host,
            order=index,
            state=note.state,
            state_source=note.state_source,
            where=note.where,
            statements=[{"text": text, "html": renderer.inline(text)} for text in note.statements],
            citation_orders=note.citation_indexes,
        )
        for index, note in enumerate(doc.host_notes)
    )
    citations = []
    for index, c in enumerate(doc.citations):
        citation = models.Citation(
            row=row,
            order=index,
            field=c.field,
            raw=c.raw,
            kind=c.kind,
            path=c.path,
            line_start=c.line_start,
            line_end=c.line_end,
            quote=c.quote,
            quote_style=c.quote_style,
            note=c.note,
            url=c.url,
            web_url=web_url(c, roots),
            host=c.host or "",
            wire_ids=c.wire_ids,
            continuation=c.continuation,
        )
        for name, value in kept.get(_citation_key(c.path, c.line_start, c.line_end, c.quote, c.url), {}).items():
            setattr(citation, name, value)
        citations.append(citation)
    models.Citation.objects.bulk_create(citations)


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
