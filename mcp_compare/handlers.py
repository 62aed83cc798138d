"""Project-level error pages (wired in mcp_compare.urls).

A 404 says what was not found and nothing else: the resolver's own message lists every URL
pattern and module path. A request that fails because the database cannot be reached (stopped,
restarting, its pool exhausted) is a 503 with Retry-After, rendered without the database: the
usual context processors would ask it for the user and fail again.
"""

from __future__ import annotations

import sys

from django.db import DatabaseError, DataError
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string

RETRY_AFTER_SECONDS = 5
UNAVAILABLE = "The database is unavailable; retry shortly."
REFUSED_VALUE = "A value in the request is one the database cannot hold or compare (out of range, or a NUL)."
BUSY = "The database is busy with a long write (a register load); nothing was changed, retry shortly."


def is_busy(error: BaseException | None) -> bool:
    """SQLite's one writer held the database past the busy timeout (it is up, and busy)."""
    return isinstance(error, DatabaseError) and "database is locked" in str(error)


def wants_json(request) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", "")


def not_found(request, exception=None):
    # An Http404 raised by a view carries a sentence for the reader; the resolver's carries a dict
    # of every pattern it tried, which is nobody's business.
    message = exception.args[0] if exception and exception.args and isinstance(exception.args[0], str) else ""
    if wants_json(request):
        return JsonResponse({"error": message[:300] or f"Not found: {request.path[:300]}", "status": 404}, status=404)
    return render(request, "404.html", {"message": message[:300], "path": request.path[:300]}, status=404)


def database_unavailable(request, *, busy: bool = False) -> HttpResponse:
    message = BUSY if busy else UNAVAILABLE
    if wants_json(request):
        response = JsonResponse({"error": message, "status": 503}, status=503)
    else:
        page = render_to_string(
            "database_unavailable.html", {"retry": RETRY_AFTER_SECONDS, "message": BUSY if busy else ""}
        )
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def refused_value(request) -> HttpResponse:
    if wants_json(request):
        return JsonResponse({"error": REFUSED_VALUE, "status": 400}, status=400)
    return render(request, "bad_value.html", {"message": REFUSED_VALUE}, status=400)


def server_error(request):
    # A value the database refuses (an id past its integer, a NUL in text) is the request's fault,
    # and the database is up: saying "unavailable, retry" would send the reader back to retry it.
    if isinstance(sys.exception(), DataError):
        return refused_value(request)
    if isinstance(sys.exception(), DatabaseError):
        return database_unavailable(request, busy=is_busy(sys.exception()))
    if wants_json(request):
        return JsonResponse({"error": "Server error.", "status": 500}, status=500)
    return HttpResponse(render_to_string("500.html"), status=500)
