"""`@expensive`: a view whose cost grows with the stored runs or rows (compares, exports, audits)
runs only while it holds one of a few slots shared by the machine's server processes
(MCP_COMPARE_EXPENSIVE_SLOTS). When every slot is taken it answers at once with 503 and
Retry-After instead of waiting: the workers stay free for the cheap pages, which keep their
latency however many expensive requests arrive (issue 53)."""

from __future__ import annotations

import functools
from pathlib import Path

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string

from common.slots import slot


def busy_response(request) -> HttpResponse:
    seconds = settings.EXPENSIVE_RETRY_SECONDS
    message = (
        f"Busy: {settings.EXPENSIVE_SLOTS} expensive request{'s' if settings.EXPENSIVE_SLOTS != 1 else ''} "
        f"(compares, exports, audits) are running on this server. Retry in {seconds} s."
    )
    if request.path.startswith("/api/"):
        response = JsonResponse({"error": message, "status": 503, "retry_after": seconds}, status=503)
    else:
        body = render_to_string("busy.html", {"message": message, "seconds": seconds}, request=request)
        response = HttpResponse(body, status=503)
    response["Retry-After"] = str(seconds)
    response["Cache-Control"] = "no-store"
    return response


def expensive(view=None, *, kind: str = "expensive"):
    """Hold a slot for the view's whole work: its rendering too (a TemplateResponse renders after
    the view returns), and a download's writing (spooled inside the view)."""
    if view is None:
        return lambda inner: expensive(inner, kind=kind)

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        with slot(Path(settings.EXPENSIVE_SLOTS_DIR), settings.EXPENSIVE_SLOTS, kind) as number:
            if number is None:
                return busy_response(request)
            response = view(request, *args, **kwargs)
            if hasattr(response, "render") and not getattr(response, "is_rendered", True):
                response.render()
            return response

    return wrapped
