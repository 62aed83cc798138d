"""Probe runs: create and enqueue one, execute it in a worker, cancel it. Keyword-only writes."""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction
from django.utils import timezone

from .models import ProbeResult, ProbeRun, ProbeTarget
from .probes import real_lane
from .probes.revisions import REVISIONS
from .probes.runner import ProbeOutcome, run_probe
from .probes.scenarios import suite

logger = logging.getLogger(__name__)


class RunRefused(Exception):
    """A run that cannot start; the message says why."""


BUILTIN_NAME = "built-in fixture (stdio)"


def ensure_builtin_target() -> ProbeTarget:
    target, _ = ProbeTarget.objects.get_or_create(
        builtin=True,
        defaults={
            "name": BUILTIN_NAME,
            "transport": "stdio",
            "suite": "fixture",
            "upstream": "fixture",
            "upstream_description": "The fixture upstream, run directly: every content type, prompt shape "
            "and failure, at every revision.",
        },
    )
    return target


def start_run(
    *, target: ProbeTarget, revisions: list[str], scenarios: list[str], user=None, real_host: bool = False
) -> ProbeRun:
    if not target.enabled:
        raise RunRefused(f"{target} is disabled")
    known = [s.key for s in suite(target.suite)]
    chosen_scenarios = [key for key in known if key in scenarios] or known
    chosen_revisions = [rev for rev in REVISIONS if rev in revisions] or list(REVISIONS)
    try:
        with transaction.atomic():
            run = ProbeRun.objects.create(
                target=target,
                revisions=chosen_revisions,
                scenarios=chosen_scenarios,
                started_by=user,
                total=len(chosen_revisions) * len(chosen_scenarios),
                real_host=real_host and real_lane.available(),
            )
    except IntegrityError:
        raise RunRefused(f"{target} already has a run in progress; one target runs one probe at a time") from None
    from .tasks import execute_run_task

    result = execute_run_task.enqueue(run.pk)
    ProbeRun.objects.filter(pk=run.pk, task_id="").update(task_id=str(result.id))
    run.refresh_from_db()
    return run


def cancel_run(*, run: ProbeRun) -> None:
    ProbeRun.objects.filter(pk=run.pk, status=ProbeRun.QUEUED).update(
        status=ProbeRun.CANCELLED, cancel_requested=True, finished_at=timezone.now()
    )
    ProbeRun.objects.filter(pk=run.pk, status=ProbeRun.RUNNING).update(cancel_requested=True)


def execute_run(run_id: int) -> None:
    run = ProbeRun.objects.select_related("target").get(pk=run_id)
    if run.status != ProbeRun.QUEUED:
        return
    ProbeRun.objects.filter(pk=run.pk).update(status=ProbeRun.RUNNING, started_at=timezone.now())
    scenarios = [s for s in suite(run.target.suite) if s.key in run.scenarios]

    def save(outcome: ProbeOutcome) -> None:
        data = outcome.as_dict()
        ProbeResult.objects.create(
            run=run,
            scenario=data["scenario"],
            rows=data["rows"],
            method=data["method"],
            requested_revision=data["requested_revision"],
            negotiated_revision=data["negotiated_revision"],
            verdict=data["verdict"],
            failure=data["failure"],
            response=data["response"],
            findings=data["findings"],
            diff=data["diff"],
            diff_against=data["diff_against"],
            host_views=data["host_views"],
            dpcter=data["dpcter"],
            exchanges=data["exchanges"],
            duration_ms=data["duration_ms"],
        )
        ProbeRun.objects.filter(pk=run.pk).update(done=ProbeResult.objects.filter(run=run).count())

    def cancelled() -> bool:
        return ProbeRun.objects.filter(pk=run.pk, cancel_requested=True).exists()

    try:
        run_probe(
            run.target.spec(),
            scenarios=scenarios,
            revisions_=run.revisions,
            upstream=run.target.upstream_spec(),
            on_outcome=save,
            should_stop=cancelled,
        )
    except Exception as error:  # a crash in the runner is recorded on the run, never lost
        logger.exception("probe run %s failed", run.pk)
        ProbeRun.objects.filter(pk=run.pk).update(
            status=ProbeRun.FAILED, error=str(error)[:2000], finished_at=timezone.now()
        )
        return
    if run.real_host and not cancelled():
        _real_host_lane(run)
    status = ProbeRun.CANCELLED if cancelled() else ProbeRun.DONE
    ProbeRun.objects.filter(pk=run.pk).update(status=status, finished_at=timezone.now())


def _real_host_lane(run: ProbeRun) -> None:
    """Add the real opencode binary's view to every tool result of the run."""
    results = {
        f"r{result.pk}": result
        for result in run.results.filter(
            method="tools/call", verdict__in=["as expected", "changed by proxy", "invalid for revision"]
        )
        if isinstance(result.response, dict) and isinstance(result.response.get("result"), dict)
    }
    try:
        views = real_lane.capture_results({name: r.response["result"] for name, r in results.items()})
    except Exception as error:  # the real host failing is recorded, never a failed run
        logger.warning("real host lane of run %s failed: %s", run.pk, error)
        ProbeRun.objects.filter(pk=run.pk).update(error=f"real host lane failed: {error}"[:2000])
        return
    for name, view in views.items():
        result = results[name]
        result.host_views = [*result.host_views, view]
        result.save(update_fields=["host_views"])
