"""The `backup` and `restore` commands: one path in, one line out, a BackupError as a clean error."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from mcp_compare.backups import BackupError


def command(action: Callable[[Path], str], summary: str) -> type[BaseCommand]:
    class Command(BaseCommand):
        help = summary

        def add_arguments(self, parser):
            parser.add_argument("path", help="the backup file")

        def handle(self, *args, **options):
            try:
                self.stdout.write(action(Path(options["path"])))
            except BackupError as error:
                raise CommandError(str(error)) from None

    return Command
