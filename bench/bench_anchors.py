"""What anchors cost, with about 1,000 rows of the real corpus loaded (the seven shipped registers
and eight renamed copies of them): anchor reading per row at load, the evidence snapshot the row
list, the matrix and the evidence facet read (cold, as after a load or a run), each page's CPU and
queries, against the 404 page. Prints numbers; asserts nothing.

    .venv/bin/python bench/bench_anchors.py [--repeat N]

A fresh temporary SQLite database unless DATABASE_URL names one (its tables are overwritten).
"""

from __future__ import annotations

import argparse
import logging
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from bench.bench_pages import setup  # noqa: E402

PAGES = [
    ("row list", "/"),
    ("evidence facet: related", "/?evidence=related"),
    ("evidence facet: untested", "/?evidence=untested"),
    ("matrix", "/matrix/"),
    ("row page", "/registers/logging/LOG-02/"),
]
COPIES = 8


def copies(folder: Path) -> list[Path]:
    """The shipped registers again, each row ID and slug renamed, COPIES times."""
    paths = []
    for copy in range(COPIES):
        letter = chr(65 + copy)

        def renamed(match: re.Match, letter: str = letter) -> str:
            return f"{match.group(1)}{letter}-{match.group(2)}"

        for source in sorted((PROJECT / "registers" / "data").glob("*.md")):
            if source.name == "README.md":
                continue
            text = re.sub(r"\b([A-Z]+)-(\d\d)\b", renamed, source.read_text())
            text = (
                text.replace("\n# ", f"\n# Copy {letter} of ", 1)
                if not text.startswith("# ")
                else f"# Copy {letter} of {text[2:]}"
            )
            path = folder / f"copy-{letter.lower()}-{source.name}"
            path.write_text(text, encoding="utf-8")
            paths.append(path)
    return paths


def cpu_ms(client, url: str, repeat: int, cold) -> tuple[float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, queries = [], 0
    for _ in range(repeat):
        cold()
        with CaptureQueriesContext(connection) as captured:
            started = time.process_time()
            client.get(url)
            times.append(time.process_time() - started)
        queries = len(captured)
    return statistics.median(times) * 1000, queries


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    setup()
    _loaded_and_read()
    _pages(args.repeat)


def _loaded_and_read() -> None:
    """The shipped registers and their copies loaded, every row's anchors read, and a run made."""
    from comparison.services.probing import ensure_builtin_target
    from comparison.tasks import start_run
    from language.vocabulary import REVISIONS
    from registers.core.anchoring import doc_anchors
    from registers.core.format import parse_register
    from registers.loader import load_registers
    from registers.models import Register, Row

    Register.objects.all().delete()
    with tempfile.TemporaryDirectory() as folder:
        paths = [p for p in sorted((PROJECT / "registers" / "data").glob("*.md")) if p.name != "README.md"]
        paths += copies(Path(folder))
        docs = [parse_register(path.read_text(encoding="utf-8"), str(path)) for path in paths]
        rows = [row for doc in docs for row in doc.rows]
        started = time.process_time()
        found = sum(len(doc_anchors(row)) for row in rows)
        reading = time.process_time() - started
        started = time.perf_counter()
        load_registers(paths)
        loading = time.perf_counter() - started
    print(
        f"{Row.objects.count()} rows loaded in {loading:.1f} s; anchors read for {len(rows)} rows in "
        f"{reading * 1000:.0f} ms CPU ({reading * 1e6 / len(rows):.0f} µs a row, {found / len(rows):.1f} a row)"
    )
    start_run(target=ensure_builtin_target(), revisions=list(REVISIONS), scenarios=[])


def _pages(repeat: int) -> None:
    """Each page's CPU cold, rendered and cached, against the 404 page's."""
    from django.core.cache import cache
    from django.test import Client

    from registers import filters

    client = Client()
    client.get("/")

    def cold():
        cache.clear()
        filters._memo.clear()

    def warm():
        cache.clear()

    def cached():
        pass

    logging.getLogger("django.request").setLevel(logging.ERROR)
    base, base_queries = cpu_ms(client, "/no-such-page/", repeat * 4, warm)
    print("cold: after a load or a run (evidence read again); rendered: made again from the snapshot;")
    print("cached: from the page cache, as every request after the first is")
    heads = ("cold CPU", "x 404", "queries", "rendered", "x 404", "cached", "x 404")
    widths = (10, 6, 8, 10, 6, 9, 6)
    print(f"{'page':26} " + " ".join(f"{head:>{width}}" for head, width in zip(heads, widths, strict=True)))
    print(f"{'404 page':26} {base:7.2f} ms {1:6.1f} {base_queries:8}")
    for label, url in PAGES:
        cold_cpu, queries = cpu_ms(client, url, repeat, cold)
        warm_cpu, _ = cpu_ms(client, url, repeat, warm)
        client.get(url)
        cached_cpu, _ = cpu_ms(client, url, repeat * 4, cached)
        print(
            f"{label:26} {cold_cpu:7.1f} ms {cold_cpu / base:6.1f} {queries:8} {warm_cpu:7.1f} ms "
            f"{warm_cpu / base:6.1f} {cached_cpu:6.2f} ms {cached_cpu / base:6.1f}"
        )


if __name__ == "__main__":
    main()
