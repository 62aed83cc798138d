"""A running run's lease: the worker executing it renews `heartbeat_at` every few seconds from a
thread of its own (Heartbeat), and records that it is alive (worker_alive); a run whose heartbeat is
older than the lease is interrupted by recovery (comparison.services.probing)."""

from __future__ import annotations

import logging
import os
import socket
import threading
from datetime import timedelta

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection
from django.utils import timezone

from comparison.models import ProbeRun, WorkerHeartbeat

logger = logging.getLogger(__name__)


def lease_seconds() -> float:
    return float(settings.RUN_LEASE_SECONDS)


def heartbeat_seconds() -> float:
    # Several beats fit in one lease, so one slow write does not cost the run.
    return max(lease_seconds() / 5, 0.5)


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"[:100]


def worker_alive(name: str, *, started_at=None) -> None:
    """Record that a worker process is alive (it calls this at start and every lease period)."""
    now = timezone.now()
    updated = WorkerHeartbeat.objects.filter(name=name).update(seen_at=now)
    if not updated:
        WorkerHeartbeat.objects.update_or_create(name=name, defaults={"started_at": started_at or now, "seen_at": now})
    # Workers gone for a day are forgotten.
    WorkerHeartbeat.objects.filter(seen_at__lt=now - timedelta(days=1)).delete()


class Heartbeat:
    """Renews a running run's lease from a thread of its own while the run executes; notices when
    the run stopped being this worker's (cancelled, or interrupted by recovery)."""

    def __init__(self, run_id: int, every: float):
        self.run_id, self.every = run_id, every
        self.lost = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name=f"heartbeat-run-{run_id}", daemon=True)

    def __enter__(self) -> Heartbeat:
        # Inside a transaction (a run executed in the request by the immediate backend, as the tests
        # do) no other process can see the run, so there is no lease to keep, and a thread's own
        # connection could not see the row either.
        if not connection.in_atomic_block:
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=self.every + 10)

    def _beat(self) -> None:
        try:
            while not self._stop.wait(self.every):
                try:
                    renewed = ProbeRun.objects.filter(pk=self.run_id, status=ProbeRun.RUNNING).update(
                        heartbeat_at=timezone.now()
                    )
                except (OperationalError, InterfaceError) as error:
                    logger.warning("run %s: heartbeat not written (%s); trying again", self.run_id, error)
                    continue
                finally:
                    # Back to the pool between beats: an idle thread holding a connection starves
                    # the run's own writes of one.
                    connection.close()
                if not renewed:
                    self.lost.set()
                    return
        finally:
            connection.close()
