"""Backup, restore and the data they keep (issue 32, row 15): `manage.py backup` and `restore`
give back every row of every table exactly, timestamps to the microsecond, on the lane's
database (SQLite, and PostgreSQL through pg_dump and pg_restore), and say what is wrong with a
file that is not a backup."""

from __future__ import annotations

import hashlib

import pytest
from django.apps import apps

from tests.support import lane_db
from tests.support.processes import manage
from tests.support.register_text import register_text

TABLES = ("registers_register", "registers_row", "registers_citation", "registers_label", "registers_dataversion")


def fingerprint(url: str, without: tuple[str, ...] = ()) -> dict[str, str]:
    """Per table: a digest of every row in key order, its columns by name (SQLite rebuilds a table
    to change a column's type, which changes the order of its columns), leaving out `without`."""
    found = {}
    for table in TABLES:
        model = next(m for m in apps.get_models() if m._meta.db_table == table)
        names = sorted(field.column for field in model._meta.concrete_fields if field.column not in without)
        columns = ", ".join(f'"{name}"' for name in names)
        rows = lane_db.query(url, f"SELECT {columns} FROM {table} ORDER BY id")  # noqa: S608 - fixed names
        found[table] = hashlib.sha256(repr(rows).encode()).hexdigest()
    return found


@pytest.fixture
def shared(lane_database, tmp_path):
    folder = tmp_path / "registers"
    folder.mkdir()
    (folder / "kept.md").write_text(register_text(40, prefix="BK", title="Kept"), encoding="utf-8")
    env = {"DATABASE_URL": lane_database, "MCP_COMPARE_SECRET_KEY": "k" * 50}
    manage("load_registers", str(folder), env=env, timeout=180)
    return env, folder


def test_a_backup_restores_every_row_exactly(shared, tmp_path):
    env, folder = shared
    url = env["DATABASE_URL"]
    before = fingerprint(url)
    stamps = lane_db.query(url, "SELECT loaded_at FROM registers_register ORDER BY id")
    backup = tmp_path / "backup.db"
    said = manage("backup", str(backup), env=env)
    assert str(backup) in said
    assert backup.stat().st_size > 0
    (folder / "kept.md").write_text(register_text(3, prefix="BK", title="Changed"), encoding="utf-8")
    manage("load_registers", str(folder), env=env)
    assert lane_db.query(url, "SELECT COUNT(*) FROM registers_row")[0][0] == 3
    manage("restore", str(backup), env=env)
    after = fingerprint(url)
    assert {table: after[table] == before[table] for table in TABLES if table != "registers_dataversion"} == {
        table: True for table in TABLES if table != "registers_dataversion"
    }
    assert lane_db.query(url, "SELECT loaded_at FROM registers_register ORDER BY id") == stamps, "microseconds kept"
    assert after["registers_dataversion"] != before["registers_dataversion"], "cached pages are made again"


def test_a_file_that_is_no_backup_is_refused_saying_so(shared, tmp_path):
    env, _ = shared
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(RuntimeError) as raised:
        manage("restore", str(junk), env=env)
    assert "junk.db" in str(raised.value)
    assert "Traceback" not in str(raised.value)
    with pytest.raises(RuntimeError) as raised:
        manage("backup", str(junk), env=env)
    assert "exists already" in str(raised.value)


def test_an_upgrade_in_place_keeps_every_row(shared):
    """The upgrade the README describes, on the lane's database: the tables as the previous
    release left them (its last migration), then this release's migrations applied over them."""
    env, _ = shared
    url = env["DATABASE_URL"]
    before, kept = fingerprint(url), fingerprint(url, without=("anchors",))
    # The previous release's last migrations; this one adds each row's anchors, computed from
    # what is stored of the row, so the upgrade gives back exactly what a load would.
    manage("migrate", "registers", "0008", "-v0", env=env, timeout=180)
    manage("migrate", "comparison", "0010", "-v0", env=env, timeout=180)
    assert fingerprint(url, without=("anchors",)) == kept, "the previous release's tables hold the same rows"
    manage("migrate", "-v0", env=env, timeout=180)
    assert fingerprint(url) == before, "every row kept through the upgrade, its anchors computed again"
    assert "40 unchanged" in manage("load_registers", str(shared[1]), env=env)
