"""manage.py load_registers [PATH ...] [--force]: parse register files and load them."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from registers.loader import RegisterLoadError, load_registers


class Command(BaseCommand):
    help = "Load register Markdown files (or directories of them) into the database, in one transaction."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="*", help="Register files or directories (default: the shipped registers).")
        parser.add_argument("--force", action="store_true", help="Reload files whose content has not changed.")
        parser.add_argument(
            "--allow-missing-fields",
            action="store_true",
            help="Load rows that lack one of the eight standard fields, with a warning (for drafts); by default "
            "such a row fails the load, naming the row and the field.",
        )
        parser.add_argument(
            "--strict",
            action="store_true",
            help="Refuse the load (and change nothing) when the register lint finds an error in a register.",
        )

    def handle(self, *args, **options):
        paths = [Path(p) for p in (options["paths"] or settings.REGISTER_DIRS)]
        try:
            report = load_registers(
                paths,
                force=options["force"],
                require_fields=not options["allow_missing_fields"],
                strict=options["strict"],
                on_wait=self.stderr.write,
            )
        except RegisterLoadError as error:
            raise CommandError(f"nothing loaded: {error}") from None
        if options["verbosity"] >= 2:
            for path in report.skipped_files:
                self.stdout.write(f"skipped (not a register): {path}")
            for slug in report.unchanged_registers:
                self.stdout.write(f"unchanged: {slug}")
        self.stdout.write(self.style.SUCCESS(report.summary()))
        # Each lint error, so a register that contradicts itself never loads without a word.
        for line in report.lint_errors():
            self.stderr.write(self.style.WARNING(f"lint error: {line}"))
        warnings = sum(1 for found in report.findings.values() for f in found if f["severity"] == "warning")
        if warnings:
            self.stderr.write(f"{warnings} lint warning(s): manage.py check_registers lists them")
        for row_id, slugs in report.shared_ids.items():
            self.stderr.write(
                self.style.WARNING(
                    f"warning: row ID {row_id} is in {len(slugs)} registers ({', '.join(slugs)}): "
                    f"/rows/{row_id}/ lists them instead of opening one"
                )
            )
