"""manage.py fixture_server --port N | --stdio [--revisions R1,R2]: the fixture upstream (127.0.0.1
only), optionally pinned to some revisions (comparison/probes/fixture/era_gate.py)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from comparison.probes.fixture import fixture_pinned


class Command(BaseCommand):
    help = "Serve the fixture MCP upstream over Streamable HTTP on 127.0.0.1:PORT/mcp, or over stdio."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8931)
        parser.add_argument("--stdio", action="store_true")
        parser.add_argument(
            "--revisions", default="all", help="Speak only these revisions (comma-separated), as a server of them does."
        )

    def handle(self, *args, **options):
        where = ["--stdio"] if options["stdio"] else ["--port", str(options["port"])]
        fixture_pinned.main([*where, "--revisions", options["revisions"]])
