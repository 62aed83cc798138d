"""The host lab's catalogue run once per checkout and host version: every runnable host through
every fixture scenario, cached in .cache/hostlab-tests (keyed by host version, fixture version and
lab version), so a second test process or lane reads what the first one measured.

Each (host, scenario) pair has a lock of its own: the test process that reaches a pair first
measures it, and another that needs the same pair waits for that pair alone. With one lock for the
whole catalogue, a test that needed twenty pairs waited about eight minutes while another process
measured all 170, its test process idle. The processes share two run slots, so no more hosts run
at once than with one process measuring: the real hosts' readings are sensitive to load (Cline
"never called the tool" with four at once on two cores)."""

from __future__ import annotations

import fcntl
import hashlib
import logging
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from comparison.hostlab import catalogue, lab
from comparison.hostlab.adapters import ADAPTERS

PROJECT = Path(__file__).resolve().parents[2]
CACHE = PROJECT / ".cache" / "hostlab-tests"
RUNNABLE = [key for key, adapter in ADAPTERS.items() if adapter.runnable]
#: Host runs at once, across every test process, as the lab's own sweeps run them.
AT_ONCE = 2
#: How long a host run waits for a slot: the catalogue's whole sweep takes about eight minutes.
SLOT_WAIT = 1200.0


#: The test that reads every pair: a session that runs it measures the whole catalogue anyway.
WHOLE_CATALOGUE_TEST = "tests/e2e/test_host_lab.py::test_pin"
_prefetch: threading.Thread | None = None


def start_prefetch() -> None:
    """The whole catalogue measured from now on, in the background, so that the tests that read it
    later find it stored: the host runs, which keep the CPU busy, overlap the tests that mostly
    wait (workers, relays, a stopped database) instead of following them. The pairs' locks and the
    run slots are the same, so a test that needs a pair first still measures or waits for it."""
    global _prefetch
    if _prefetch is None:
        _prefetch = threading.Thread(target=_prefetched, name="catalogue-prefetch", daemon=True)
        _prefetch.start()


def end_prefetch() -> None:
    """Waits for the background measuring, so that no host run outlives the test process."""
    if _prefetch is not None:
        _prefetch.join(SLOT_WAIT)


def _prefetched() -> None:
    try:
        catalogue_observations()
    except Exception:  # a test that reads the pair measures it again and says why it failed
        logging.getLogger(__name__).exception("the catalogue's background measuring stopped")


def catalogue_observations(scenarios: Iterable[str] | None = None) -> dict[tuple[str, str], dict]:
    """(host, scenario) -> observation, for every runnable host in `scenarios` (every fixture
    scenario by default). The pairs another process is measuring now are read once it has."""
    chosen = set(scenarios) if scenarios is not None else None
    pairs = [
        (host, scenario.tool)
        for host in RUNNABLE
        for scenario in catalogue.SCENARIOS
        if chosen is None or scenario.tool in chosen
    ]
    CACHE.mkdir(parents=True, exist_ok=True)
    store = lab.FileCache(CACHE)
    with ThreadPoolExecutor(max_workers=AT_ONCE) as pool:
        first = dict(zip(pairs, pool.map(lambda pair: _observed(store, pair, wait=False), pairs), strict=True))
    return {pair: item if item is not None else _observed(store, pair, wait=True) for pair, item in first.items()}


def _observed(store: lab.FileCache, pair: tuple[str, str], *, wait: bool) -> dict[str, Any] | None:
    """The pair's stored observation, or one measured now and stored; None when another process
    holds the pair and `wait` is false."""
    host, scenario = pair
    key = lab.cache_key(host, ADAPTERS[host].version, scenario, catalogue.fixture_version())
    with open(CACHE / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return None
        try:
            found = store.get(key)
            if found is None:
                with run_slot():
                    found = lab.run_one(ADAPTERS[host], scenario)
                store.put(found)
            return found
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@contextmanager
def run_slot():
    """One of the AT_ONCE slots the test processes share, waited for up to SLOT_WAIT seconds, held
    while a host runs."""
    CACHE.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + SLOT_WAIT
    while time.monotonic() < deadline:
        for slot in range(AT_ONCE):
            with open(CACHE / f"slot-{slot}.lock", "w") as lock:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue
                try:
                    yield
                finally:
                    fcntl.flock(lock, fcntl.LOCK_UN)
                return
        time.sleep(0.2)
    raise TimeoutError(f"no host-run slot came free within {SLOT_WAIT:.0f} s")
