"""The host lab's catalogue run once per checkout and host version: every runnable host through
every fixture scenario, cached in .cache/hostlab-tests (keyed by host version, fixture version and
lab version), so a second test process or lane reads what the first one measured."""

from __future__ import annotations

import fcntl
from pathlib import Path

from comparison.hostlab import catalogue, lab
from comparison.hostlab.adapters import ADAPTERS

PROJECT = Path(__file__).resolve().parents[2]
CACHE = PROJECT / ".cache" / "hostlab-tests"
RUNNABLE = [key for key, adapter in ADAPTERS.items() if adapter.runnable]


def catalogue_observations() -> dict[tuple[str, str], dict]:
    """(host, scenario) -> observation; one process measures while any other waits on the lock."""
    CACHE.mkdir(parents=True, exist_ok=True)
    store = lab.FileCache(CACHE)
    pairs = [(host, scenario.tool) for host in RUNNABLE for scenario in catalogue.SCENARIOS]
    with open(CACHE / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            found, _ = lab.run_many(pairs, known=store.get, workers=2)
            for item in found:
                store.put(item)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return {(item["host"], item["scenario"]): item for item in found}
