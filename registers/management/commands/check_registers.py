"""manage.py check_registers PATH…: the register lint, for register authors and their CI."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from registers.core import lint, quotes
from registers.core.format import RegisterParseError, parse_register
from registers.loader import RegisterLoadError, register_files
from registers.verification import Verifier, effective_roots, parse_override, settings_roots

#: How a citation verdict reads as a lint finding; exact and line-only citations say nothing.
VERDICT_SEVERITY = {quotes.DRIFTED: lint.ERROR, quotes.FILE_MISSING: lint.ERROR, quotes.MOVED: lint.WARNING}


class Command(BaseCommand):
    help = (
        "Check register files for what they say against themselves: contradictions between labels, the Where "
        "cell and the status column, claims without a citation, citations no source covers, unknown labels, "
        "duplicate IDs, rows without a section and sections without a row; with --verify, citations drifted, "
        "moved or without a source in the configured sources. Exits 1 when any finding is an error."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="Register files or folders of them.")
        parser.add_argument("--json", action="store_true", help="Print the findings as JSON.")
        parser.add_argument(
            "--verify", action="store_true", help="Also check every quoted citation against the configured sources."
        )
        parser.add_argument(
            "--source",
            action="append",
            default=[],
            metavar="PREFIX=GITDIR[@COMMIT]",
            help="With --verify: read one source root (its key or one of its prefixes) from a local git directory.",
        )

    def handle(self, *args, **options):
        try:
            files, _ = register_files([Path(p) for p in options["paths"]])
        except RegisterLoadError as error:
            raise CommandError(str(error)) from None
        try:
            roots = effective_roots()
        except DatabaseError:
            # A register author's checkout may have no database yet: the settings' roots will do.
            roots = settings_roots()
        try:
            overrides = dict(parse_override(spec, roots) for spec in options["source"])
        except ValueError as error:
            raise CommandError(str(error)) from None
        verifier = Verifier(roots, overrides=overrides) if options["verify"] else None
        report = []
        try:
            for path, text in files:
                findings = lint.lint_text(text, str(path), roots)
                if verifier:
                    findings += citation_findings(text, str(path), verifier)
                report.append((str(path), sorted(findings, key=lambda f: (f.line, f.row, f.code, f.message))))
        finally:
            if verifier:
                verifier.close()
        totals = lint.counts([f for _, found in report for f in found])
        if options["json"]:
            payload = {
                "files": [{"path": p, "findings": [f.as_dict() for f in found]} for p, found in report],
                "counts": totals,
            }
            self.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False))
        else:
            for path, found in report:
                for f in found:
                    row = f"{f.row}: " if f.row else ""
                    self.stdout.write(f"{path}:{f.line}: {f.severity}: {row}{f.message} [{f.code}]")
            errors, warnings = totals[lint.ERROR], totals[lint.WARNING]
            self.stdout.write(f"{errors} error(s), {warnings} warning(s) in {len(report)} register(s)")
        if totals[lint.ERROR]:
            raise CommandError(f"{totals[lint.ERROR]} error(s)", returncode=1)


def citation_findings(text: str, path: str, verifier: Verifier) -> list[lint.Finding]:
    """A finding for each file citation whose quote does not hold in the configured sources."""
    try:
        doc = parse_register(text, path)
    except RegisterParseError:
        return []  # the lint has reported it
    # The verifier reads what it needs of a stored citation; a parsed one is given the same shape.
    register = SimpleNamespace(register=SimpleNamespace(subject_commit=doc.subject_commit))
    found = []
    unchecked: dict[str, list[int]] = {}  # why a source could not be read → the lines it left unchecked
    for row in doc.rows:
        for cited in row.citations:
            if cited.kind in ("url", "wire") or not cited.path:
                continue
            citation = SimpleNamespace(
                path=cited.path, line_start=cited.line_start, line_end=cited.line_end, quote=cited.quote, row=register
            )
            check = verifier.check(citation)
            if check.verdict == quotes.NO_SOURCE:
                unchecked.setdefault(check.detail, []).append(row.section_line or row.line)
                continue
            severity = VERDICT_SEVERITY.get(check.verdict)
            if severity is None:
                continue
            lines = f"{cited.line_start}" + (f"-{cited.line_end}" if cited.line_end else "")
            detail = f"now at line {check.line}" if check.verdict == quotes.MOVED else check.detail
            message = f"`{cited.path}:{lines}` {check.verdict}: {detail}"
            found.append(lint.Finding(severity, row.section_line or row.line, row.row_id, "citation", message))
    # One finding per source that could not be read, not one per citation it leaves unchecked.
    for detail, lines in unchecked.items():
        message = f"{len(lines)} citation(s) not checked: {detail}"
        found.append(lint.Finding(lint.WARNING, min(lines), "", "unchecked", message))
    return found
