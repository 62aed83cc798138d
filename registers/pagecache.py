"""Pages that cost little: a response cache keyed by the data version, and ETags from it.

The data version (`DataVersion`, one row in the database) changes on every write that changes
what a page shows. A listing or register page for a visitor who is not logged in is cached in
Django's cache (shared by the server's processes: a file cache by default, Redis when
configured) under the version, the path, the query string and whether htmx asked for a
fragment; every such page also carries an ETag from the same parts, so a reload is a 304.
Logged-in users get ETags but no shared cache entries (their pages carry their name and token).
Keys and ETags carry the code's version too (a digest of the project's code, templates and static
files): an upgrade that changes pages but not data served the old pages for up to a day.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterable
from functools import cache as once
from functools import wraps
from pathlib import Path

import django
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.http import HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers

from .models import DataVersion

CACHE_SECONDS = 24 * 3600
PROJECT = Path(__file__).resolve().parent.parent
#: What a page is made from: the code, the templates and the static files.
CODE_ROOTS = ("registers", "comparison", "templates", "static")
CODE_SUFFIXES = frozenset({".py", ".html", ".css", ".js", ".svg", ".json", ".md"})
#: Headers kept with a cached page (htmx reads HX-Push-Url on a fragment).
KEPT_HEADERS = ("Content-Type", "HX-Push-Url", "Content-Language")


def data_version() -> str:
    token = DataVersion.objects.filter(pk=1).values_list("token", flat=True).first()
    return token or bump_data_version()


def bump_data_version() -> str:
    """A new token: every cached page and ETag from before is stale."""
    token = uuid.uuid4().hex
    if not DataVersion.objects.filter(pk=1).update(token=token):
        try:
            with transaction.atomic():
                DataVersion.objects.create(pk=1, token=token)
        except IntegrityError:  # another process created it first
            DataVersion.objects.filter(pk=1).update(token=token)
    return token


def code_digest(roots: Iterable[Path]) -> str:
    """A digest of every code, template and static file below `roots` (paths and contents)."""
    digest = hashlib.blake2b(django.get_version().encode(), digest_size=8)
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix in CODE_SUFFIXES and "__pycache__" not in path.parts and path.is_file():
                digest.update(str(path.relative_to(root.parent)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


@once
def code_version() -> str:
    """This process's code version, read once (a server runs the code it started with)."""
    return code_digest(PROJECT / name for name in CODE_ROOTS)


def _digest(*parts: str) -> str:
    return hashlib.blake2b("\x1f".join(parts).encode(), digest_size=12).hexdigest()


def cached_page(view):
    """Serve a GET view from the cache for visitors, and answer If-None-Match with 304."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method not in ("GET", "HEAD"):
            return view(request, *args, **kwargs)
        version = f"{code_version()[:8]}{data_version()}"
        fragment = "fragment" if request.headers.get("HX-Request") == "true" else "page"
        visitor = not request.user.is_authenticated and "messages" not in request.COOKIES
        who = "visitor" if visitor else f"user-{request.user.pk}"
        etag = f'W/"{version[:20]}-{_digest(request.get_full_path(), fragment, who)}"'
        if etag in request.headers.get("If-None-Match", ""):
            response = HttpResponseNotModified()
            response["ETag"] = etag
            return response
        key = f"page:{version}:{_digest(request.get_full_path(), fragment)}" if visitor else None
        stored = cache.get(key) if key else None
        if stored is not None:
            response = HttpResponse(stored["content"], status=200)
            for name, value in stored["headers"].items():
                response[name] = value
        else:
            response = view(request, *args, **kwargs)
            if hasattr(response, "render") and not response.is_rendered:
                response.render()
            if key and response.status_code == 200 and not response.streaming:
                headers = {name: response[name] for name in KEPT_HEADERS if name in response}
                cache.set(key, {"content": response.content, "headers": headers}, CACHE_SECONDS)
        if response.status_code == 200:
            response["ETag"] = etag
            patch_vary_headers(response, ("HX-Request", "Cookie"))
        return response

    return wrapper
