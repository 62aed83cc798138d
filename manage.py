#!/usr/bin/env python
"""Django's command-line entry point for mcp-compare."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "comparison.settings")
    # runserver serves requests; every other command is a batch job with a longer SQL limit.
    os.environ.setdefault("MCP_COMPARE_PROCESS_ROLE", "web" if sys.argv[1:2] == ["runserver"] else "command")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
