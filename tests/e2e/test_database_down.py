"""The database goes away under a served dashboard (issue 21, row 5): a private PostgreSQL server of
this test's own, the dashboard served as scripts/serve.sh serves it, the server stopped, every
page and API request answered. It used to be a generic "Server Error (500)", some after a 10 s wait
for the pool; now it is 503 "the database is unavailable" with Retry-After, within the pool's wait
(MCP_COMPARE_WEB_DB_WAIT), and the pages come back when the database does. PostgreSQL lane only:
the server must be one this test may stop."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.support import lane_db
from tests.support.processes import fetch, free_port, manage, server

pytestmark = pytest.mark.skipif(not lane_db.is_postgres(), reason="PostgreSQL lane: a server this test can stop")

PAGES = ["/", "/matrix/", "/probes/", "/registers/", "/playground/", "/accounts/login/", "/api/v1/targets/"]


def pg_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    assert found, "PostgreSQL's server binaries (the postgresql package) are installed by .ci/run"
    return found[-1].parent


def as_postgres(*command: str) -> list[str]:
    # The server refuses to run as root; CI runs as root, a developer may not.
    if os.geteuid() == 0:
        return ["su", "postgres", "-s", "/bin/sh", "-c", " ".join(f"'{part}'" for part in command)]
    return list(command)


@contextlib.contextmanager
def private_postgres():
    folder = Path(tempfile.mkdtemp(prefix="mcp-compare-pgdown-"))
    data, port = folder / "data", free_port()
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    pg_ctl = str(pg_bin() / "pg_ctl")
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1"

    def ctl(*args: str) -> None:
        subprocess.run(as_postgres(pg_ctl, "-D", str(data), *args), check=True, capture_output=True, timeout=120)

    try:
        subprocess.run(
            as_postgres(str(pg_bin() / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"),
            check=True,
            capture_output=True,
            timeout=120,
            cwd="/",
        )
        ctl("-l", str(folder / "log"), "-w", "-t", "60", "-o", options, "start")
        yield (
            f"postgres://postgres@127.0.0.1:{port}/postgres",
            (
                lambda: ctl("-m", "immediate", "-w", "stop"),
                lambda: ctl("-l", str(folder / "log"), "-w", "-t", "60", "-o", options, "start"),
            ),
        )
    finally:
        with contextlib.suppress(subprocess.SubprocessError):
            ctl("-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def test_pages_answer_503_while_postgresql_is_stopped_and_recover(tmp_path):
    with private_postgres() as (database, (stop, start)):
        env = {"DATABASE_URL": database}
        manage("migrate", "--noinput", "-v0", env=env, timeout=300)
        port = free_port()
        serving = {**env, "PORT": str(port), "MCP_COMPARE_WEB_WORKERS": "2", "HOME": str(tmp_path)}
        with server(["scripts/serve.sh"], port, env=serving):
            base = f"http://127.0.0.1:{port}"
            assert [fetch(base + page)[0] for page in PAGES] == [200] * len(PAGES)
            stop()
            seen = []
            for _ in range(2):  # broken pooled connections first, then waits for new ones
                for page in PAGES:
                    status, headers, body, seconds = fetch(base + page)
                    seen.append((page, status, round(seconds, 2)))
                    if status == 200:  # a page that needs no database (playground, login form) still serves
                        continue
                    assert status == 503, (page, status, body[:300])
                    assert headers.get("Retry-After") == "5"
                    assert "The database is unavailable" in body
                    assert "Traceback" not in body
                    if page.startswith("/api/"):
                        assert headers["Content-Type"] == "application/json"
            assert {page for page, status, _ in seen if status == 200} == {"/playground/", "/accounts/login/"}, seen
            health = fetch(base + "/healthz")
            assert health[0] == 503
            print("503 latencies with the database down:", seen)
            start()
            # Each server process's pool reconnects on its own: every page, whichever process
            # answers, comes back.
            deadline = time.monotonic() + 30
            while (statuses := [fetch(base + page)[0] for page in PAGES]) != [200] * len(PAGES):
                assert set(statuses) <= {200, 503}, statuses
                assert time.monotonic() < deadline, f"the pages came back within 30 s of the database: {statuses}"
                time.sleep(0.5)
        assert not (tmp_path / ".gunicorn").exists(), "gunicorn made no control socket in HOME"
