"""The README's start command, run for real: `scripts/start.sh` serves the dashboard, and a `kill`
of the pid it prints stops everything it started (issue 26, row 11: gunicorn, its workers, the
worker supervisor and the probe worker outlived it); and scripts/serve.sh beside another dashboard
on the same machine (issue 21, row 12)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
import urllib.request

from comparison.probes.processes import process_tree
from tests.support.processes import PROJECT, fetch, free_port, server

STARTED_WITHIN = 150  # seconds: migrate, collectstatic and the first load on an empty database
STOPPED_WITHIN = 30


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


def test_kill_of_the_start_script_stops_everything_it_started(tmp_path):
    port = free_port()
    env = os.environ | {
        "DATABASE_URL": f"sqlite:///{tmp_path}/start.sqlite3",
        "MCP_COMPARE_SECRET_KEY": "start-script-test",
        "MCP_COMPARE_STATIC_ROOT": str(tmp_path / "static"),
        "MCP_COMPARE_CACHE_DIR": str(tmp_path / "cache"),
        "MCP_COMPARE_PEERS": "0",
        "MCP_COMPARE_PROBE_WORKERS": "1",
        "MCP_COMPARE_WEB_WORKERS": "1",
        "HOST": "127.0.0.1",
        "PORT": str(port),
    }
    log = (tmp_path / "start.log").open("w")
    script = subprocess.Popen(
        ["bash", str(PROJECT / "scripts" / "start.sh")], env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + STARTED_WITHIN
        while not healthy(port):
            assert script.poll() is None, (tmp_path / "start.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "not serving in time: " + (tmp_path / "start.log").read_text()[-3000:]
            time.sleep(0.5)
        printed = (tmp_path / "start.log").read_text()
        last = printed[printed.index("dashboard: ") :]
        assert "log in: admin, password " in last, "the password is repeated last, where it is seen"
        assert "manage.py changepassword admin" in last
        # Issue 52, stumble 1: every step says what it does and when (a first start is never silent).
        steps = re.findall(r"^\[start +\d+s\] (.+)$", printed, re.M)
        assert len(steps) >= 8, printed[:3000]
        assert any(step.startswith("loading the shipped registers") for step in steps)
        assert steps[-1].startswith("starting 1 probe worker(s) and the web server")
        # Issue 37, stumble 3: the spec's citations are verified out of the box, offline.
        assert "170 exact, 2 moved, 0 drifted, 0 file missing, 27 no quote" in printed
        started = process_tree.members(script.pid)
        assert len(started) >= 4, "the script, the server and its worker, a supervisor and its probe worker"
        os.kill(script.pid, signal.SIGTERM)  # what `kill <pid>` sends
        script.wait(timeout=STOPPED_WITHIN)
        deadline = time.monotonic() + STOPPED_WITHIN
        while (left := process_tree.members(script.pid) - {script.pid}) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert left == set(), f"still running after kill: {left}"
        assert not healthy(port)
    finally:
        for pid in process_tree.members(script.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if script.poll() is None:
            script.kill()
            script.wait(timeout=10)
        log.close()


def test_two_dashboards_serve_side_by_side_without_a_shared_control_socket(tmp_path, lane_database):
    """scripts/serve.sh as a machine with two dashboards runs it (issue 21, row 12): gunicorn's
    control socket is per user by default (~/.gunicorn/gunicorn.ctl), so two dashboards fought over it."""
    first, second = free_port(), free_port()
    env = {"DATABASE_URL": lane_database, "MCP_COMPARE_WEB_WORKERS": "1", "HOME": str(tmp_path)}
    with (
        server(["scripts/serve.sh"], first, env={**env, "PORT": str(first)}),
        server(["scripts/serve.sh"], second, env={**env, "PORT": str(second)}),
    ):
        assert fetch(f"http://127.0.0.1:{first}/healthz")[0] == 200
        assert fetch(f"http://127.0.0.1:{second}/healthz")[0] == 200
    assert not (tmp_path / ".gunicorn").exists()
