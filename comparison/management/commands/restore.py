"""`manage.py restore PATH`: the database replaced by a backup; stop the server and workers first."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from comparison.backups import BackupError, restore


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser):
        parser.add_argument("path", help="the backup file")

    def handle(self, *args, **options):
        try:
            self.stdout.write(restore(Path(options["path"])))
        except BackupError as error:
            raise CommandError(str(error)) from None
