"""`manage.py restore PATH`: the database replaced by a backup; stop the server and workers first."""

from comparison.backups import restore
from comparison.management.backup_command import command

Command = command(restore, __doc__)
