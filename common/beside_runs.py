"""Reads kept per process while nothing but probe runs changed (the data version's BESIDE_RUNS
token): the registers' rows, the lab's chips and what the hosts ask for are not runs, so a team's
CI uploads (a run stored every few seconds) cost them nothing. Any other write changes the token."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from common.pagecache import data_versions


def kept_beside_runs[T](read: Callable[[], T]) -> Callable[[], T]:
    """`read()` once per BESIDE_RUNS token and process (one query to learn the token)."""
    kept: dict[str, T] = {}

    @wraps(read)
    def wrapper() -> T:
        token = data_versions()[1]
        if token not in kept:
            kept.clear()
            kept[token] = read()
        return kept[token]

    return wrapper


def beside_runs_version(request, *args, **kwargs) -> str:
    """`cached_page(version=…)` of a page that reads no run (a register's page, the Hosts pages):
    its cached copy outlives other targets' runs and uploads."""
    return data_versions()[1]
