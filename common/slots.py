"""A few slots for expensive work, shared by every server process of one machine: one lock file per
slot, taken with a non-blocking `flock`. A process that dies frees its slot with it, so a crashed
worker never leaves the site one slot short. Pure Python, no Django."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def slot(directory: Path, count: int, kind: str) -> Iterator[int | None]:
    """The number of a free slot of `kind`, held until the block ends; None at once when all
    `count` are taken (never waits: the caller answers "busy" instead of holding a worker)."""
    directory.mkdir(parents=True, exist_ok=True)
    for number in range(count):
        handle = os.open(directory / f"{kind}-{number}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(handle)
            continue
        try:
            yield number
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
            os.close(handle)
        return
    yield None
