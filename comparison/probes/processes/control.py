"""What keeps a probe run bounded whatever a target does: a deadline for the whole run, a stop
that cuts every open transport at once (Cancel), and the reason the cells not probed carry.
Shared by the threads of one run; no Django."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Protocol


class Abortable(Protocol):
    def abort(self) -> None: ...


CANCELLED = "not probed: the run was cancelled"
#: The longest a stop waits for one transport to be cut (a process tree killed and reaped).
CUT_SECONDS = 15.0


def deadline_passed(seconds: float) -> str:
    return f"not probed: the run's {seconds:.0f}-second deadline passed"


def stopped_answering(count: int, limit: float) -> str:
    return f"not probed: the target stopped answering ({count} calls in a row took the full {limit:.0f} s limit)"


class RunControl:
    """Whether a run must stop, and why; the transports it has open, cut the moment it stops."""

    def __init__(self, deadline_seconds: float | None = None, *, clock=time.monotonic):
        self.clock = clock
        self.deadline_seconds = deadline_seconds or None
        self.deadline = clock() + deadline_seconds if deadline_seconds else None
        self.reason = ""
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._open: set[Abortable] = set()

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    def stop(self, reason: str) -> None:
        """The first reason wins; every open transport is cut now, from whichever thread calls."""
        with self._lock:
            if self._stopped.is_set():
                return
            self.reason = reason
            self._stopped.set()
            cut = list(self._open)
        # All at once: ending one target's processes must not wait on another's.
        cutters = [threading.Thread(target=transport.abort, daemon=True) for transport in cut]
        for cutter in cutters:
            cutter.start()
        for cutter in cutters:
            cutter.join(CUT_SECONDS)

    def check_deadline(self) -> bool:
        """Stop the run if its deadline passed; whether it is stopped."""
        if self.deadline is not None and self.clock() >= self.deadline:
            self.stop(deadline_passed(self.deadline_seconds))
        return self.stopped

    @contextlib.contextmanager
    def tracking(self, transport: Abortable) -> Iterator[None]:
        with self._lock:
            self._open.add(transport)
            late = self._stopped.is_set()
        if late:
            transport.abort()
        try:
            yield
        finally:
            with self._lock:
                self._open.discard(transport)
