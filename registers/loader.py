"""RegisterDoc -> database, in one transaction per run, idempotent, in a few bulk statements.

Every file is parsed before the database is touched, and all writes happen in one transaction,
so a run that fails on any file leaves the database exactly as it was. Registers are keyed by
slug, rows by (register, row id); an unchanged file is skipped by its content hash unless
`force` is set, and an unchanged row is left alone. The writes of a whole run are batched: rows
are created and updated in bulk, the children of every changed row are deleted and inserted
per table, and each row's filter facts are computed from its document (no read-back). Each
distinct Markdown text is rendered once.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from . import history, listing, models
from .bulkwrite import insert_many, update_many
from .citations import Citation
from .lint import lint
from .pagecache import bump_data_version
from .parser import (
    READING_RULES,
    RegisterDoc,
    RegisterParseError,
    RowDoc,
    looks_like_register,
    parse_register,
    slug_from_path,
)
from .rendering import LinkTargets, Renderer
from .rowfilter import facts_document
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
    # A file read with older rules is read again even if its bytes did not change.
    known = {
        slug: digest
        for slug, digest, rules in models.Register.objects.filter(
            slug__in=[slug_from_path(str(p)) for p, _ in files]
        ).values_list("slug", "content_hash", "read_with")
        if rules == READING_RULES
    }
    changed = [
        (path, text)
        for path, text in files
        if force or known.get(slug_from_path(str(path))) != hashlib.sha256(text.encode()).hexdigest()
    ]
    docs = parse_files(changed, require_fields=require_fields)
    changed_paths = {path for path, _ in changed}
    unchanged = [slug_from_path(str(path)) for path, _ in files if path not in changed_paths]
    with transaction.atomic():
        if unchanged:
            report.unchanged += models.Row.objects.filter(register__slug__in=unchanged).count()
            report.unchanged_registers.extend(unchanged)
        if docs:
            _Load(Renderer(_link_targets()), effective_roots(), report, force=force).write(docs)
            bump_data_version()
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


REGISTER_FIELDS = [
    "title",
    "title_html",
    "description",
    "tags",
    "status",
    "created",
    "last_updated",
    "increment",
    "subject",
    "subject_commit",
    "intro",
    "intro_html",
    "prefix",
    "source_path",
    "content_hash",
    "read_with",
    "warnings",
    "findings",
    "front_matter",
    "loaded_at",
]
ROW_FIELDS = [
    "order",
    "line",
    "title",
    "title_html",
    "difference",
    "difference_html",
    "labels_cell",
    "where_cell",
    "where_html",
    "status_cell",
    "status_html",
    "value_cell",
    "effort_cell",
    "risk_cell",
    "status_verdict",
    "status_broken",
    "status_note",
    "value_sign",
    "value_level",
    "effort",
    "risk",
    "introduced_in",
    "removed_in",
    "deprecated_in",
    "has_table_row",
    "fields",
    "issue_refs",
    "wire_refs",
    "content_hash",
    "read_with",
    "search_text",
    "facts",
    "lead_html",
    "cells_html",
    "matrix_html",
]
VERIFICATION_FIELDS = (
    "verdict",
    "verified_commit",
    "verified_at",
    "source_key",
    "repo_path",
    "found_line",
    "verify_detail",
    "excerpt",
)
#: A citation never verified (what the model's defaults say).
UNVERIFIED = {
    "verdict": "",
    "verified_commit": "",
    "verified_at": None,
    "source_key": "",
    "repo_path": "",
    "found_line": None,
    "verify_detail": "",
    "excerpt": {},
}


class _Load:
    """The writes of one run over every changed register document, in bulk."""

    def __init__(self, renderer: Renderer, roots: list[SourceRoot], report: LoadReport, *, force: bool):
        self.renderer, self.roots, self.report, self.force = renderer, roots, report, force
        self._links: dict[tuple, str] = {}

    def write(self, docs: list[RegisterDoc]) -> None:
        registers = self._registers(docs)
        existing = self._existing_rows(list(registers.values()))
        stale: list[int] = []
        to_write: list[tuple[models.Row, RowDoc, bool]] = []  # (row, its document, is new)
        for doc in docs:
            register = registers[doc.slug]
            current = existing.get(register.pk, {})
            wanted = {row.row_id for row in doc.rows}
            stale += [row.pk for row_id, row in current.items() if row_id not in wanted]
            for row_doc in doc.rows:
                row = current.get(row_doc.row_id)
                if row is not None:
                    row.register = register  # already in hand: no query per row for its fragments
                same = (
                    row is not None
                    and row.content_hash == row_doc.content_hash
                    and row.order == row_doc.order
                    and row.read_with == READING_RULES
                )
                if same and not self.force:
                    self.report.unchanged += 1
                    continue
                to_write.append((row or models.Row(register=register, row_id=row_doc.row_id), row_doc, row is None))
        if stale:
            models.Row.objects.filter(pk__in=stale).delete()
            self.report.removed += len(stale)
        if to_write:
            self._rows(to_write, {doc.slug: doc for doc in docs}, registers)

    def _registers(self, docs: list[RegisterDoc]) -> dict[str, models.Register]:
        found = {r.slug: r for r in models.Register.objects.filter(slug__in=[doc.slug for doc in docs])}
        # What each register was before this load, for the history of its changed rows.
        self.previous = {slug: (r.increment, r.subject_commit, r.last_updated) for slug, r in found.items()}
        new = []
        for doc in docs:
            register = found.get(doc.slug) or models.Register(slug=doc.slug)
            self._fill_register(register, doc)
            if register.pk is None:
                new.append(register)
            found[doc.slug] = register
        models.Register.objects.bulk_create(new)
        changed = [r for r in found.values() if r not in new]
        if changed:
            models.Register.objects.bulk_update(changed, REGISTER_FIELDS)
        if any(r.pk is None for r in new):  # a backend without RETURNING: read the keys back
            keys = dict(models.Register.objects.filter(slug__in=[r.slug for r in new]).values_list("slug", "pk"))
            for register in new:
                register.pk = keys[register.slug]
        return found

    def _existing_rows(self, registers: list[models.Register]) -> dict[int, dict[str, models.Row]]:
        rows: dict[int, dict[str, models.Row]] = {}
        for row in models.Row.objects.filter(register__in=[r.pk for r in registers]).only(
            "pk", "register_id", "row_id", "order", "content_hash", "read_with"
        ):
            rows.setdefault(row.register_id, {})[row.row_id] = row
        return rows

    def _rows(
        self,
        to_write: list[tuple[models.Row, RowDoc, bool]],
        docs: dict[str, RegisterDoc],
        registers: dict[str, models.Register],
    ) -> None:
        by_register = {register.pk: slug for slug, register in registers.items()}
        updated = [(row, doc) for row, doc, new in to_write if not new]
        old_pks = [row.pk for row, _ in updated]
        kept = self._kept_verifications(old_pks)
        versions = self._versions(updated, by_register)
        increments = self._version_increments(old_pks)
        for version in versions:
            increments.setdefault(version.row_id, []).append(version.increment)
        citations_by_row: dict[int, list[dict]] = {}
        for row, doc, _ in to_write:
            self._fill_row(row, doc)
            citations = self._citations(doc, kept.get(row.pk, {}))
            citations_by_row[id(row)] = citations
            row.facts = facts_document(
                {s.revision: s.state for s in doc.support},
                {note.host: note.state for note in doc.host_notes},
                [label.text for label in doc.labels],
                [(c["verdict"], c["kind"]) for c in citations],
                increments.get(row.pk, []),
            )
        # Keyed by object: new rows have no primary key yet.
        listing.fill_from_documents([(row, doc) for row, doc, _ in to_write])
        if old_pks:
            for child in (models.Label, models.RevisionSupport, models.HostNote, models.Citation):
                child.objects.filter(row_id__in=old_pks).delete()
            update_many(models.Row, [row for row, _ in updated], ROW_FIELDS)
        new_rows = [row for row, _, new in to_write if new]
        if new_rows:
            insert_many(
                models.Row,
                [
                    {"register_id": row.register_id, "row_id": row.row_id}
                    | {name: getattr(row, name) for name in ROW_FIELDS}
                    for row in new_rows
                ],
            )
            # One query reads the new keys back (executemany returns none).
            keys = {
                (register_id, row_id): pk
                for pk, register_id, row_id in models.Row.objects.filter(
                    register_id__in={row.register_id for row in new_rows}
                ).values_list("pk", "register_id", "row_id")
            }
            for row in new_rows:
                row.pk = keys[(row.register_id, row.row_id)]
        models.RowVersion.objects.bulk_create(versions)
        self._children(to_write, citations_by_row)
        self.report.created += len(new_rows)
        self.report.updated += len(updated)

    def _kept_verifications(self, row_pks: list[int]) -> dict[int, dict[tuple, dict]]:
        """A citation that reads the same after a reload keeps its last verification."""
        kept: dict[int, dict[tuple, dict]] = {}
        if not row_pks:
            return kept
        columns = ("row_id", "path", "line_start", "line_end", "quote", "url", *VERIFICATION_FIELDS)
        for values in models.Citation.objects.filter(row_id__in=row_pks).values_list(*columns):
            data = dict(zip(columns, values, strict=True))
            key = (data["path"], data["line_start"], data["line_end"], data["quote"], data["url"])
            kept.setdefault(data["row_id"], {})[key] = {name: data[name] for name in VERIFICATION_FIELDS}
        return kept

    def _versions(self, updated: list[tuple[models.Row, RowDoc]], by_register: dict[int, str]) -> list:
        """The previous version of every row whose content changed (a reordering keeps none)."""
        changed = [row.pk for row, doc in updated if row.content_hash != doc.content_hash]
        if not changed:
            return []
        labels: dict[int, list[str]] = {}
        for row_id, text in (
            models.Label.objects.filter(row_id__in=changed).order_by("row_id", "order").values_list("row_id", "text")
        ):
            labels.setdefault(row_id, []).append(text)
        versions = []
        for old in models.Row.objects.filter(pk__in=changed):
            previous = self.previous.get(by_register[old.register_id])
            if previous is None:
                continue
            increment, commit, last_updated = previous
            versions.append(
                models.RowVersion(
                    row_id=old.pk,
                    increment=increment,
                    commit=commit,
                    last_updated=last_updated,
                    snapshot=history.snapshot(old, labels.get(old.pk, [])),
                )
            )
        return versions

    def _version_increments(self, row_pks: list[int]) -> dict[int, list[int]]:
        found: dict[int, list[int]] = {}
        if row_pks:
            for row_id, increment in models.RowVersion.objects.filter(row_id__in=row_pks).values_list(
                "row_id", "increment"
            ):
                found.setdefault(row_id, []).append(increment)
        return found

    def _children(
        self, to_write: list[tuple[models.Row, RowDoc, bool]], citations_by_row: dict[int, list[dict]]
    ) -> None:
        """Every child of every written row, one prepared INSERT per table (executemany): building
        ten thousand model instances for bulk_create cost most of a cold load."""
        labels, support, notes, citations = [], [], [], []
        inline = self.renderer.inline
        for row, doc, _ in to_write:
            labels += [
                {
                    "row_id": row.pk,
                    "order": index,
                    "text": label.text,
                    "kind": label.kind,
                    "revision": label.revision or "",
                    "verb": label.verb or "",
                    "host": label.host or "",
                }
                for index, label in enumerate(doc.labels)
            ]
            support += [
                {"row_id": row.pk, "revision": s.revision, "state": s.state, "note": s.note, "source": s.source}
                for s in doc.support
            ]
            notes += [
                {
                    "row_id": row.pk,
                    "host": note.host,
                    "order": index,
                    "state": note.state,
                    "state_source": note.state_source,
                    "where": note.where,
                    "statements": [{"text": text, "html": inline(text)} for text in note.statements],
                    "citation_orders": note.citation_indexes,
                }
                for index, note in enumerate(doc.host_notes)
            ]
            citations += [{**citation, "row_id": row.pk} for citation in citations_by_row[id(row)]]
        insert_many(models.Label, labels)
        insert_many(models.RevisionSupport, support)
        insert_many(models.HostNote, notes)
        insert_many(models.Citation, citations)

    def _citations(self, doc: RowDoc, kept: dict[tuple, dict]) -> list[dict]:
        built = []
        for index, c in enumerate(doc.citations):
            citation = {
                "order": index,
                "field": c.field,
                "raw": c.raw,
                "kind": c.kind,
                "path": c.path,
                "line_start": c.line_start,
                "line_end": c.line_end,
                "quote": c.quote,
                "quote_style": c.quote_style,
                "note": c.note,
                "url": c.url,
                "web_url": self._web_url(c),
                "host": c.host or "",
                "wire_ids": c.wire_ids,
                "continuation": c.continuation,
                **UNVERIFIED,
            }
            citation.update(kept.get((c.path, c.line_start, c.line_end, c.quote, c.url), {}))
            built.append(citation)
        return built

    def _web_url(self, citation: Citation) -> str:
        key = (citation.kind, citation.path, citation.url, citation.line_start, citation.line_end)
        if key not in self._links:
            self._links[key] = web_url(citation, self.roots)
        return self._links[key]

    def _fill_register(self, register: models.Register, doc: RegisterDoc) -> None:
        register.title = doc.title
        register.title_html = self.renderer.inline(doc.title)
        register.description = doc.description
        register.tags = doc.tags
        register.status = doc.status
        register.created = doc.created
        register.last_updated = doc.last_updated
        register.increment = doc.increment
        register.subject = doc.subject
        register.subject_commit = doc.subject_commit
        register.intro = doc.intro
        register.intro_html = self.renderer.block(doc.intro)
        register.prefix = doc.prefix
        register.source_path = doc.path
        register.content_hash = doc.content_hash
        register.read_with = READING_RULES
        register.warnings = [{"line": w.line, "message": w.message} for w in doc.warnings]
        register.findings = [finding.as_dict() for finding in lint(doc, self.roots)]
        register.front_matter = doc.front_matter
        register.loaded_at = timezone.now()

    def _fill_row(self, row: models.Row, doc: RowDoc) -> None:
        inline = self.renderer.inline
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
