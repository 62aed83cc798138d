"""`manage.py restore PATH`: the database replaced by a backup; stop the server and workers first."""

from mcp_compare.backups import restore
from mcp_compare.management.backup_command import command

Command = command(restore, __doc__)
