"""A register load is not an outage: pages requested from another process while a large load
writes answer 200 (SQLite in WAL mode with a busy timeout; PostgreSQL in its lane)."""

from __future__ import annotations

import sys
import time
import urllib.request

import pytest

from tests.support.processes import free_port, manage, running, server
from tests.support.register_text import register_text

#: Each database locks in its own way: these run in the SQLite lane too (.ci/run).
pytestmark = pytest.mark.every_database

PAGES = ["/", "/?revision=2025-06-18&host=opencode-v1&host_mode=lacks", "/matrix/", "/registers/"]
#: Four forced loads: long enough that requests overlap them on a slow or busy machine (two were
#: over before the first cold page answered, now and then, in a lane running two workers).
LOAD_FOUR_TIMES = (
    "import sys, django; django.setup(); from pathlib import Path; "
    "from registers.loader import load_registers; "
    "[load_registers([Path(sys.argv[1])], force=True) for _ in range(4)]"
)


@pytest.fixture
def shared(lane_database):
    return {
        "DATABASE_URL": lane_database,
        "DJANGO_SETTINGS_MODULE": "mcp_compare.settings",
        "MCP_COMPARE_SECRET_KEY": "k" * 50,
    }


def test_pages_answer_while_a_large_load_writes(shared, tmp_path):
    folder = tmp_path / "registers"
    folder.mkdir()
    for index in range(8):
        (folder / f"set-{index:02}.md").write_text(
            register_text(120, prefix=f"R{chr(65 + index)}", title=f"Set {index}"), encoding="utf-8"
        )
    manage("load_registers", str(folder), env=shared, timeout=300)
    port = free_port()
    serve = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
    statuses: list[int] = []
    during = 0
    with server(serve, port, env=shared):
        with running([sys.executable, "-c", LOAD_FOUR_TIMES, str(folder)], env=shared) as loader:
            deadline = time.monotonic() + 240
            while loader.poll() is None and time.monotonic() < deadline:
                for page in PAGES:
                    try:
                        with urllib.request.urlopen(f"http://127.0.0.1:{port}{page}", timeout=30) as response:
                            statuses.append(response.status)
                    except urllib.error.HTTPError as error:
                        statuses.append(error.code)
                    during += loader.poll() is None
            assert loader.wait(timeout=10) == 0, "the loads succeeded"
    assert during >= 4, f"only {during} requests ran during the load"
    assert set(statuses) == {200}, statuses
