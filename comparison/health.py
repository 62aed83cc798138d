"""GET /healthz: is the database reachable, and when did a probe worker last show a sign of life.

For load balancers and monitors: 200 when the database answers (whatever the workers do), 503
when it does not. The body says how long ago the newest worker heartbeat was.
"""

from __future__ import annotations

from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .models import WorkerHeartbeat


@never_cache
@require_GET
def healthz(request) -> JsonResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        newest = WorkerHeartbeat.objects.order_by("-seen_at").values_list("seen_at", flat=True).first()
        workers = WorkerHeartbeat.objects.count()
    except DatabaseError as error:
        return JsonResponse({"status": "unavailable", "database": str(error).splitlines()[0][:200]}, status=503)
    age = round((timezone.now() - newest).total_seconds(), 1) if newest else None
    return JsonResponse(
        {"status": "ok", "database": "ok", "workers_seen": workers, "newest_worker_heartbeat_seconds": age}
    )
