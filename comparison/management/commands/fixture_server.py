"""manage.py fixture_server --port N | --stdio: the fixture upstream (127.0.0.1 only)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from comparison.probes import fixture_server


class Command(BaseCommand):
    help = "Serve the fixture MCP upstream over Streamable HTTP on 127.0.0.1:PORT/mcp, or over stdio."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8931)
        parser.add_argument("--stdio", action="store_true")

    def handle(self, *args, **options):
        fixture_server.main(["--stdio"] if options["stdio"] else ["--port", str(options["port"])])
