"""Register loading and row-list speed. Prints numbers; asserts nothing.

    .venv/bin/python bench/bench_registers.py [--repeat N] [--synthetic ROWS]

Runs against a fresh temporary SQLite database unless DATABASE_URL is set (then that database
is migrated and its register tables are overwritten: point it at a scratch database).
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


def setup_django() -> None:
    if "DATABASE_URL" not in os.environ:
        os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mcp_compare.settings")
    os.environ.setdefault("MCP_COMPARE_ALLOWED_HOSTS", "testserver")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def synthetic_registers(rows: int, folder: Path) -> list[Path]:
    """About `rows` rows split over registers of 22 rows, like the full 23-area set (511 rows)."""
    from tests.support.register_text import register_text

    paths = []
    for index in range(0, rows, 22):
        count = min(22, rows - index)
        prefix = "S" + "".join(chr(65 + int(d)) for d in f"{index // 22:02d}")
        path = folder / f"synthetic-{index // 22:02d}.md"
        path.write_text(register_text(count, prefix=prefix, title=f"Synthetic {index // 22}"), encoding="utf-8")
        paths.append(path)
    return paths


def page_timing(client, url: str, repeat: int) -> tuple[float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    durations = []
    queries = 0
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.get(url)
            durations.append(time.perf_counter() - start)
        assert response.status_code == 200
        queries = len(captured)
    return statistics.median(durations), queries


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--synthetic", type=int, default=511, help="rows in the synthetic full-size set")
    args = parser.parse_args()
    setup_django()

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from registers.loader import load_registers
    from registers.models import Register, Row

    shipped = PROJECT / "registers" / "data"
    Register.objects.all().delete()
    print(f"database: {os.environ['DATABASE_URL'].split('@')[-1]}")
    cold = timed(lambda: load_registers([shipped]))
    unchanged = timed(lambda: load_registers([shipped]))
    forced = timed(lambda: load_registers([shipped], force=True))
    print(
        f"shipped registers ({Row.objects.count()} rows): cold load {cold * 1000:.0f} ms, "
        f"unchanged reload {unchanged * 1000:.1f} ms, forced reload {forced * 1000:.0f} ms"
    )

    client = Client()
    for label, url in (
        ("row list, unfiltered", "/"),
        ("row list, revision + host", "/?revision=2025-06-18&host=opencode-v2"),
        ("matrix, unfiltered", "/matrix/"),
        ("row page", "/registers/content-types/CT-13/"),
    ):
        median, queries = page_timing(client, url, args.repeat)
        print(f"  {label:28} median {median * 1000:6.1f} ms, {queries} queries")

    with tempfile.TemporaryDirectory() as folder:
        paths = synthetic_registers(args.synthetic, Path(folder))
        with CaptureQueriesContext(connection) as statements:
            cold = timed(lambda: load_registers(paths))
        unchanged = timed(lambda: load_registers(paths))
        total = Row.objects.count()
        print(
            f"synthetic set ({len(paths)} registers, {args.synthetic} rows; {total} rows in all): "
            f"cold load {cold * 1000:.0f} ms in {len(statements)} SQL statements (an executemany counts once), "
            f"unchanged reload {unchanged * 1000:.1f} ms"
        )
        for label, url in (
            ("row list, unfiltered", "/"),
            ("row list, revision + host", "/?revision=2025-06-18&host=opencode-v2"),
        ):
            median, queries = page_timing(client, url, args.repeat)
            print(f"  {label:28} median {median * 1000:6.1f} ms, {queries} queries")


if __name__ == "__main__":
    main()
