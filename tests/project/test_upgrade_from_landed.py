"""A database made by the landed code before the house moves (issue 38) upgrades in place: the
project package moved to mcp_compare/, the pure modules to core packages and the queue to
comparison/tasks.py, while the apps kept their labels, tables and migrations.

`data/landed_6caaa36.sqlite3.gz` was made by commit 6caaa36 the way `scripts/start.sh` makes one
(migrate, load_registers, verify_citations, ensure_builtin_target, host_lab --load-snapshot), then a
finished fixture run of three scenarios, a schedule with its tick queued, and one more queued run
task: what a team's database holds. The test migrates it with this code and reads it back."""

from __future__ import annotations

import gzip
import shutil
import sqlite3
from pathlib import Path

from tests.support.processes import manage

LANDED = Path(__file__).parents[1] / "data" / "landed_6caaa36.sqlite3.gz"

READ_BACK = """
from django.test import Client
from django.utils.module_loading import import_string
from django_tasks_db.models import DBTaskResult
from comparison.models import ProbeRun
from registers.models import Row
client = Client(HTTP_HOST="127.0.0.1")  # a host the default ALLOWED_HOSTS names
run = ProbeRun.objects.get()
row = Row.objects.order_by("pk").first()
for url in ("/", f"/rows/{row.row_id}/", f"/probes/runs/{run.pk}/", "/hosts/", f"/api/v1/runs/{run.pk}/"):
    print("page", url, client.get(url, follow=True).status_code)
for path in DBTaskResult.objects.values_list("task_path", flat=True):
    print("task", path, type(import_string(path)).__name__)
"""


def table_counts(database: Path) -> dict[str, int]:
    with sqlite3.connect(database) as connection:
        tables = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        # Table names read from the file's own catalogue, quoted: nothing here comes from outside.
        return {table: connection.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0] for table in tables}  # noqa: S608


def test_a_database_made_by_the_landed_code_migrates_with_every_row_and_run_intact(tmp_path):
    database = tmp_path / "landed.sqlite3"
    with gzip.open(LANDED) as packed, database.open("wb") as unpacked:
        shutil.copyfileobj(packed, unpacked)
    before = table_counts(database)
    assert (before["registers_row"], before["comparison_proberesult"]) == (111, 3), "the landed data is there"

    env = {"DATABASE_URL": f"sqlite:///{database}", "MCP_COMPARE_SECRET_KEY": "k" * 50}
    manage("migrate", "--noinput", env=env)
    assert "[ ]" not in manage("showmigrations", env=env), "every migration applied"
    after = table_counts(database)
    # Migrating adds its own bookkeeping (applied migrations, new permissions); data only stays.
    grows = {"django_migrations", "auth_permission", "django_content_type", "sqlite_sequence"}
    kept = {table: after.get(table) for table in before if table not in grows}
    assert kept == {table: count for table, count in before.items() if table not in grows}, "every row kept"
    assert all(after[table] >= before[table] for table in grows & set(before)), "bookkeeping only grows"

    said = manage("shell", "-c", READ_BACK, env=env).splitlines()
    pages = [line for line in said if line.startswith("page ")]
    assert len(pages) == 5
    assert all(line.endswith(" 200") for line in pages), pages
    # Tasks queued before the upgrade name their functions by path; each still resolves to a task.
    assert sorted(line for line in said if line.startswith("task ")) == [
        "task comparison.tasks.execute_run_task Task",
        "task comparison.tasks.schedule_tick_task Task",
    ]
