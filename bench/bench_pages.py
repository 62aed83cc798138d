"""Server time per page with the full-size register set (511 synthetic rows in the real format, plus
the shipped registers): CPU time and SQL queries, uncached and from the page cache. Prints
numbers; asserts nothing.

    .venv/bin/python bench/bench_pages.py [--repeat N]

A fresh temporary SQLite database unless DATABASE_URL names one (its register tables are
overwritten: point it at a scratch database).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

PAGES = [
    ("filtered row list", "/?revision=2025-06-18&host=opencode-v1&host_mode=lacks"),
    ("full row list (100 rows a page)", "/"),
    ("matrix (100 rows a page)", "/matrix/"),
    ("filtered matrix", "/matrix/?revision=2025-11-25&rev_mode=absent"),
    ("register page", "/registers/content-types/"),
    ("row page", "/registers/content-types/CT-13/"),
]


def setup() -> None:
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mcp_compare.settings")
    os.environ.setdefault("MCP_COMPARE_ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("MCP_COMPARE_CACHE_DIR", tempfile.mkdtemp())
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def measure(client, url: str, repeat: int, *, cached: bool) -> tuple[float, float, int]:
    """(median CPU ms, median wall ms, queries) over `repeat` requests."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cpu, wall, queries = [], [], 0
    if cached:
        client.get(url)
    for _ in range(repeat):
        if not cached:
            cache.clear()
        with CaptureQueriesContext(connection) as captured:
            started_cpu, started = time.process_time(), time.perf_counter()
            response = client.get(url)
            cpu.append(time.process_time() - started_cpu)
            wall.append(time.perf_counter() - started)
        assert response.status_code == 200, url
        queries = len(captured)
    return statistics.median(cpu) * 1000, statistics.median(wall) * 1000, queries


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    setup()
    from django.test import Client

    from bench.bench_registers import synthetic_registers
    from registers.loader import load_registers
    from registers.models import Register, Row

    Register.objects.all().delete()
    with tempfile.TemporaryDirectory() as folder:
        load_registers([PROJECT / "registers" / "data", *synthetic_registers(511, Path(folder))])
    print(f"database: {os.environ['DATABASE_URL'].split('@')[-1]}; {Row.objects.count()} rows loaded")
    client = Client()
    client.get("/")  # templates compiled, connections open
    print(f"{'page':34} {'uncached CPU':>13} {'wall':>8} {'queries':>8} {'cached CPU':>11} {'queries':>8}")
    for label, url in PAGES:
        cpu, wall, queries = measure(client, url, args.repeat, cached=False)
        cached_cpu, _, cached_queries = measure(client, url, args.repeat, cached=True)
        print(f"{label:34} {cpu:10.1f} ms {wall:5.1f} ms {queries:8} {cached_cpu:8.2f} ms {cached_queries:8}")


if __name__ == "__main__":
    main()
