"""manage.py export_report --format md|html|json|csv [filters] -o FILE: what the row list shows, exported."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.http import QueryDict

from registers import exporting, filters
from registers.core.rowfilter import SINGLE_PARAMETERS

FILTER_OPTIONS = SINGLE_PARAMETERS


class Command(BaseCommand):
    help = "Export rows (all, or those the filters select, exactly as the row list's query parameters do)."

    def add_arguments(self, parser):
        parser.add_argument("--format", required=True, choices=sorted(exporting.CONTENT_TYPES))
        parser.add_argument("-o", "--output", default="-", help="A file to write (default: standard output).")
        parser.add_argument("--register", action="append", default=[], help="A register slug; repeatable.")
        parser.add_argument(
            "--base-url",
            default=None,
            help="The dashboard's address, for the HTML report's links (default: MCP_COMPARE_BASE_URL; "
            "without either, its links are relative to the dashboard's root).",
        )
        for name in FILTER_OPTIONS:
            parser.add_argument(f"--{name.replace('_', '-')}", dest=name, default="")

    def handle(self, *args, **options):
        query = QueryDict(mutable=True)
        query.setlist("register", options["register"])
        for name in FILTER_OPTIONS:
            if options[name]:
                query[name] = options[name]
        row_filter = filters.parse(query)
        if row_filter.ignored:
            raise CommandError(f"unknown filter values: {', '.join(row_filter.ignored)}")
        base_url = settings.BASE_URL if options["base_url"] is None else options["base_url"]
        chunks = exporting.export_chunks(options["format"], row_filter, base_url=base_url)
        if options["output"] == "-":
            for chunk in chunks:
                self.stdout.write(chunk, ending="")
            return
        try:
            with open(options["output"], "w", encoding="utf-8", newline="") as handle:
                for chunk in chunks:
                    handle.write(chunk)
        except OSError as error:
            raise CommandError(f"{options['output']}: {error.strerror}") from None
        self.stderr.write(f"wrote {options['output']}")
