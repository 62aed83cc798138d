"""`manage.py backup PATH`: the whole database to a new file, exact (mcp_compare.backups)."""

from mcp_compare.backups import backup
from mcp_compare.management.backup_command import command

Command = command(backup, __doc__)
