"""GET /healthz: is the database reachable, when did a probe worker last show a sign of life, and
is any run held past the time a run may take.

For load balancers and monitors: 200 when the database answers (whatever the workers do), 503
when it does not. `status` is "ok", or "degraded" when a run has been running longer than its
deadline allows (its worker no longer finishes its steps): the web side still serves, so the code
stays 200, and `stuck_runs` names the runs to look at.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from comparison.models import ProbeRun, WorkerHeartbeat
from comparison.probes.processes.launch import START_SECONDS


def stuck_after() -> timedelta | None:
    """How long a run may be running before it is stuck: its deadline, a launch, and two leases."""
    if not settings.RUN_DEADLINE_SECONDS:
        return None
    return timedelta(seconds=settings.RUN_DEADLINE_SECONDS + START_SECONDS + 2 * settings.RUN_LEASE_SECONDS)


@never_cache
@require_safe
def healthz(request) -> JsonResponse:
    now = timezone.now()
    limit = stuck_after()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        newest = WorkerHeartbeat.objects.order_by("-seen_at").values_list("seen_at", flat=True).first()
        workers = WorkerHeartbeat.objects.count()
        stuck = (
            list(
                ProbeRun.objects.filter(status=ProbeRun.RUNNING, started_at__lt=now - limit)
                .order_by("pk")
                .values_list("pk", "worker")[:20]
            )
            if limit
            else []
        )
    except DatabaseError as error:
        return JsonResponse({"status": "unavailable", "database": str(error).splitlines()[0][:200]}, status=503)
    age = round((now - newest).total_seconds(), 1) if newest else None
    return JsonResponse(
        {
            "status": "degraded" if stuck else "ok",
            "database": "ok",
            "workers_seen": workers,
            "newest_worker_heartbeat_seconds": age,
            "stuck_runs": [{"run": pk, "worker": name} for pk, name in stuck],
        }
    )
