"""One verdict on every database (issue 32, rows 8 and 9): two loads at once both succeed, one
after the other (PostgreSQL used to end the second with a raw IntegrityError); and on SQLite a
command started while a load holds the write lock says what is going on, instead of a false
"SQLite does not support JSONFields" from Django's checks."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from tests.support import lane_db
from tests.support.processes import PROJECT, manage, run_manage
from tests.support.register_text import register_text

HOLD_LOCK = (
    "import sys, time, django; django.setup(); from django.db import transaction; "
    "from registers.models import DataVersion; "
    "atomic = transaction.atomic(); atomic.__enter__(); DataVersion.objects.update(token='held'); "
    "print('held', flush=True); time.sleep(float(sys.argv[1]))"
)


@pytest.fixture
def shared(lane_database):
    return {"DATABASE_URL": lane_database, "MCP_COMPARE_SECRET_KEY": "k" * 50}


def load(folder, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess:
    return run_manage("load_registers", str(folder), env=env, timeout=timeout)


def registers_folder(tmp_path):
    folder = tmp_path / "registers"
    folder.mkdir()
    for index in range(4):
        text = register_text(150, prefix=f"C{chr(65 + index)}", title=f"Concurrent {index}")
        (folder / f"set-{index}.md").write_text(text, encoding="utf-8")
    return folder


def test_two_loads_at_once_both_succeed_and_load_everything_once(shared, tmp_path):
    folder = registers_folder(tmp_path)
    results: list[subprocess.CompletedProcess] = []
    threads = [threading.Thread(target=lambda: results.append(load(folder, shared))) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(320)
    assert [r.returncode for r in results] == [0, 0], [r.stderr[-1500:] for r in results]
    assert not any("Traceback" in r.stderr for r in results)
    summaries = sorted(r.stdout.splitlines()[0] for r in results)
    assert summaries == [
        "4 register(s): 0 created, 0 updated, 600 unchanged, 0 removed",
        "4 register(s): 600 created, 0 updated, 0 unchanged, 0 removed",
    ], summaries
    assert lane_db.query(shared["DATABASE_URL"], "SELECT COUNT(*) FROM registers_row")[0][0] == 600


def test_a_command_waiting_on_a_held_sqlite_lock_says_so(shared, tmp_path):
    if not shared["DATABASE_URL"].startswith("sqlite"):
        pytest.skip("PostgreSQL has no database-wide write lock; the load lock is tested above")
    env = {**shared, "MCP_COMPARE_SQLITE_BUSY_TIMEOUT": "1"}
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, "30"],
        cwd=PROJECT,
        env={**os.environ, **env, "DJANGO_SETTINGS_MODULE": "mcp_compare.settings"},
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        done = load(registers_folder(tmp_path), env, timeout=60)
    finally:
        holder.kill()
        holder.wait(10)
    assert done.returncode == 1
    assert "JSONField" not in done.stderr
    assert "Traceback" not in done.stderr
    assert "the database is busy" in done.stderr
    assert "MCP_COMPARE_SQLITE_BUSY_TIMEOUT" in done.stderr
    # Nothing was loaded, and the next command, with the lock free, works.
    assert "600 created" in manage("load_registers", str(tmp_path / "registers"), env=shared)
