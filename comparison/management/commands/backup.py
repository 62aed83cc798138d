"""`manage.py backup PATH`: the whole database to a new file, exact (comparison.backups)."""

from comparison.backups import backup
from comparison.management.backup_command import command

Command = command(backup, __doc__)
