"""manage.py verify_citations: check every file citation against its source at the pinned commit."""

from __future__ import annotations

import json
import time

from django.core.management.base import BaseCommand, CommandError

from registers.core import quotes
from registers.models import Citation
from registers.verification import Override, Verifier, effective_roots, parse_override, summary, verify


class Command(BaseCommand):
    help = (
        "Verify citations: exact (quote on the cited lines), moved (quote elsewhere: new line shown), drifted "
        "(quote not in the file), file missing, no quote (line-only citation; the line exists), no source "
        "(not configured or not synced). Exits 1 when any citation is drifted or its file is missing."
    )

    def add_arguments(self, parser):
        parser.add_argument("--register", action="append", default=[], help="Only this register (slug); repeatable.")
        parser.add_argument("--row", action="append", default=[], help="Only this row ID; repeatable.")
        parser.add_argument("--commit", default="", help="Check against this commit instead of the pinned ones.")
        parser.add_argument(
            "--source",
            action="append",
            default=[],
            metavar="PREFIX=GITDIR[@COMMIT]",
            help="Read one source root (its key or one of its prefixes) from a local git directory for this run.",
        )
        parser.add_argument("--json", action="store_true", help="Print the verdicts as JSON.")
        parser.add_argument("--no-save", action="store_true", help="Do not store verdicts on the citations.")

    def handle(self, *args, **options):
        roots = effective_roots()
        overrides = {key: override for key, override in (self._override(spec, roots) for spec in options["source"])}
        citations = Citation.objects.all()
        if options["register"]:
            citations = citations.filter(row__register__slug__in=options["register"])
        if options["row"]:
            citations = citations.filter(row__row_id__in=options["row"])
        # A re-check at another commit is a question, not a new verdict; a directory read at the
        # pinned commit (`--source spec=/clone`) verifies, and what it verifies is kept.
        pinned = {root.key: root.commit for root in roots}
        elsewhere = [key for key, o in overrides.items() if o.commit and not pinned.get(key, "").startswith(o.commit)]
        save = not (options["no_save"] or options["commit"] or elsewhere)
        started = time.perf_counter()
        verifier = Verifier(roots, overrides=overrides, commit=options["commit"])
        checks = verify(citations, verifier=verifier, save=save, progress=self._progress())
        elapsed = time.perf_counter() - started
        counts = summary(checks)
        if options["json"]:
            payload = {
                "checked": len(checks),
                "seconds": round(elapsed, 3),
                "counts": {verdict: counts.get(verdict, 0) for verdict in quotes.VERDICTS},
                "citations": [check.as_dict() for check in checks],
            }
            self.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False))
        else:
            self._table(checks)
            parts = ", ".join(f"{counts.get(v, 0)} {v}" for v in quotes.VERDICTS)
            self.stdout.write(f"{len(checks)} citations in {elapsed:.2f} s: {parts}" + ("" if save else " (not saved)"))
            if why := unsynced_sentence(checks):
                self.stdout.write(why)
        failing = sum(counts.get(verdict, 0) for verdict in quotes.FAILING)
        if failing:
            raise CommandError(f"{failing} citation(s) drifted or point at a missing file", returncode=1)

    def _progress(self):
        """A progress bar on a terminal's standard error for long runs; nothing when piped."""
        stream = self.stderr._out
        if not getattr(stream, "isatty", lambda: False)():
            return None

        def show(done: int, total: int) -> None:
            if done % 25 and done != total:
                return
            filled = done * 30 // max(total, 1)
            stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} citations")
            if done == total:
                stream.write("\n")
            stream.flush()

        return show

    def _override(self, spec: str, roots) -> tuple[str, Override]:
        try:
            return parse_override(spec, roots)
        except ValueError as error:
            raise CommandError(str(error)) from None

    def _table(self, checks) -> None:
        for check in checks:
            c = check.citation
            where = f"now at line {check.line}" if check.verdict == quotes.MOVED else check.detail
            self.stdout.write(f"{c.row.row_id:8} {c.locator[:70]:70} {check.verdict:12} {where}")


def unsynced_sentence(checks) -> str:
    """Why citations are "no source" and how to check them: their repositories are not here."""
    missing = [check for check in checks if check.verdict == quotes.NO_SOURCE]
    if not missing:
        return ""
    keys = sorted({check.source_key for check in missing if check.source_key})
    where = f" ({', '.join(keys)})" if keys else ""
    return (
        f"{len(missing)} no source: their repositories{where} are not on this machine, so they are unchecked, not "
        "wrong; `manage.py sync_sources` fetches them (it reaches GitHub), then run verify_citations again."
    )
