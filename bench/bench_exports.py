"""Export speed and memory for the whole register set. Prints numbers; asserts nothing.

    .venv/bin/python bench/bench_exports.py [--synthetic ROWS]

Loads the shipped registers plus a synthetic set of about ROWS rows (like the full 23-area set, 511
rows) into a temporary SQLite database, then streams every export format through the same code the
web export and `export_report` use, measuring wall time and the peak of Python allocations.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--synthetic", type=int, default=511)
    args = parser.parse_args()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mcp_compare.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.http import QueryDict

    from bench.bench_registers import synthetic_registers
    from registers import exporting, filters
    from registers.loader import load_registers
    from registers.models import Row

    call_command("migrate", verbosity=0)
    with tempfile.TemporaryDirectory() as folder:
        load_registers([PROJECT / "registers" / "data", *synthetic_registers(args.synthetic, Path(folder))])
    print(f"rows: {Row.objects.count()}")
    everything = filters.parse(QueryDict())
    for fmt in ("md", "html", "json", "csv"):
        started = time.perf_counter()
        size = sum(len(chunk) for chunk in exporting.export_chunks(fmt, everything))
        elapsed = time.perf_counter() - started
        # A second pass under tracemalloc, which slows Python down, only for the memory peak.
        tracemalloc.start()
        sum(len(chunk) for chunk in exporting.export_chunks(fmt, everything))
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"  {fmt:5} {elapsed * 1000:7.0f} ms  {size / 1024:8.0f} KiB out  peak {peak / 1024 / 1024:6.1f} MiB")


if __name__ == "__main__":
    main()
