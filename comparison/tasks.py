"""The queue: what a worker runs (Django Tasks entry points; a web request only enqueues, a worker
`manage.py db_worker` runs) and every function that enqueues one: starting a run, a schedule's
ticks, a host sweep. The only module that enqueues, on top of the code the tasks run, so that code
never imports it back.

Scheduled runs: each enabled schedule has one pending tick, a task deferred to its next slot
(`run_after`) that the probe worker runs like any other; the tick starts a run and defers the next
tick an interval from now. No cron. A missed slot runs once: the one pending tick fires late, and
its successor is an interval after that, not after the slot it missed. Writes, keyword-only.

The task functions keep their dotted paths (`comparison.tasks.*`): tasks already queued in a
database name them."""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta

from django.db import transaction
from django.tasks import default_task_backend, task
from django.utils import timezone

from comparison.hostlab import versions
from comparison.models import ProbeRun, ProbeSchedule
from comparison.services.lab import run_target
from comparison.services.lab_sweeps import SweepOutcome, measure_version, releases
from comparison.services.lab_through import real_hosts_pass
from comparison.services.probing import RunRefused, RunRequest, create_run, execute_run

logger = logging.getLogger(__name__)


@task
def execute_run_task(run_id: int) -> None:
    execute_run(run_id, queue_real_hosts=lambda run: host_target_task.enqueue(run.target_id, run.pk))


@task
def schedule_tick_task(schedule_id: int, token: str) -> str:
    return fire(schedule_id=schedule_id, token=token)


@task
def host_lab_task(target_id: int, tool: str, arguments: dict, batch: str) -> int:
    """A configured stdio target's tool through every installed host (the lab page's runs)."""
    return run_target(target_id, tool, arguments, batch)


@task
def host_version_task(host: str, version: str) -> dict:
    """One version of a host through the lab's catalogue (a sweep queues one task per version)."""
    return measure_version(host, version)


@task
def host_target_task(target_id: int, run_id: int | None = None) -> dict:
    """Every installed host through a target, beside the same host directly (a run's "also run
    the real hosts" queues it after its probe cells, so the run's lease is not held meanwhile);
    the per-host summary is recorded on the run."""
    return real_hosts_pass(target_id, run_id)


def start_run(**fields) -> ProbeRun:
    """Create a run (comparison.services.probing.create_run; the keywords are RunRequest's fields;
    refused while the target has one) and queue it."""
    run = create_run(RunRequest(**fields))
    result = execute_run_task.enqueue(run.pk)
    ProbeRun.objects.filter(pk=run.pk, task_id="").update(task_id=str(result.id))
    run.refresh_from_db()
    return run


def queue_sweep(host: str, spec: str) -> SweepOutcome:
    """The versions of `spec` queued as one task per version, for the workers to split."""
    chosen = versions.choose(spec, releases(host))
    for version in chosen:
        host_version_task.enqueue(host, version)
    return SweepOutcome(host, chosen, 0, 0, {}, [])


def arm(*, schedule: ProbeSchedule, at=None) -> bool:
    """Make `schedule`'s next tick the only valid one, due `at` (now by default). False when the
    task backend cannot defer (the immediate backend of the tests): nothing is armed then."""
    if not default_task_backend.supports_defer:
        logger.warning("schedule %s not armed: the task backend cannot defer tasks", schedule.pk)
        return False
    when = at or timezone.now()
    token = secrets.token_hex(16)
    ProbeSchedule.objects.filter(pk=schedule.pk).update(token=token, next_run_at=when)
    # Enqueued after the token is stored, so a tick never carries a token not yet written.
    transaction.on_commit(lambda: schedule_tick_task.using(run_after=when).enqueue(schedule.pk, token))
    schedule.token, schedule.next_run_at = token, when
    return True


def disarm(*, schedule: ProbeSchedule) -> None:
    ProbeSchedule.objects.filter(pk=schedule.pk).update(token="", next_run_at=None)


def fire(*, schedule_id: int, token: str) -> str:
    """One tick: start a run (unless the target is busy or disabled) and arm the next tick. A tick
    whose token is not the schedule's current one is stale and does nothing. Returns what it did."""
    with transaction.atomic():
        schedule = ProbeSchedule.objects.select_for_update().select_related("target").filter(pk=schedule_id).first()
        if schedule is None or not schedule.enabled or not token or schedule.token != token:
            return "stale tick: nothing to do"
        now = timezone.now()
        # Claim the tick before anything else: a duplicate delivery of it finds another token.
        schedule.token = ""
        schedule.last_fired_at = now
        schedule.save(update_fields=["token", "last_fired_at"])
    try:
        run = start_run(
            target=schedule.target,
            revisions=schedule.revisions,
            upstream_revisions=schedule.upstream_revisions,
            scenarios=schedule.scenarios,
            conformance=schedule.conformance,
            real_host=schedule.real_hosts,
            schedule=schedule,
        )
        message = f"started run {run.pk}"
    except RunRefused as refused:
        message = f"skipped: {refused}"
    ProbeSchedule.objects.filter(pk=schedule.pk).update(last_message=message[:500])
    # The minimum holds for a schedule written around the admin's form too.
    interval = schedule.effective_seconds
    arm(schedule=schedule, at=now + timedelta(seconds=interval))
    return message


def arm_missing() -> list[int]:
    """Arm every enabled schedule without a pending tick (new, or its tick lost); called when a
    worker starts. Returns the schedules armed."""
    armed = []
    for schedule in ProbeSchedule.objects.filter(enabled=True, token=""):
        if arm(schedule=schedule, at=schedule.next_run_at):
            armed.append(schedule.pk)
    return armed
