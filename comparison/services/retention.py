"""How many scheduled runs are kept: a schedule that runs every few minutes would otherwise grow the
database for ever. Applied by the worker after each scheduled run; runs started by hand are never
deleted. Writes, keyword-only."""

from __future__ import annotations

import logging

from django.conf import settings

from comparison.models import ProbeRun

logger = logging.getLogger(__name__)


def prune_scheduled_runs(*, target_id: int, keep: int | None = None) -> int:
    """Delete the target's ended scheduled runs (and their results) beyond the newest `keep`
    (SCHEDULE_KEEP_RUNS; 0 keeps all). Returns how many runs were deleted."""
    keep = settings.SCHEDULE_KEEP_RUNS if keep is None else keep
    if keep <= 0:
        return 0
    ended = ProbeRun.objects.filter(target_id=target_id, schedule__isnull=False).exclude(status__in=ProbeRun.ACTIVE)
    old = list(ended.order_by("-pk").values_list("pk", flat=True)[keep:])
    if not old:
        return 0
    deleted = ProbeRun.objects.filter(pk__in=old).delete()[1].get("comparison.ProbeRun", 0)
    logger.info("target %s: %d scheduled run(s) beyond the newest %d deleted", target_id, deleted, keep)
    return deleted
