"""`manage.py backup PATH`: the whole database to a new file, exact (comparison.backups)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from comparison.backups import BackupError, backup


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser):
        parser.add_argument("path", help="the backup file")

    def handle(self, *args, **options):
        try:
            self.stdout.write(backup(Path(options["path"])))
        except BackupError as error:
            raise CommandError(str(error)) from None
