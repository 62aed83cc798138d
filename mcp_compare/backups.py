"""Backup and restore of the whole database, exact to the microsecond (`dumpdata`/`loaddata`
round timestamps to milliseconds). SQLite: its online backup API, consistent while pages are
served and a load writes. PostgreSQL: pg_dump's custom format, restored by pg_restore in one
transaction. Credentials reach pg_dump and pg_restore in their environment, never their
command line, and nothing prints them."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

from django.conf import settings
from django.db import connection

from common.pagecache import bump_data_version
from comparison.probes.processes.child_env import child_environment

#: The longest a pg_dump or pg_restore may take.
TOOL_SECONDS = 3600


class BackupError(Exception):
    """A backup or restore that could not be made; the message says why."""


def backup(path: Path) -> str:
    """Write the database to `path` (which must not exist yet); what was written, in words."""
    if path.exists():
        raise BackupError(f"{path} exists already: name a new file")
    database = settings.DATABASES["default"]
    connection.close()
    if connection.vendor == "sqlite":
        _sqlite_copy(str(database["NAME"]), str(path))
        return f"SQLite database copied to {path} ({path.stat().st_size:,} bytes)"
    if connection.vendor == "postgresql":
        _pg("pg_dump", "--format=custom", "--no-owner", f"--file={path}")
        return f"PostgreSQL database {database['NAME']} dumped to {path} ({path.stat().st_size:,} bytes)"
    raise BackupError(f"no backup for the {connection.vendor} database engine")


def restore(path: Path) -> str:
    """Replace the database's contents with the backup at `path`. Stop the web server and the
    workers first: what they write meanwhile is lost."""
    if not path.is_file():
        raise BackupError(f"{path}: no such backup file")
    database = settings.DATABASES["default"]
    connection.close()
    if connection.vendor == "sqlite":
        _check_sqlite_backup(path)
        _sqlite_copy(str(path), str(database["NAME"]))
    elif connection.vendor == "postgresql":
        try:
            _pg("pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction", "--exit-on-error",
                f"--dbname={database['NAME']}", str(path))  # fmt: skip
        except BackupError as error:
            raise BackupError(f"{path}: nothing restored: {error}") from None
    else:
        raise BackupError(f"no restore for the {connection.vendor} database engine")
    # Pages cached before the restore were made from other data.
    bump_data_version()
    return f"restored {path} into the {connection.vendor} database"


def _sqlite_copy(source: str, target: str) -> None:
    timeout = float(settings.DATABASES["default"].get("OPTIONS", {}).get("timeout", 20))
    opened: list[sqlite3.Connection] = []
    try:
        opened.append(sqlite3.connect(source, timeout=timeout))
        opened.append(sqlite3.connect(target, timeout=timeout))
        opened[0].backup(opened[1])
    except sqlite3.Error as error:
        raise BackupError(f"the SQLite copy from {source} to {target} failed: {error}") from None
    finally:
        for handle in opened:
            handle.close()


def _check_sqlite_backup(path: Path) -> None:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as check:
            tables = {row[0] for row in check.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is not an SQLite backup: {error}") from None
    if "django_migrations" not in tables:
        raise BackupError(f"{path} is an SQLite file but not an mcp-compare backup (no django_migrations table)")


def _pg(tool: str, *args: str) -> None:
    database = settings.DATABASES["default"]
    env = {
        "PGHOST": str(database.get("HOST") or ""),
        "PGPORT": str(database.get("PORT") or ""),
        "PGUSER": str(database.get("USER") or ""),
        "PGPASSWORD": str(database.get("PASSWORD") or ""),
        "PGDATABASE": str(database["NAME"]),
    }
    try:
        done = subprocess.run(
            [tool, *args],
            env=child_environment({name: value for name, value in env.items() if value}),
            capture_output=True,
            text=True,
            timeout=TOOL_SECONDS,
            check=False,
        )
    except FileNotFoundError:
        raise BackupError(f"{tool} is not installed (Debian: apt-get install postgresql-client)") from None
    except subprocess.TimeoutExpired:
        raise BackupError(f"{tool} took longer than {TOOL_SECONDS} s") from None
    if done.returncode != 0:
        raise BackupError(f"{tool} exited {done.returncode}: {done.stderr.strip()[-1500:]}")
