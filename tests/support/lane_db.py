"""A database of the lane's own kind (SQLite file, or a fresh PostgreSQL database beside the test
database) for tests whose processes must share committed data: workers, commands, servers."""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg


def lane_url() -> str:
    return os.environ.get("DATABASE_URL", "")


def is_postgres() -> bool:
    return lane_url().startswith(("postgres://", "postgresql://"))


def _admin_url(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(
        (
            parts.scheme.replace("postgres", "postgresql", 1) if parts.scheme == "postgres" else parts.scheme,
            parts.netloc,
            "/postgres",
            parts.query,
            "",
        )
    )


def _new_postgres_database(template: str = "") -> str:
    """A new PostgreSQL database beside the lane's (a copy of `template` if named); its URL."""
    name = f"mcp_compare_{uuid.uuid4().hex[:12]}"
    copy_of = f' TEMPLATE "{template}"' if template else ""
    with psycopg.connect(_admin_url(lane_url()), autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"{copy_of}')
    parts = urlsplit(lane_url())
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, ""))


def create(tmp_path: Path) -> str:
    """A new empty database; its URL."""
    if not is_postgres():
        return f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    return _new_postgres_database()


def copy(template: str, tmp_path: Path) -> str:
    """A new database with the template's content (a migrated schema, once per test session,
    instead of running migrations in every test that starts processes)."""
    if not is_postgres():
        import shutil

        target = tmp_path / "shared.sqlite3"
        shutil.copyfile(template.removeprefix("sqlite:///"), target)
        return f"sqlite:///{target}"
    return _new_postgres_database(template=urlsplit(template).path.lstrip("/"))


def drop(url: str) -> None:
    if not url.startswith(("postgres://", "postgresql://")):
        return
    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(_admin_url(lane_url()), autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def query(url: str, sql: str, params: tuple = ()) -> list[tuple]:
    """Rows of one statement on the shared database, read from this process (committed data only)."""
    if url.startswith("sqlite:///"):
        import sqlite3

        with sqlite3.connect(url.removeprefix("sqlite:///"), timeout=20) as connection:
            return connection.execute(sql.replace("%s", "?"), params).fetchall()
    with psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True) as connection:
        return connection.execute(sql, params).fetchall()
