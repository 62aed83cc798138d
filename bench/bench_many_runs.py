"""What a team's stored runs cost the pages as they pile up (issue 53): the newest ended run of every
target, which every evidence read and row page asks for, with 0 to 50,000 uploaded runs of one
target (two days of a CI upload every 3 s). Prints numbers; asserts nothing.

    .venv/bin/python bench/bench_many_runs.py [--runs 0,10000,50000] [--rounds 10]

On a fresh temporary SQLite database, or DATABASE_URL's (point it at a scratch database: runs are
added to it).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", default="0,10000,50000")
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/runs.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mcp_compare.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from comparison.models import ProbeRun, ProbeTarget
    from comparison.selectors.runs import latest_ended_runs

    target, _ = ProbeTarget.objects.get_or_create(
        name="bench-many-uploads", defaults={"transport": "http", "url": "http://127.0.0.1:9/mcp"}
    )
    for wanted in (int(value) for value in args.runs.split(",")):
        have = ProbeRun.objects.filter(target=target).count()
        ProbeRun.objects.bulk_create(
            [ProbeRun(target=target, status=ProbeRun.DONE, revisions=["2025-06-18"]) for _ in range(wanted - have)],
            batch_size=2000,
        )
        latest_ended_runs(measured=True)
        started = time.perf_counter()
        for _ in range(args.rounds):
            latest_ended_runs(measured=True)
        took = (time.perf_counter() - started) / args.rounds * 1000
        print(f"{max(wanted, have):>7} runs stored: the newest ended run of every target in {took:6.1f} ms")


if __name__ == "__main__":
    main()
