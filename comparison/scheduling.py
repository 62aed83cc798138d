"""Scheduled runs: each enabled schedule has one pending tick, a task deferred to its next slot
(`run_after`) that the probe worker runs like any other; the tick starts a run and defers the next
tick an interval from now. No cron. A missed slot runs once: the one pending tick fires late, and
its successor is an interval after that, not after the slot it missed. Writes, keyword-only."""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta

from django.db import transaction
from django.tasks import default_task_backend
from django.utils import timezone

from .models import ProbeSchedule
from .probing import RunRefused, start_run

logger = logging.getLogger(__name__)


def arm(*, schedule: ProbeSchedule, at=None) -> bool:
    """Make `schedule`'s next tick the only valid one, due `at` (now by default). False when the
    task backend cannot defer (the immediate backend of the tests): nothing is armed then."""
    if not default_task_backend.supports_defer:
        logger.warning("schedule %s not armed: the task backend cannot defer tasks", schedule.pk)
        return False
    from .tasks import schedule_tick_task

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
