"""The writes of one load run, in bulk: registers, rows, their children, their history and facts.
Called by registers.loader inside its transaction, after every file parsed."""

from __future__ import annotations

from registers import listing, models
from registers.bulkwrite import insert_many, update_many
from registers.core import history
from registers.core.citations import Citation
from registers.core.format import READING_RULES, RegisterDoc, RowDoc
from registers.core.load_report import LoadReport
from registers.core.rendering import Renderer
from registers.core.rowfacts import facts_document
from registers.core.sources import SourceRoot
from registers.fill import fill_register, fill_row, web_url

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
    "anchors",
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


class RunWriter:
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
            fill_register(register, doc, self.renderer, self.roots)
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
        written = [found[doc.slug].pk for doc in docs]
        models.RegisterSource.objects.filter(register_id__in=written).delete()
        models.RegisterSource.objects.bulk_create(
            models.RegisterSource(register_id=found[doc.slug].pk, text=doc.text) for doc in docs
        )
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
            fill_row(row, doc, self.renderer)
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
