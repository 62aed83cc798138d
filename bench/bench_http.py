"""The dashboard under a team's load: the server as scripts/start.sh runs it (scripts/serve.sh), on
PostgreSQL, with the shipped registers and a 511-row set of the real format loaded; 50 clients
for 20 s over 55 distinct filtered row-list and matrix URLs, first with the page cache empty, then warm.
Prints requests per second, p50/p95/p99, errors and the database connections the server holds,
for visitors and for logged-in users (each client a user of its own, with a session cookie):
logged-in users' listing pages share one cached copy with their own navigation put back.

    DATABASE_URL=postgres://user@127.0.0.1:5432/postgres .venv/bin/python bench/bench_http.py \
        [--server gunicorn|uvicorn|runserver] [--who visitors|users|both] [--mix filters|main]
        [--uploads] [--expensive CELLS]

`--mix main` spreads the clients over the main-page mix a team browses: the filter URLs, row
pages, register pages, the registers list, Disagreements, the probes page, a target page, the
Hosts pages and the playground.

`--uploads` adds the mix again with a 5,000-cell run stored and an upload from a proxy's CI every
3 s (each a new run: a new data version), for visitors and for the logged-in users.
`--expensive CELLS` adds a pass of 20 clients on compares, exports and audits of eight stored runs
of CELLS results each, beside 5 clients on a cheap page: that page's p95, and how many expensive
requests were answered and how many were told "busy" (503, Retry-After).

`runserver` is what scripts/start.sh ran before scripts/serve.sh existed: it measures the old
set-up (run it in a checkout of an older commit to get the "before" numbers).

DATABASE_URL names a PostgreSQL server; a scratch database is created on it and dropped after.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit, urlunsplit

import h11
import psycopg

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
HOSTS = ["opencode-v1", "opencode-v2", "lootbox", "cloudflare", "mcpx"]


def urls() -> list[str]:
    """55 distinct filter URLs of the row list and the matrix."""
    found = []
    for rev in REVISIONS:
        for mode in ("exists", "absent", "unknown"):
            found.append(f"/?revision={rev}&rev_mode={mode}")
    for host in HOSTS:
        for mode in ("mentioned", "has", "lacks"):
            found.append(f"/?host={host}&host_mode={mode}")
    for rev in REVISIONS:
        for host in HOSTS[:3]:
            found.append(f"/?revision={rev}&host={host}&host_mode=lacks")
    for rev in REVISIONS:
        found.append(f"/matrix/?revision={rev}")
    found += ["/", "/matrix/", "/?risk=high", "/?effort=S", "/?value=high"]
    return found


def scratch_database(base: str) -> str:
    parts = urlsplit(base)
    admin = urlunsplit(("postgresql", parts.netloc, "/postgres", "", ""))
    name = f"mcp_compare_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(("postgres", parts.netloc, f"/{name}", "", ""))


def drop_database(url: str) -> None:
    parts = urlsplit(url)
    admin = urlunsplit(("postgresql", parts.netloc, "/postgres", "", ""))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')


def main_page_urls(target_pk: str) -> list[str]:
    """The main-page mix a team browses: the filters above, and every other main page."""
    slugs = {"CT": "content-types", "PRM": "prompts", "TOOL": "tools", "LOG": "logging", "PG": "pagination-caching"}
    rows = [f"/registers/{slug}/{prefix}-{n:02d}/" for prefix, slug in slugs.items() for n in (1, 3, 5, 7)]
    registers = [f"/registers/{slug}/" for slug in ("content-types", "prompts", "tools", "logging")]
    hosts = ["/hosts/", "/hosts/codex/", "/hosts/claude-code/", "/hosts/compare/?a=codex&b=claude-code"]
    others = ["/registers/", "/disagreements/", "/probes/", f"/probes/targets/{target_pk}/", "/playground/"]
    return [*urls(), *rows, *registers, *hosts, *others]


MAIN_SETUP = """
from django.core.management import call_command
from comparison.services.probing import ensure_builtin_target
call_command("host_lab", "--load-snapshot", "comparison/data/host_lab_observations.json")
print(ensure_builtin_target().pk)
"""


def connections(url: str) -> int:
    parts = urlsplit(url)
    with psycopg.connect(urlunsplit(("postgresql", parts.netloc, "/postgres", "", "")), autocommit=True) as c:
        row = c.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (parts.path.lstrip("/"),))
        return row.fetchone()[0]


async def client(
    port: int, paths: list[str], stop_at: float, latencies: list[float], errors: list[str], cookie: str = ""
) -> None:
    reader = writer = connection = None
    rng = random.Random(os.getpid() ^ id(latencies))
    while time.monotonic() < stop_at:
        if writer is None:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            connection = h11.Connection(h11.CLIENT)
        path = rng.choice(paths)
        started = time.perf_counter()
        try:
            headers = [("Host", "127.0.0.1")] + ([("Cookie", cookie)] if cookie else [])
            writer.write(connection.send(h11.Request(method="GET", target=path, headers=headers)))
            writer.write(connection.send(h11.EndOfMessage()))
            status = 0
            while True:
                event = connection.next_event()
                if event is h11.NEED_DATA:
                    data = await asyncio.wait_for(reader.read(65536), 30)
                    connection.receive_data(data)
                    continue
                if isinstance(event, h11.Response):
                    status = event.status_code
                if isinstance(event, h11.EndOfMessage | h11.ConnectionClosed):
                    break
            latencies.append((time.perf_counter() - started) * 1000)
            if status != 200:
                errors.append(f"HTTP {status} {path}")
            if connection.our_state is h11.DONE and connection.their_state is h11.DONE:
                connection.start_next_cycle()
            else:
                writer.close()
                writer = None
        except (OSError, TimeoutError, h11.ProtocolError) as error:
            errors.append(f"{type(error).__name__}: {error}")
            if writer is not None:
                writer.close()
            writer = None


async def load(
    port: int, paths: list[str], seconds: float, clients: int, cookies: list[str] | None = None
) -> tuple[list[float], list[str]]:
    latencies: list[float] = []
    errors: list[str] = []
    stop_at = time.monotonic() + seconds
    cookies = cookies or [""] * clients
    await asyncio.gather(*(client(port, paths, stop_at, latencies, errors, cookies[i]) for i in range(clients)))
    return latencies, errors


SESSIONS = """
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
for n in range({count}):
    user, _ = User.objects.get_or_create(username=f"bench-{{n}}")
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    print("sessionid=" + session.session_key)
"""


def user_cookies(manage: list[str], env: dict, count: int) -> list[str]:
    """A session cookie per client, each a user of its own (a team of `count`)."""
    done = subprocess.run(
        [*manage, "shell", "-c", SESSIONS.format(count=count)], cwd=PROJECT, env=env, check=True,
        capture_output=True, text=True,
    )  # fmt: skip
    return [line for line in done.stdout.splitlines() if line.startswith("sessionid=")]


def report(label: str, latencies: list[float], errors: list[str], seconds: float, held: int) -> None:
    ordered = sorted(latencies)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else 0.0

    print(
        f"{label:45} {len(latencies) / seconds:7.1f} req/s  p50 {statistics.median(ordered) if ordered else 0:6.1f} ms"
        f"  p95 {pct(0.95):6.1f} ms  p99 {pct(0.99):6.1f} ms  errors {len(errors)}  db connections {held}"
    )
    if errors:
        print("   first errors:", errors[:3])


BUMP = "from common.pagecache import bump_data_version; bump_data_version()"

#: Eight stored runs of `cells` results each: one real run of the built-in target, its results
#: copied under other scenario names (the pages read them as they read any run's).
SEED_RUNS = """
import copy
from comparison.models import ProbeResult, ProbeRun
from comparison.services.probing import ensure_builtin_target
from comparison.tasks import start_run
target = ensure_builtin_target()
model = start_run(target=target, revisions=["2025-06-18", "2025-11-25"], scenarios=[])
template = list(model.results.all())
made = []
for n in range(8):
    run = copy.copy(model)
    run.pk = None
    run.save()
    cells = []
    for i in range({cells}):
        cell = copy.copy(template[i % len(template)])
        cell.pk, cell.run_id = None, run.pk
        cell.scenario = f"{{cell.scenario}}-{{i // len(template)}}"[:100]
        cells.append(cell)
    ProbeResult.objects.bulk_create(cells, batch_size=500)
    made.append(run.pk)
print(" ".join(map(str, made)))
"""


UPLOAD_SETUP = """
import json, io
from django.contrib.auth.models import User
from django.core.management import call_command
from comparison.models import ProbeTarget
from comparison.models.tokens import ApiToken
target, _ = ProbeTarget.objects.get_or_create(name="bench-uploads", defaults=dict(transport="http", url="http://127.0.0.1:9/mcp"))
ci, _ = User.objects.get_or_create(username="bench-ci")
target.uploaders.add(ci)
out = io.StringIO()
call_command("probe", "--builtin", "--revisions", "2025-06-18", "--scenarios", "text", "--json", stdout=out)
print(json.dumps({"token": ApiToken.issue(ci, "bench")[1], "report": json.loads(out.getvalue())}))
"""


def upload_loop(port: int, setup: dict, stop_at: float, every: float, sent: list[int]) -> None:
    """An upload from a proxy's CI every `every` seconds (a new run of another target each time)."""
    import json
    import urllib.request

    body = json.dumps(setup["report"]).encode()
    n = 0
    while time.monotonic() < stop_at:
        n += 1
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/v1/runs/upload/?target=bench-uploads", data=body, method="POST",
            headers={
                "Authorization": f"Bearer {setup['token']}", "Content-Type": "application/json",
                "Idempotency-Key": f"bench-{os.getpid()}-{n}-{time.time()}",
            },
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310 (loopback, http only)
                sent.append(answer.status)
        except OSError as error:
            sent.append(getattr(error, "code", 0) or 0)
        time.sleep(max(0.0, every))


class Served(NamedTuple):
    """The dashboard under load: its port, how to run its manage.py, its environment and its
    database URL."""

    port: int
    manage: list[str]
    env: dict
    url: str


def uploads_pass(served: Served, paths: list[str], args, cookies: list[str]) -> None:
    """The main mix with a 5,000-cell run stored and an upload every 3 s (issue 53)."""
    port, manage, env, url = served
    import json
    import threading

    seed = {**env, "MCP_COMPARE_TASK_BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}
    subprocess.run(
        [*manage, "shell", "-c", SEED_RUNS.replace("range(8)", "range(1)").format(cells=5000)], cwd=PROJECT, env=seed,
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    done = subprocess.run(
        [*manage, "shell", "-c", UPLOAD_SETUP], cwd=PROJECT, env=env, check=True, capture_output=True, text=True
    )
    setup = json.loads(done.stdout.strip().splitlines()[-1])
    for who, chosen in (("visitors", None), ("logged-in users", cookies)):
        sent: list[int] = []
        stop_at = time.monotonic() + args.seconds
        uploader = threading.Thread(target=upload_loop, args=(port, setup, stop_at, 3.0, sent), daemon=True)
        uploader.start()
        latencies, errors = asyncio.run(load(port, paths, args.seconds, args.clients, chosen))
        uploader.join(timeout=60)
        report(f"{who}, 5,000-cell run, upload every 3 s", latencies, errors, args.seconds, connections(url))
        print(f"{'  uploads':45} {len(sent)} sent, answered {sorted(set(sent))}")


def expensive_urls(runs: list[str], count: int = 400) -> list[str]:
    """Requests whose cost grows with runs or rows, each with a query of its own (no cache hit)."""
    every = "&".join(f"run={pk}" for pk in runs)
    shapes = [
        f"/probes/compare/?{every}",
        f"/probes/compare/?a={runs[0]}&b={runs[1]}",
        f"/probes/runs/{runs[0]}/audit/?format=json",
        "/export.csv?q=",
        "/export.json?q=",
        "/disagreements/?format=csv",
        f"/api/v1/compare/?{every}",
    ]
    return [f"{shapes[n % len(shapes)]}&nonce={n}" for n in range(count)]


def expensive_pass(served: Served, seconds: float, cells: int) -> None:
    """20 clients on expensive requests beside 5 on a cheap page: the cheap page's latency, and
    how the expensive ones were answered (200, or 503 busy with Retry-After)."""
    port, manage, env, url = served
    seed = {**env, "MCP_COMPARE_TASK_BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}
    done = subprocess.run(
        [*manage, "shell", "-c", SEED_RUNS.format(cells=cells)], cwd=PROJECT, env=seed, check=True,
        capture_output=True, text=True,
    )  # fmt: skip
    runs = done.stdout.split()[-8:]
    expensive = expensive_urls(runs)

    async def both():
        stop_at = time.monotonic() + seconds
        cheap_latencies: list[float] = []
        cheap_errors: list[str] = []
        heavy_latencies: list[float] = []
        heavy_answers: list[str] = []
        await asyncio.gather(
            *(client(port, expensive, stop_at, heavy_latencies, heavy_answers) for _ in range(20)),
            *(client(port, ["/registers/"], stop_at, cheap_latencies, cheap_errors) for _ in range(5)),
        )
        return cheap_latencies, cheap_errors, heavy_latencies, heavy_answers

    cheap_latencies, cheap_errors, heavy_latencies, heavy_answers = asyncio.run(both())
    report(
        f"cheap page beside 20 expensive ({cells} cells/run)", cheap_latencies, cheap_errors, seconds, connections(url)
    )
    busy = sum(1 for answer in heavy_answers if answer.startswith("HTTP 503"))
    other = len(heavy_answers) - busy
    print(
        f"{'  the 20 expensive clients':45} {len(heavy_latencies) / seconds:7.1f} req/s, "
        f"{len(heavy_latencies) - len(heavy_answers)} answered 200, {busy} busy (503), {other} other errors"
    )


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", choices=("gunicorn", "uvicorn", "runserver"), default="gunicorn")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--who", choices=("visitors", "users", "both"), default="both")
    parser.add_argument(
        "--mix", choices=("filters", "main"), default="filters",
        help="filters: 55 row-list and matrix URLs; main: those and every other main page",
    )  # fmt: skip
    parser.add_argument(
        "--uploads", action="store_true",
        help="also the mix with a 5,000-cell run stored and an upload from a proxy's CI every 3 s",
    )  # fmt: skip
    parser.add_argument(
        "--expensive", type=int, default=0, metavar="CELLS",
        help="also a pass of 20 expensive clients beside 5 on a cheap page, over 8 runs of CELLS results",
    )  # fmt: skip
    return parser.parse_args()


def _loaded(manage: list[str], env: dict) -> None:
    """The scratch database migrated and loaded: the shipped registers and 511 synthetic ones."""
    subprocess.run([*manage, "migrate", "-v0"], cwd=PROJECT, env=env, check=True)
    with tempfile.TemporaryDirectory() as folder:
        from bench.bench_registers import synthetic_registers

        paths = [str(p) for p in synthetic_registers(511, Path(folder))]
        subprocess.run(
            [*manage, "load_registers", "registers/data", *paths],
            cwd=PROJECT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )


def _started(args: argparse.Namespace, manage: list[str], env: dict, port: int) -> subprocess.Popen:
    command = ["scripts/serve.sh"]
    if args.server == "runserver":
        command = [*manage, "runserver", f"127.0.0.1:{port}", "--noreload"]
    return subprocess.Popen(
        command,
        cwd=PROJECT,
        env={**env, "PORT": str(port), "MCP_COMPARE_SERVER": args.server},
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _wait_until_serving(served: Served) -> None:
    """Up to 30 s for the database and the first page to answer."""
    import urllib.request

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with psycopg.connect(served.url.replace("postgres://", "postgresql://", 1)):
                pass
            urllib.request.urlopen(f"http://127.0.0.1:{served.port}/registers/", timeout=5).read()
            return
        except OSError:
            time.sleep(0.3)


def _passes(served: Served, args: argparse.Namespace) -> None:
    """Each audience's passes (cache empty, then warm), then the uploads and expensive passes asked."""
    port, manage, env, url = served
    paths = urls()
    if args.mix == "main":
        setup = subprocess.run(
            [*manage, "shell", "-c", MAIN_SETUP], cwd=PROJECT, env=env, check=True, capture_output=True,
            text=True,
        )  # fmt: skip
        paths = main_page_urls(setup.stdout.split()[-1])
    workers = os.environ.get("MCP_COMPARE_WEB_WORKERS") or os.cpu_count() * 2
    if args.server == "runserver":
        workers = "1 process, threaded"
    print(f"{args.server}, {workers} workers, {args.clients} clients, {args.seconds:.0f} s, {len(paths)} distinct URLs")
    audiences = [("visitors", None), ("logged-in users", user_cookies(manage, env, args.clients))]
    for who, cookies in audiences:
        if args.who != "both" and not who.endswith(args.who):
            continue
        # A new data version empties the cache for each audience's first pass.
        subprocess.run([*manage, "shell", "-c", BUMP], cwd=PROJECT, env=env, check=True, capture_output=True)
        for label in ("cache empty at the start", "warm cache"):
            latencies, errors = asyncio.run(load(port, paths, args.seconds, args.clients, cookies))
            report(f"{who}, {label}", latencies, errors, args.seconds, connections(url))
    if args.uploads:
        uploads_pass(served, paths, args, audiences[1][1])
    if args.expensive:
        expensive_pass(served, args.seconds, args.expensive)


def main() -> None:
    args = _arguments()
    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith(("postgres://", "postgresql://")):
        sys.exit("DATABASE_URL must name a PostgreSQL server (a scratch database is created on it)")
    url = scratch_database(base)
    cache = tempfile.mkdtemp(prefix="mcp-compare-bench-cache-")
    env = {**os.environ, "DATABASE_URL": url, "MCP_COMPARE_CACHE_DIR": cache, "MCP_COMPARE_SECRET_KEY": "b" * 50}
    manage = [sys.executable, "manage.py"]
    try:
        _loaded(manage, env)
        port = 18000 + os.getpid() % 1000
        server = _started(args, manage, env, port)
        try:
            served = Served(port, manage, env, url)
            _wait_until_serving(served)
            _passes(served, args)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    finally:
        drop_database(url)


if __name__ == "__main__":
    main()
