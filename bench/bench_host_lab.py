"""The host lab's speed. Prints numbers; asserts nothing.

    .venv/bin/python bench/bench_host_lab.py [--workers N] [--hosts a,b] [--scenarios a,b]

- one run per host and scenario, cold (no cache): median and worst seconds per host;
- the whole lab (every runnable host × the catalogue) cold, wall time with N workers;
- the same again warm: every observation read back from the cache instead of run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from comparison.hostlab import catalogue, lab
from comparison.hostlab.adapters import ADAPTERS


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hosts", default=",".join(key for key, a in ADAPTERS.items() if a.runnable))
    parser.add_argument("--scenarios", default=",".join(s.tool for s in catalogue.SCENARIOS))
    args = parser.parse_args()
    hosts, scenarios = args.hosts.split(","), args.scenarios.split(",")
    pairs = [(host, scenario) for host in hosts for scenario in scenarios]
    with tempfile.TemporaryDirectory(prefix="bench-host-lab-") as folder:
        store = lab.FileCache(Path(folder))
        started = time.perf_counter()
        found, _ = lab.run_many(pairs, known=store.get, workers=args.workers)
        cold = time.perf_counter() - started
        for item in found:
            store.put(item)
        started = time.perf_counter()
        _, reused = lab.run_many(pairs, known=store.get, workers=args.workers)
        warm = time.perf_counter() - started
    print(f"{len(pairs)} runs ({len(hosts)} hosts × {len(scenarios)} scenarios), {args.workers} workers")
    for host in hosts:
        seconds = [item["seconds"] for item in found if item["host"] == host and item.get("seconds") is not None]
        if seconds:
            print(f"  {host:12} one run: median {statistics.median(seconds):5.2f} s, worst {max(seconds):5.2f} s")
    every = [item["seconds"] for item in found if item.get("seconds") is not None]
    if every:
        print(f"  all hosts    one run: median {statistics.median(every):5.2f} s, worst {max(every):5.2f} s")
    print(f"whole lab cold: {cold:6.1f} s")
    print(f"whole lab warm: {warm:6.3f} s ({reused} of {len(pairs)} read from the cache)")


if __name__ == "__main__":
    main()
