"""How long hostile targets hold a run now (issue 21): the full fixture catalogue × 5 revisions
against targets that orphan a child or hold every call open, with the product's default limits
(15 s a call, two such calls in a row give up the revision, a 300 s run deadline); how soon Cancel
returns; how long another target's run waits in the queue with two real workers; how fast pages
answer 503 with PostgreSQL stopped (when its server binaries are here). Loopback only.

    .venv/bin/python bench/bench_hostile_runs.py [--quick]

--quick runs one revision per hostile target instead of five. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mcp_compare.settings")

import django

django.setup()

from comparison.probes.assessment.revisions import REVISIONS  # noqa: E402
from comparison.probes.processes.control import RunControl  # noqa: E402
from comparison.probes.run.runner import Hooks, ProbePlan, TargetSpec, run_probe  # noqa: E402
from comparison.probes.run.scenarios import FIXTURE  # noqa: E402
from tests.support import lane_db  # noqa: E402
from tests.support.processes import free_port, manage, running, server  # noqa: E402

STUBBORN = [sys.executable, "-m", "tests.support.stubborn"]


def alive(pids: list[int]) -> int:
    return sum(
        1 for pid in pids if Path(f"/proc/{pid}").exists() and " Z " not in Path(f"/proc/{pid}/stat").read_text()
    )


def hostile_run(name: str, spec: TargetSpec, revisions: list[str], pid_file: Path | None = None) -> None:
    started = time.monotonic()
    outcomes = run_probe(spec, ProbePlan(scenarios=list(FIXTURE), revisions=revisions), Hooks(control=RunControl(300)))
    seconds = time.monotonic() - started
    reasons = Counter(o.failure.split(" (")[0][:60] or o.verdict for o in outcomes)
    left = alive([int(p) for p in pid_file.read_text().split()]) if pid_file and pid_file.exists() else 0
    print(f"{name:34} {len(outcomes):4} cells in {seconds:6.1f} s; processes left: {left}; {dict(reasons)}")


def cancel_latency() -> None:
    asked = {}

    def cancel() -> bool:
        if time.monotonic() > asked["at"]:
            asked.setdefault("seen", time.monotonic())
            return True
        return False

    spec = TargetSpec("holds, orphans", "stdio", command=[*STUBBORN, "--stdio", "--hold", "--orphan"])
    asked["at"] = time.monotonic() + 3
    run_probe(spec, ProbePlan(scenarios=list(FIXTURE), revisions=list(REVISIONS)), Hooks(should_stop=cancel))
    print(f"{'Cancel to the run returning':34} {time.monotonic() - asked['seen']:6.2f} s (5 revisions in flight)")


def queue_wait(folder: Path) -> None:
    url = f"sqlite:///{folder / 'queue.sqlite3'}"
    env = {"DATABASE_URL": url, "MCP_COMPARE_TASK_BACKEND": "django_tasks_db.DatabaseBackend"}
    manage("migrate", "-v0", env=env, timeout=300)
    held = (
        "import sys; from comparison.models import ProbeTarget; from comparison.tasks import start_run; "
        "t = ProbeTarget.objects.create(name='held', transport='stdio', "
        "command=[sys.executable, '-m', 'tests.support.stubborn', '--stdio', '--hold']); "
        "print(start_run(target=t, revisions=[], scenarios=[]).pk)"
    )
    other = (
        "from comparison.services.probing import ensure_builtin_target; from comparison.tasks import start_run; "
        "print(start_run(target=ensure_builtin_target(), revisions=['2025-06-18'], scenarios=['text']).pk)"
    )
    command = [sys.executable, "manage.py", "probe_worker", "--interval", "0.2", "--no-startup-delay"]
    query = "SELECT status FROM comparison_proberun WHERE id = %s"
    with running(command, env=env), running(command, env=env):
        held_run = int(manage("shell", "-c", held, env=env).split()[-1])
        while lane_db.query(url, query, (held_run,))[0][0] != "running":
            time.sleep(0.1)
        enqueued = time.monotonic()
        other_run = int(manage("shell", "-c", other, env=env).split()[-1])
        while lane_db.query(url, query, (other_run,))[0][0] != "done":
            time.sleep(0.1)
        print(f"{'another target, 1 cell, 2 workers':34} done {time.monotonic() - enqueued:6.2f} s after enqueue")


def database_down() -> None:
    from tests.e2e.test_database_down import PAGES, fetch, private_postgres

    if not list(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl")):
        print("503 latency: no PostgreSQL server binaries here, skipped")
        return
    with private_postgres() as (database, (stop, _start)), tempfile.TemporaryDirectory() as home:
        manage("migrate", "-v0", env={"DATABASE_URL": database}, timeout=300)
        port = free_port()
        serving = {"DATABASE_URL": database, "PORT": str(port), "MCP_COMPARE_WEB_WORKERS": "2", "HOME": home}
        with server(["scripts/serve.sh"], port, env=serving):
            for page in PAGES:
                fetch(f"http://127.0.0.1:{port}{page}")
            stop()
            answers = [fetch(f"http://127.0.0.1:{port}{page}") for _ in range(3) for page in PAGES]
    seconds = sorted(a[3] for a in answers)
    codes = Counter(a[0] for a in answers)
    print(f"{'pages with PostgreSQL stopped':34} {dict(codes)}; {seconds[0]:.2f}–{seconds[-1]:.2f} s each")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    options = parser.parse_args()
    revisions = ["2025-06-18"] if options.quick else list(REVISIONS)
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        pid_file = folder / "pids"
        os.environ["STUBBORN_PIDS"] = str(pid_file)
        hostile_run(
            "stdio, orphaning child",
            TargetSpec("o", "stdio", command=[*STUBBORN, "--stdio", "--orphan"]),
            revisions,
            pid_file,
        )
        hostile_run(
            "stdio, holds every call",
            TargetSpec("h", "stdio", command=[*STUBBORN, "--stdio", "--hold"]),
            revisions,
            pid_file,
        )
        for hold in ("keepalive", "drip"):
            port = free_port()
            with server([*STUBBORN, "--port", str(port), "--hold", hold], port):
                spec = TargetSpec(hold, "http", url=f"http://127.0.0.1:{port}/mcp")
                hostile_run(f"http, holds every call ({hold})", spec, revisions)
        cancel_latency()
        queue_wait(folder)
    database_down()


if __name__ == "__main__":
    main()
