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
from collections.abc import Callable
from pathlib import Path

from django.db import connection, transaction
from django.urls import reverse

from common.pagecache import bump_data_version
from registers import models
from registers.core.format import (
    READING_RULES,
    RegisterDoc,
    RegisterParseError,
    looks_like_register,
    parse_register,
    register_parts,
    slug_from_path,
)
from registers.core.load_report import LoadReport
from registers.core.rendering import LinkTargets, Renderer
from registers.loadwrite import RunWriter
from registers.verification import effective_roots


class RegisterLoadError(Exception):
    """A load that changed nothing; the message names the file and, where known, the line."""


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
                    files += _parts(candidate, text)
                else:
                    skipped.append(candidate)
        elif path.is_file():
            files += _parts(path, _read(path))
        else:
            raise RegisterLoadError(f"{path}: no such file or directory")
    return files, skipped


def _parts(path: Path, text: str) -> list[tuple[Path, str]]:
    """A file's registers: itself, or each register of a Markdown export of several, named
    `file.md#slug` (an unnamed part by its position, `file.md#file-2`)."""
    parts = register_parts(text)
    if len(parts) == 1:
        return [(path, text)]
    return [(Path(f"{path}#{slug or f'{path.stem}-{index}'}"), part) for index, (slug, part) in enumerate(parts, 1)]


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


def load_registers(
    paths: list[Path],
    *,
    force: bool = False,
    require_fields: bool = True,
    strict: bool = False,
    on_wait: Callable[[str], None] | None = None,
) -> LoadReport:
    """Load register files in one transaction. With `strict`, a register the lint finds an error
    in (a contradiction, a claim without a source) fails the load, which then changes nothing."""
    files, skipped = register_files(paths)
    _check_slugs(files)
    # One load at a time, from reading what is loaded to the commit: two loads that both read
    # "not loaded yet" both inserted, and the second died on the unique constraint (PostgreSQL;
    # SQLite's IMMEDIATE transactions already take its write lock at the start).
    with transaction.atomic():
        hold_load_lock(on_wait)
        report = _load(files, skipped, force=force, require_fields=require_fields, strict=strict)
    if report.created or report.updated or report.removed:
        analyze_register_tables()
    report.registers = [slug_from_path(str(p)) for p, _ in files]
    report.shared_ids = shared_row_ids()
    return report


#: The advisory lock key of a register load on PostgreSQL (any constant the project owns).
LOAD_LOCK = 0x6D6370_0001
LOAD_WAIT = "another register load is running: waiting for it to finish"


def hold_load_lock(on_wait: Callable[[str], None] | None = None) -> None:
    """Hold the register-load lock until the transaction ends, waiting for a load that holds it."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [LOAD_LOCK])
        if cursor.fetchone()[0]:
            return
        if on_wait is not None:
            on_wait(LOAD_WAIT)
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOAD_LOCK])


def _load(files, skipped, *, force: bool, require_fields: bool, strict: bool) -> LoadReport:
    report = LoadReport(skipped_files=[str(path) for path in skipped])
    # A file whose bytes match what was loaded last time was valid then and is skipped unparsed.
    # A file read with older rules is read again even if its bytes did not change.
    # A register loaded before its text was kept (registers.RegisterSource) is read again once.
    known = {
        slug: digest
        for slug, digest, rules, kept in models.Register.objects.filter(
            slug__in=[slug_from_path(str(p)) for p, _ in files]
        ).values_list("slug", "content_hash", "read_with", "source")
        if rules == READING_RULES and kept is not None
    }
    changed = [
        (path, text)
        for path, text in files
        if force or known.get(slug_from_path(str(path))) != hashlib.sha256(text.encode()).hexdigest()
    ]
    docs = parse_files(changed, require_fields=require_fields)
    changed_paths = {path for path, _ in changed}
    unchanged = [slug_from_path(str(path)) for path, _ in files if path not in changed_paths]
    if unchanged:
        report.unchanged += models.Row.objects.filter(register__slug__in=unchanged).count()
        report.unchanged_registers.extend(unchanged)
    if docs:
        RunWriter(Renderer(_link_targets()), effective_roots(), report, force=force).write(docs)
        bump_data_version()
    paths_of = {slug_from_path(str(path)): str(path) for path, _ in files}
    for slug, found in models.Register.objects.filter(slug__in=paths_of).values_list("slug", "findings"):
        report.findings[paths_of[slug]] = found
    if strict and (errors := report.lint_errors()):
        raise RegisterLoadError(f"--strict: {len(errors)} lint error(s), first {errors[0]}")
    return report


def shared_row_ids() -> dict[str, list[str]]:
    """Row IDs that more than one loaded register uses, with those registers' slugs."""
    shared: dict[str, list[str]] = {}
    pairs = models.Row.objects.order_by("row_id", "register__slug").values_list("row_id", "register__slug")
    for row_id, slug in pairs:
        shared.setdefault(row_id, []).append(slug)
    return {row_id: slugs for row_id, slugs in shared.items() if len(slugs) > 1}


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
