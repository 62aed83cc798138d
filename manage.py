#!/usr/bin/env python
"""Django's command-line entry point for mcp-compare."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mcp_compare.settings")
    # runserver serves requests; every other command is a batch job with a longer SQL limit.
    os.environ.setdefault("MCP_COMPARE_PROCESS_ROLE", "web" if sys.argv[1:2] == ["runserver"] else "command")
    from django.core.management import execute_from_command_line
    from django.db import OperationalError

    try:
        execute_from_command_line(sys.argv)
    except OperationalError as error:
        if "database is locked" not in str(error):
            raise
        # SQLite's one writer held the database longer than this command's busy timeout.
        from django.conf import settings

        wait = settings.DATABASES["default"].get("OPTIONS", {}).get("timeout", "?")
        sys.stderr.write(
            f"error: the database is busy: another process (a register load, a probe run) held SQLite's "
            f"write lock for more than {wait} s (MCP_COMPARE_SQLITE_BUSY_TIMEOUT). Nothing was changed; "
            "run this again once it has finished.\n"
        )
        sys.exit(1)


if __name__ == "__main__":
    main()
