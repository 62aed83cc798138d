"""The probe worker for real: `manage.py probe_worker` processes on the lane's database (a file
SQLite, or a fresh PostgreSQL database), killed with SIGKILL, cancelled under, and starved by a
locked database. Every process is ended by its pid."""

from __future__ import annotations

import json
import os
import signal
import sys
import time

import pytest

from comparison.probes.run.scenarios import FIXTURE
from language.vocabulary import REVISIONS
from tests.support import lane_db
from tests.support.processes import alive, end_group, manage, running, wait_for

#: Each database locks in its own way: these run in the SQLite lane too (.ci/run).
pytestmark = pytest.mark.every_database

LEASE = 3.0
STATUS = "SELECT status, done, total FROM comparison_proberun WHERE id = %s"


@pytest.fixture
def shared(lane_database):
    url = lane_database
    env = {
        "DATABASE_URL": url,
        "MCP_COMPARE_TASK_BACKEND": "django_tasks_db.DatabaseBackend",
        "MCP_COMPARE_RUN_LEASE": str(LEASE),
        # One revision at a time, each answer held (tests/support/slow_stdio.py): results arrive a
        # revision every second or two, so a test can act while a run goes on.
        "MCP_COMPARE_STDIO_PARALLEL": "1",
        "SLOW_STDIO_DELAY": "0.05",
    }
    return url, env


#: The built-in fixture behind a relay that holds each answer (tests/support/slow_stdio.py): a full run
#: lasts seconds, so a test can kill, cancel or lock while it goes on, whatever the machine's speed.
SLOW_TARGET = (
    "from comparison.models import ProbeTarget; "
    "target, _ = ProbeTarget.objects.get_or_create(name='slow fixture', defaults={'transport': 'stdio', "
    f"'command': [{sys.executable!r}, 'tests/support/slow_stdio.py'], 'upstream': 'fixture', "
    # A target gets only its own environment (issue 32), so the delay is configured on it.
    "'env': {'SLOW_STDIO_DELAY': __import__('os').environ['SLOW_STDIO_DELAY']}}); "
)


def enqueue(env: dict, scenarios: str = "[]", revisions: str = "[]", *, slow: bool = False) -> int:
    builtin = "from comparison.services.probing import ensure_builtin_target; target = ensure_builtin_target(); "
    target = SLOW_TARGET if slow else builtin
    code = (
        f"{target}from comparison.tasks import start_run; "
        f"print(start_run(target=target, revisions={revisions}, scenarios={scenarios}).pk)"
    )
    return int(manage("shell", "-c", code, env=env).split()[-1])


def worker(env: dict, log):
    return running(
        [sys.executable, "manage.py", "probe_worker", "--interval", "0.2", "--no-startup-delay"], env=env, log=log
    )


#: The cells of a whole fixture run of a stdio target: every scenario at every revision it exists in.
FULL_RUN = sum(1 for s in FIXTURE for r in REVISIONS if s.applies(r, "stdio"))


def status(url: str, run: int) -> tuple[str, int, int]:
    return lane_db.query(url, STATUS, (run,))[0]


def test_the_worker_executes_a_queued_run(shared, tmp_path):
    """The real path: the web side enqueues in the database, `manage.py probe_worker` runs it."""
    url, env = shared
    run = enqueue(env, scenarios="['text', 'audio']", revisions="['2025-06-18']")
    assert status(url, run) == ("queued", 0, 2)
    with worker(env, tmp_path / "worker.log"):
        wait_for(lambda: status(url, run)[0] == "done", 60, "the run done")
    assert status(url, run) == ("done", 2, 2)


def test_a_killed_worker_leaves_an_interrupted_run_and_a_free_target(shared, tmp_path):
    url, env = shared
    run = enqueue(env, slow=True)
    with worker(env, tmp_path / "first.log") as first:
        wait_for(lambda: status(url, run)[1] >= 20, 60, "20 results")
        first.send_signal(signal.SIGKILL)
        end_group(first)
    killed_at = time.monotonic()
    state, done, total = status(url, run)
    assert (state, total) == ("running", FULL_RUN)
    assert 20 <= done < total
    with worker(env, tmp_path / "second.log"):
        wait_for(lambda: status(url, run)[0] == "interrupted", LEASE + 10, "the run interrupted")
        assert time.monotonic() - killed_at < LEASE + 10
        kept = lane_db.query(url, "SELECT COUNT(*) FROM comparison_proberesult WHERE run_id = %s", (run,))[0][0]
        assert kept == done, "partial results are kept"
        error = lane_db.query(url, "SELECT error FROM comparison_proberun WHERE id = %s", (run,))[0][0]
        assert "stopped renewing its 3-second lease" in error
        task_id = lane_db.query(url, "SELECT task_id FROM comparison_proberun WHERE id = %s", (run,))[0][0]
        task = lane_db.query(
            url,
            "SELECT status FROM django_tasks_database_dbtaskresult WHERE CAST(id AS TEXT) IN (%s, %s)",
            (task_id, task_id.replace("-", "")),
        )
        assert task == [("FAILED",)]
        again = enqueue(env, slow=True, scenarios="['text']", revisions="['2025-06-18']")
        wait_for(lambda: status(url, again)[0] == "done", 60, "a new run on the freed target")


def test_cancel_ends_a_running_run_and_the_worker_goes_on(shared, tmp_path):
    url, env = shared
    run = enqueue(env, slow=True)
    with worker(env, tmp_path / "worker.log") as process:
        wait_for(lambda: status(url, run)[1] >= 10, 60, "10 results")
        manage(
            "shell",
            "-c",
            f"from comparison.models import ProbeRun; from comparison.services.probing import cancel_run; "
            f"print(cancel_run(run=ProbeRun.objects.get(pk={run})))",
            env=env,
        )
        assert status(url, run)[0] == "cancelled"
        # Results arrive every tenth of a second while a run goes on: a second without one is a
        # stopped run.
        time.sleep(1)
        settled = status(url, run)[1]
        time.sleep(1)
        state, done, total = status(url, run)
        assert (state, done) == ("cancelled", settled), "the worker stopped writing"
        assert done < total
        assert process.poll() is None
        after = enqueue(env, slow=True, scenarios="['text']", revisions="['2025-06-18']")
        wait_for(lambda: status(url, after)[0] == "done", 60, "the next run")


def test_the_worker_waits_out_a_locked_database(shared, tmp_path):
    """A write lock held for seconds (a long register load) makes the worker's writes fail; it
    retries with backoff instead of exiting, and the run ends done. The lock is taken after the
    first revision's results and held until a write met it: the revisions run one after another,
    so the second one's results are written while it is held, whatever the machine's speed."""
    url, env = shared
    env = {
        **env,
        "MCP_COMPARE_SQLITE_BUSY_TIMEOUT": "0.2",
        "MCP_COMPARE_COMMAND_STATEMENT_TIMEOUT": "0.5",
        "MCP_COMPARE_STDIO_PARALLEL": "1",
    }
    run = enqueue(env, slow=True, revisions="['2025-06-18', '2025-11-25']")
    hold = (
        "deadline = time.monotonic() + 30\n"
        "while time.monotonic() < deadline and not os.path.exists(sys.argv[2]): time.sleep(0.05)\n"
    )
    lock = (
        "import os, sqlite3, sys, time\nc = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('BEGIN EXCLUSIVE')\nprint('locked', flush=True)\n" + hold + "c.execute('COMMIT')\n"
        if not lane_db.is_postgres()
        else "import os, psycopg, sys, time\nc = psycopg.connect(sys.argv[1])\n"
        "c.execute('LOCK TABLE comparison_proberesult IN ACCESS EXCLUSIVE MODE')\nprint('locked', flush=True)\n"
        + hold
        + "c.commit()\n"
    )
    target = (
        url.removeprefix("sqlite:///") if not lane_db.is_postgres() else url.replace("postgres://", "postgresql://")
    )
    log, release = tmp_path / "worker.log", tmp_path / "release"
    met = ("transient database error", "database error in the worker loop")
    with worker(env, log) as process:
        wait_for(lambda: status(url, run)[1] >= 5, 60, "the first revision's results")
        with running([sys.executable, "-c", lock, target, str(release)]):
            wait_for(lambda: any(line in log.read_text() for line in met), 40, "a write meeting the lock")
            release.touch()
        wait_for(lambda: status(url, run)[0] == "done", 60, "the run done")
        assert process.poll() is None, "the worker is still there"


def test_two_workers_run_two_targets_at_once_and_never_the_same_run(shared, tmp_path):
    url, env = shared
    code = (
        "import sys; from comparison.models import ProbeTarget; from comparison.tasks import start_run; "
        "t = ProbeTarget.objects.create(name='second fixture', transport='stdio', "
        "command=[sys.executable, '-m', 'comparison.probes.fixture.fixture_server', '--stdio'], upstream='fixture'); "
        "print(start_run(target=t, revisions=['2025-06-18', '2025-11-25'], scenarios=[]).pk)"
    )
    first = enqueue(env, slow=True, revisions="['2025-06-18', '2025-11-25']")
    second = int(manage("shell", "-c", code, env=env).split()[-1])
    with worker(env, tmp_path / "one.log"), worker(env, tmp_path / "two.log"):
        wait_for(lambda: status(url, first)[0] == status(url, second)[0] == "done", 120, "both runs done")
    rows = lane_db.query(
        url,
        "SELECT id, worker, started_at, finished_at FROM comparison_proberun WHERE id IN (%s, %s) ORDER BY id",
        (first, second),
    )
    (_, worker_a, start_a, end_a), (_, worker_b, start_b, end_b) = rows
    assert worker_a != worker_b, "each worker took one run"
    assert str(start_b) < str(end_a), "the runs ran at the same time"
    assert str(start_a) < str(end_b), "the runs ran at the same time"
    claims = lane_db.query(url, "SELECT worker_ids FROM django_tasks_database_dbtaskresult")
    assert len(claims) == 2
    assert all(len(json.loads(ids) if isinstance(ids, str) else ids) == 1 for (ids,) in claims), "claimed once"
    results = lane_db.query(
        url,
        "SELECT run_id, COUNT(*), COUNT(DISTINCT scenario || requested_revision) FROM comparison_proberesult "
        "GROUP BY run_id ORDER BY run_id",
    )
    two = sum(1 for s in FIXTURE for r in ("2025-06-18", "2025-11-25") if s.applies(r, "stdio"))
    assert [(count, distinct) for _, count, distinct in results] == [(two, two), (two, two)]


#: A stdio target that answers the handshake, then holds every call open, with a grandchild that
#: leaves the session, ignores SIGTERM and keeps stdout open (tests/support/stubborn.py).
STUBBORN_TARGET = (
    "from comparison.models import ProbeTarget; "
    "target, _ = ProbeTarget.objects.get_or_create(name='stubborn', defaults={'transport': 'stdio', "
    f"'command': [{sys.executable!r}, '-m', 'tests.support.stubborn', '--stdio', '--hold', '--orphan'], "
    "'env': {'STUBBORN_PIDS': __import__('os').environ['STUBBORN_PIDS']}}); "
)


def enqueue_stubborn(env: dict) -> int:
    code = f"{STUBBORN_TARGET}from comparison.tasks import start_run; print(start_run(target=target, revisions=[], scenarios=[]).pk)"
    return int(manage("shell", "-c", code, env=env).split()[-1])


def alive_pids(path) -> list[int]:
    found = [int(pid) for pid in path.read_text().split()] if path.exists() else []
    return [pid for pid in found if alive(pid)]


def test_cancel_frees_a_worker_held_by_an_orphaning_target(shared, tmp_path):
    """Issue 21 row 1: Cancel used to mark the run cancelled while the worker stayed blocked in a pipe
    read for good; now the worker ends the target's every process and takes the next run."""
    url, env = shared
    env = {**env, "STUBBORN_PIDS": str(tmp_path / "pids")}
    held = enqueue_stubborn(env)
    try:
        with worker(env, tmp_path / "worker.log") as process:
            wait_for(lambda: status(url, held)[0] == "running" and len(alive_pids(tmp_path / "pids")) >= 2, 60, "held")
            manage(
                "shell",
                "-c",
                f"from comparison.models import ProbeRun; from comparison.services.probing import cancel_run; "
                f"cancel_run(run=ProbeRun.objects.get(pk={held}))",
                env=env,
            )
            after = enqueue(env, scenarios="['text']", revisions="['2025-06-18']")
            wait_for(lambda: status(url, after)[0] == "done", 60, "the next run done by the same worker")
            assert process.poll() is None
            wait_for(lambda: not alive_pids(tmp_path / "pids"), 20, "every process of the target ended")
        assert status(url, held)[0] == "cancelled"
    finally:
        for pid in alive_pids(tmp_path / "pids"):
            os.kill(pid, signal.SIGKILL)


def test_a_held_open_target_neither_blocks_another_target_nor_outlives_its_deadline(shared, tmp_path):
    """Issue 21 rows 1–2: two workers; the held-open target's run ends at its deadline with every
    cell saying why, while another target's run is done meanwhile by the other worker."""
    url, env = shared
    env = {**env, "STUBBORN_PIDS": str(tmp_path / "pids"), "MCP_COMPARE_RUN_DEADLINE": "20"}
    held = enqueue_stubborn(env)
    try:
        with worker(env, tmp_path / "one.log"), worker(env, tmp_path / "two.log"):
            wait_for(lambda: status(url, held)[0] == "running", 60, "the held-open run running")
            other = enqueue(env, scenarios="['text']", revisions="['2025-06-18']")
            wait_for(lambda: status(url, other)[0] == "done", 60, "the other target's run done")
            assert status(url, held)[0] == "running", "while the held-open run still runs"
            wait_for(lambda: status(url, held)[0] == "done", 90, "the held-open run ended by its deadline")
            wait_for(lambda: not alive_pids(tmp_path / "pids"), 20, "every process of the target ended")
    finally:
        for pid in alive_pids(tmp_path / "pids"):
            os.kill(pid, signal.SIGKILL)
    _, done, total = status(url, held)
    assert done == total == FULL_RUN, "every cell has a verdict"
    error = lane_db.query(url, "SELECT error FROM comparison_proberun WHERE id = %s", (held,))[0][0]
    assert error == "the run's 20-second deadline passed: the cells not probed by then failed"
    failures = dict(
        lane_db.query(
            url,
            "SELECT failure, COUNT(*) FROM comparison_proberesult WHERE run_id = %s GROUP BY failure",
            (held,),
        )
    )
    assert failures.get("not probed: the run's 20-second deadline passed", 0) > 0, failures
    # "" is a cell answered before the deadline (the stubborn target answers prompts).
    assert set(failures) <= {
        "",
        "no response within 15 s",
        "not probed: the target stopped answering (2 calls in a row took the full 15 s limit)",
        "not probed: the run's 20-second deadline passed",
    }, failures
