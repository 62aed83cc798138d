"""Project-wide request handling."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import OperationalError
from django.http import JsonResponse
from django.shortcuts import render

logger = logging.getLogger("mcp_compare.database")


def is_statement_timeout(error: BaseException) -> bool:
    """A statement the database cancelled because it ran past `statement_timeout`."""
    cause = error.__cause__
    # SQLSTATE 57014 is query_canceled; psycopg names it QueryCanceled.
    return isinstance(error, OperationalError) and getattr(getattr(cause, "diag", None), "sqlstate", "") == "57014"


class DatabaseTimeoutMiddleware:
    """Turns a statement cancelled by the database's time limit into a clear 503 page and a log
    line, instead of a 500 (or, without the limit, a worker lost to one bad plan)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not is_statement_timeout(exception):
            return None
        logger.error(
            "statement timeout (%ss) on %s %s: %s",
            settings.STATEMENT_TIMEOUT,
            request.method,
            request.get_full_path()[:500],
            str(exception).splitlines()[0] if str(exception) else "",
        )
        response = render(
            request,
            "database_timeout.html",
            {"limit": settings.STATEMENT_TIMEOUT, "path": request.get_full_path()},
            status=503,
        )
        response["Retry-After"] = "30"
        return response


def _token_user(request):
    from comparison.models.tokens import ApiToken

    scheme, _, secret = request.headers.get("Authorization", "").partition(" ")
    return ApiToken.user_for(secret.strip()) if scheme.lower() == "bearer" else None


class BodySizeLimitMiddleware:
    """Refuses a request body over the caller's limit with 413 before anything reads it: a visitor
    who is not logged in may send MAX_BODY_ANONYMOUS bytes, a logged-in user MAX_BODY_AUTHENTICATED."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        length = request.META.get("CONTENT_LENGTH") or "0"
        size = int(length) if length.isascii() and length.isdigit() else 0
        if size <= settings.MAX_BODY_ANONYMOUS:
            return self.get_response(request)
        # An API token counts as logged in (an uploaded run is bigger than a visitor's limit).
        authenticated = request.user.is_authenticated or _token_user(request) is not None
        limit = settings.MAX_BODY_AUTHENTICATED if authenticated else settings.MAX_BODY_ANONYMOUS
        if size <= limit:
            return self.get_response(request)
        if request.path.startswith("/api/"):
            # The API answers in JSON, refusals included (as its documentation promises).
            message = f"the body is {size} bytes, over the {limit} this caller may send"
            return JsonResponse({"error": message, "status": 413}, status=413)
        htmx = request.headers.get("HX-Request") == "true"  # django-htmx sets request.htmx later
        template = "request_too_large.html#message" if htmx else "request_too_large.html"
        return render(
            request,
            template,
            {"size": size, "limit": limit, "authenticated": authenticated},
            status=413,
        )


class HeadAsGetMiddleware:
    """HEAD is answered as GET without its body, on every page and the API alike: monitors and link
    checkers ask with HEAD, and django-ninja's operations (like require_GET views) would answer 405."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method != "HEAD":
            return self.get_response(request)
        request.method = "GET"
        response = self.get_response(request)
        request.method = "HEAD"
        if not getattr(response, "streaming", False):
            length = len(response.content)
            response.content = b""
            response["Content-Length"] = str(length)
        return response
