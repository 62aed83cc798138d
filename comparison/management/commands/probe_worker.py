"""manage.py probe_worker: django-tasks-db's db_worker that survives its database and its peers.

On start, and then every lease period from a thread of its own, it interrupts runs whose worker
died (their lease expired). A transient database error (a locked SQLite file during a load, a
PostgreSQL restart) makes it wait and go on, with backoff, instead of exiting.
"""

from __future__ import annotations

import logging
import threading
import time

from django.db import InterfaceError, OperationalError, close_old_connections, connection
from django_tasks_db.management.commands import db_worker

from comparison.services.leases import lease_seconds, worker_alive, worker_name
from comparison.services.probing import recover_interrupted_runs

logger = logging.getLogger("comparison.worker")


def recover_quietly() -> None:
    try:
        worker_alive(worker_name())
        if interrupted := recover_interrupted_runs():
            logger.warning("recovered runs whose worker died: %s", ", ".join(map(str, interrupted)))
    except (OperationalError, InterfaceError) as error:
        logger.warning("recovery skipped: database unavailable (%s)", error)
        close_old_connections()


def arm_schedules_quietly() -> None:
    """Schedules without a pending tick (new, or their tick lost) get one when a worker starts."""
    from comparison.tasks import arm_missing

    try:
        if armed := arm_missing():
            logger.info("armed schedules: %s", ", ".join(map(str, armed)))
    except (OperationalError, InterfaceError) as error:
        logger.warning("schedules not armed: database unavailable (%s)", error)
        close_old_connections()


class ResilientWorker(db_worker.Worker):
    def run(self) -> None:
        stop = threading.Event()
        watcher = threading.Thread(target=self._watch, args=(stop,), name="run-recovery", daemon=True)
        recover_quietly()
        arm_schedules_quietly()
        watcher.start()
        delay = 1.0
        try:
            while self.running:
                try:
                    super().run()
                    return  # batch mode or --max-tasks: the worker's own end
                except (OperationalError, InterfaceError) as error:
                    logger.warning("database error in the worker loop (%s); going on in %.0f s", error, delay)
                    time.sleep(delay)
                    delay = min(delay * 2, 30.0)
                    close_old_connections()
        finally:
            stop.set()

    @staticmethod
    def _watch(stop: threading.Event) -> None:
        try:
            while not stop.wait(lease_seconds()):
                recover_quietly()
                connection.close()  # back to the pool until the next round
        finally:
            connection.close()


class Command(db_worker.Command):
    help = (
        "Run the probe worker: django-tasks-db's db_worker, plus recovery of runs whose worker died and "
        "retries on transient database errors."
    )

    def handle(self, *args, **options):
        # db_worker builds its Worker inside handle() with no hook, so the class is swapped for the call.
        original = db_worker.Worker
        db_worker.Worker = ResilientWorker
        try:
            return super().handle(*args, **options)
        finally:
            db_worker.Worker = original
