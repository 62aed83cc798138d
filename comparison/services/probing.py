"""Probe runs: create one (comparison.tasks.start_run creates and enqueues it), execute it in a
worker, cancel it, recover runs whose worker died. Keyword-only writes.

A running run holds a lease: the worker executing it renews `heartbeat_at` every few seconds.
A run whose heartbeat is older than the lease (the worker was killed, its machine went away) is
marked `interrupted` by `recover_interrupted_runs`, which keeps its partial results and frees its
target; recovery runs when a worker starts, periodically inside every worker, and whenever a run
is started. Every write a worker makes is retried on a transient database error (a locked SQLite
file, a dropped connection) instead of ending the worker.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, close_old_connections, connection, transaction
from django.utils import timezone

from common.pagecache import bump_runs_version
from comparison.models import ProbeResult, ProbeRun, ProbeTarget
from comparison.probes.assessment.revisions import REVISIONS
from comparison.probes.assessment.tries import MAX_TRIES
from comparison.probes.conformance import conformance_run
from comparison.probes.processes.control import CANCELLED
from comparison.probes.run.play import RunPlan, play
from comparison.probes.run.runner import ProbeOutcome, applicable
from comparison.probes.run.scenarios import suite
from comparison.probes.targets.identity import identity_from_exchanges
from comparison.selectors.lab import measured_for_probes
from comparison.services.leases import Heartbeat, heartbeat_seconds, lease_seconds, worker_name
from comparison.services.real_hosts_lane import real_hosts_lane
from comparison.services.retention import prune_scheduled_runs
from comparison.services.run_changes import record_changes

logger = logging.getLogger(__name__)


class RunRefused(Exception):
    """A run that cannot start; the message says why."""


BUILTIN_NAME = "built-in fixture (stdio)"


def retry_transient[T](write: Callable[[], T], *, what: str, attempts: int = 8) -> T:
    """Run a database write, retrying with backoff while the database is busy or the connection
    dropped (outside a transaction only: inside one, the caller's transaction is already lost)."""
    delay = 0.2
    for attempt in range(1, attempts + 1):
        try:
            return write()
        except (OperationalError, InterfaceError) as error:
            if connection.in_atomic_block or attempt == attempts:
                raise
            logger.warning("%s: transient database error (%s); retry %d in %.1f s", what, error, attempt, delay)
            time.sleep(delay)
            delay = min(delay * 2, 5.0)
            close_old_connections()
    raise AssertionError("unreachable")


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


@dataclass(frozen=True)
class RunRequest:
    """A run as asked (a form, the API, a schedule, the command): the target, the revisions and
    scenario keys (none: all), who asked, whether the real hosts and the conformance suite go
    with it, how often a timing-sensitive cell is played (the setting when None), and the upstream
    revisions of a cross-era grid."""

    target: ProbeTarget
    revisions: list[str]
    scenarios: list[str]
    user: object = None
    real_host: bool = False
    conformance: bool = False
    schedule: object = None
    tries: int | None = None
    upstream_revisions: list[str] = field(default_factory=list)


def create_run(asked: RunRequest) -> ProbeRun:
    """The run, queued; refused when the target is disabled, cannot be pinned for a grid, or
    already has a run in progress."""
    target, revisions, scenarios = asked.target, asked.revisions, asked.scenarios
    if not target.enabled:
        raise RunRefused(f"{target} is disabled")
    # A run whose worker died must not hold the target for good.
    recover_interrupted_runs()
    known = [s.key for s in suite(target.suite)]
    chosen_scenarios = [key for key in known if key in scenarios] or known
    chosen_revisions = [rev for rev in REVISIONS if rev in revisions] or list(REVISIONS)
    chosen = [s for s in suite(target.suite) if s.key in chosen_scenarios]
    pins = [rev for rev in REVISIONS if rev in (asked.upstream_revisions or [])]
    if pins and (why := target.grid_unpinnable()):
        raise RunRefused(why)
    try:
        with transaction.atomic():
            run = ProbeRun.objects.create(
                target=target,
                revisions=chosen_revisions,
                scenarios=chosen_scenarios,
                started_by=asked.user,
                upstream_revisions=pins,
                total=max(1, len(pins))
                * sum(len(applicable(chosen, revision, target.transport)) for revision in chosen_revisions),
                real_host=asked.real_host,
                conformance=asked.conformance,
                schedule=asked.schedule,
                tries=max(1, min(asked.tries or settings.PROBE_TRIES, MAX_TRIES)),
            )
    except IntegrityError:
        raise RunRefused(f"{target} already has a run in progress; one target runs one probe at a time") from None
    bump_runs_version()  # the target's page and the runs list show the new run
    return run


def cancel_run(*, run: ProbeRun) -> bool:
    """End a run that is not final, now: queued or running (a live worker stops at its next check;
    a dead one never comes back). Returns whether the run was still active."""
    ended = ProbeRun.objects.filter(pk=run.pk, status__in=ProbeRun.ACTIVE).update(
        status=ProbeRun.CANCELLED, cancel_requested=True, finished_at=timezone.now()
    )
    if ended:
        bump_runs_version()
    return bool(ended)


def recover_interrupted_runs(*, now=None) -> list[int]:
    """Mark runs whose worker stopped renewing the lease as interrupted; returns their ids.

    A run this very process executes is never among them: the process is alive, so a late
    heartbeat means a slow database, not a dead worker."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=lease_seconds())
    stale = list(
        ProbeRun.objects.filter(status=ProbeRun.RUNNING, heartbeat_at__lt=cutoff)
        .exclude(worker=worker_name())
        .values_list("pk", "heartbeat_at", "task_id")
    )
    stale += [(pk, None, task_id) for pk, task_id in _orphaned_queued_runs(cutoff)]
    interrupted = []
    for pk, heartbeat, task_id in stale:
        seen = f"last heartbeat {heartbeat:%Y-%m-%d %H:%M:%S} UTC" if heartbeat else "never started by a worker"
        # One transaction: a reader never sees an interrupted run whose task row still says running.
        with transaction.atomic():
            updated = ProbeRun.objects.filter(pk=pk, status__in=ProbeRun.ACTIVE).update(
                status=ProbeRun.INTERRUPTED,
                finished_at=now,
                error=f"interrupted: the worker stopped renewing its {lease_seconds():.0f}-second lease ({seen}); "
                "the results it saved are kept",
            )
            if not updated:
                continue
            _fail_task_result(task_id, now)
        interrupted.append(pk)
        logger.warning("probe run %s interrupted (%s)", pk, seen)
    if interrupted:
        bump_runs_version()
    return interrupted


def _orphaned_queued_runs(cutoff) -> list[tuple[int, str]]:
    """(id, task id) of queued runs whose task a worker claimed (or failed) and then never started:
    the worker died between taking the task and starting the run."""
    try:
        from django_tasks_db.models import DBTaskResult
    except ImportError:  # another task backend: its own recovery applies
        return []
    waiting = ProbeRun.objects.filter(status=ProbeRun.QUEUED, created__lt=cutoff).exclude(task_id="")
    queued = dict(waiting.values_list("task_id", "pk"))
    if not queued:
        return []
    lost = DBTaskResult.objects.filter(id__in=list(queued)).filter(status="FAILED") | DBTaskResult.objects.filter(
        id__in=list(queued), status="RUNNING", started_at__lt=cutoff
    )
    found = {str(task_id) for task_id in lost.values_list("id", flat=True)}
    return [(pk, task_id) for task_id, pk in queued.items() if task_id in found]


def _fail_task_result(task_id: str, now) -> None:
    """The task row of an interrupted run says so too, instead of running for ever."""
    if not task_id:
        return
    try:
        from django_tasks_db.models import DBTaskResult
    except ImportError:
        return
    DBTaskResult.objects.filter(id=task_id, status="RUNNING").update(
        status="FAILED",
        finished_at=now,
        exception_class_path="comparison.services.probing.Interrupted",
        traceback="interrupted by mcp-compare: the worker stopped renewing the run's lease",
    )


def execute_run(run_id: int, *, queue_real_hosts: Callable[[ProbeRun], None]) -> None:
    """Run a queued run's cells; `queue_real_hosts` queues its "also run the real hosts" pass."""
    if not _claim(run_id):
        return
    # Pages and the API say "running" from now on, not when the first result lands.
    retry_transient(bump_runs_version, what=f"run {run_id}: new data version")
    run = ProbeRun.objects.select_related("target").get(pk=run_id)
    redactor = run.target.redactor()

    with Heartbeat(run.pk, heartbeat_seconds()) as heartbeat:

        def still_ours() -> bool:
            if heartbeat.lost.is_set():
                return False
            return retry_transient(
                lambda: ProbeRun.objects.filter(pk=run.pk, status=ProbeRun.RUNNING, cancel_requested=False).exists(),
                what=f"run {run.pk}: status check",
            )

        said: list[str] = []

        def save(outcome: ProbeOutcome) -> None:
            if not still_ours():
                return
            data = redactor.data(outcome.as_dict())
            retry_transient(lambda: _save_result(run, data), what=f"run {run.pk}: save a result")
            if not said and (found := identity_from_exchanges(data["exchanges"])):
                said.append(found)  # the first answer says it: the run's results group by it
                retry_transient(
                    lambda: ProbeRun.objects.filter(pk=run.pk).update(server_identity=found[:200]),
                    what=f"run {run.pk}: what the target says it is",
                )

        plan = _plan(run)
        control = plan.control()
        try:
            play(
                plan,
                control,
                on_outcome=save,
                should_stop=lambda: not still_ours(),
                parallel=settings.STDIO_PARALLEL if run.target.transport == "stdio" else 1,
                while_served=(lambda: still_ours() and _conformance_lane(run, redactor)) if run.conformance else None,
            )
        except Exception as error:  # a crash in the runner is recorded on the run, never lost
            _record_crash(run, redactor, error)
            return
        if control.reason and control.reason != CANCELLED:
            note = f"{control.reason.removeprefix('not probed: ')}: the cells not probed by then failed"
            ProbeRun.objects.filter(pk=run.pk).update(error=note[:2000])
        if run.real_host and still_ours():
            real_hosts_lane(run, redactor, queue_real_hosts)
    finished = retry_transient(lambda: _finish(run), what=f"run {run.pk}: finish")
    if finished:
        if run.schedule_id:
            retry_transient(
                lambda: prune_scheduled_runs(target_id=run.target_id), what=f"run {run.pk}: prune scheduled runs"
            )
    retry_transient(bump_runs_version, what=f"run {run.pk}: new data version")


def _claim(run_id: int) -> bool:
    """The queued run is this worker's now (another worker claiming it first leaves it alone)."""
    now = timezone.now()
    return bool(
        retry_transient(
            lambda: ProbeRun.objects.filter(pk=run_id, status=ProbeRun.QUEUED).update(
                status=ProbeRun.RUNNING, started_at=now, heartbeat_at=now, worker=worker_name()
            ),
            what=f"run {run_id}: claim",
        )
    )


def _plan(run: ProbeRun) -> RunPlan:
    """What the stored run plays: its target's cells at its revisions (a grid given upstream revisions)."""
    return RunPlan(
        target=run.target.spec(),
        scenarios=[s for s in suite(run.target.suite) if s.key in run.scenarios],
        revisions=run.revisions,
        upstream=run.target.upstream_spec(),
        tries=run.tries,
        deadline_seconds=settings.RUN_DEADLINE_SECONDS,
        upstream_revisions=run.upstream_revisions or [],
        lab=measured_for_probes(),
    )


def _record_crash(run: ProbeRun, redactor, error: Exception) -> None:
    logger.error("probe run %s failed:\n%s", run.pk, redactor.text(traceback.format_exc()))
    message = redactor.text(f"{type(error).__name__}: {error}")[:2000]
    retry_transient(
        lambda: ProbeRun.objects.filter(pk=run.pk, status=ProbeRun.RUNNING).update(
            status=ProbeRun.FAILED, error=message, finished_at=timezone.now()
        ),
        what=f"run {run.pk}: record the failure",
    )
    retry_transient(bump_runs_version, what=f"run {run.pk}: new data version")


def _finish(run: ProbeRun) -> int:
    """Only a run still running becomes done (a cancelled or interrupted one keeps its status), in
    one transaction with its changes since the previous run: a worker killed in between leaves a
    running run that recovery interrupts, never a done run without its changes."""
    with transaction.atomic():
        finished = ProbeRun.objects.filter(pk=run.pk, status=ProbeRun.RUNNING).update(
            status=ProbeRun.DONE, finished_at=timezone.now()
        )
        if finished:
            record_changes(run)
    return finished


#: The fields of a stored result that come as they are from the outcome's `as_dict()`.
RESULT_FIELDS = (
    "scenario", "anchors", "seen", "method", "requested_revision", "verdict", "failure", "response", "findings", "diff",
    "diff_against", "host_views", "dpcter", "interop", "exchanges", "duration_ms",
)  # fmt: skip


def _save_result(run: ProbeRun, data: dict) -> None:
    with transaction.atomic():
        ProbeResult.objects.create(
            run=run,
            family=data.get("family", ""),
            negotiated_revision=data["negotiated_revision"][:20],
            upstream_revision=data.get("upstream_revision") or "",
            tries=data.get("tries") or [],
            predictions=data.get("predictions") or [],
            **{name: data[name] for name in RESULT_FIELDS},
        )
        ProbeRun.objects.filter(pk=run.pk).update(
            done=ProbeResult.objects.filter(run=run).count(), heartbeat_at=timezone.now()
        )


def _conformance_lane(run: ProbeRun, redactor) -> None:
    """The official conformance suite, directly against the fixture and through the target;
    stored on the run. A suite that cannot run says why, never a failed run."""
    try:
        rows, status = conformance_run.compare_target(run.target.url, run.target.transport)
    except Exception as error:  # the suite failing is recorded, never a failed run
        logger.warning("conformance pass of run %s failed: %s", run.pk, redactor.text(str(error)))
        rows, status = [], f"not run: {type(error).__name__}: {error}"
    results = redactor.data({"status": status[:2000], "rows": rows})
    ProbeRun.objects.filter(pk=run.pk).update(conformance_results=results)
