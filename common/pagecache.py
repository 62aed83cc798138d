"""Pages that cost little: a response cache keyed by the data version, and ETags from it.

The data version (`DataVersion`, one row in the database) changes on every write that changes
what a page shows. A listing or register page for a visitor who is not logged in is cached in
Django's cache (shared by the server's processes: a file cache by default, Redis when
configured) under the version, the path, the query string and whether htmx asked for a
fragment; every such page also carries an ETag from the same parts, so a reload is a 304.
Logged-in users get ETags, and on the main pages (`users_share`) one cached copy for every user
with the same permissions, with each user's own navigation (their name) and CSRF token put back
per request: a form only some permissions show is in the copy of those who hold them alone.
Keys and ETags carry the code's version too (a digest of the project's code, templates and static
files): an upgrade that changes pages but not data served the old pages for up to a day.
"""

from __future__ import annotations

import hashlib
import os
import re
import uuid
from collections.abc import Iterable
from contextvars import ContextVar
from functools import cache as once
from functools import wraps
from pathlib import Path

import django
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers

from registers.models import DataVersion

CACHE_SECONDS = 24 * 3600
PROJECT = Path(__file__).resolve().parent.parent
#: Packages at the project's top that make no page.
NOT_PAGE_CODE = frozenset({"tests", "bench"})
#: What a page is made from: every package of the project (found, not listed, so a new one is never
#: left out to serve pages cached by its old code), the templates and the static files.
CODE_ROOTS = (
    *sorted(path.parent.name for path in PROJECT.glob("*/__init__.py") if path.parent.name not in NOT_PAGE_CODE),
    "templates",
    "static",
)
CODE_SUFFIXES = frozenset({".py", ".html", ".css", ".js", ".svg", ".json", ".md"})
#: Headers kept with a cached page (htmx reads HX-Push-Url on a fragment).
KEPT_HEADERS = ("Content-Type", "HX-Push-Url", "Content-Language")


#: The data version's rows (tokens). ALL changes on every write that changes a page; BESIDE_RUNS
#: on every such write but those of probe runs and their results alone (a run or an upload
#: stored), so what reads no run (the registers' rows, the lab's chips) outlives a team's CI
#: uploads; a write that does not say it touched runs alone changes both. PERMISSIONS changes when
#: a user's or a group's permissions do (the permission profiles are kept per process by it).
ALL, BESIDE_RUNS, PERMISSIONS = 1, 2, 3
TOKENS = (ALL, BESIDE_RUNS, PERMISSIONS)


def data_version() -> str:
    return data_versions()[0]


#: The tokens a cached page's request read first: what it renders reads them again for free.
_held: ContextVar[dict[int, str] | None] = ContextVar("data_versions", default=None)


def _tokens() -> dict[int, str]:
    """{row: token} of every row, in one query (none inside a cached page's request)."""
    held = _held.get()
    if held is not None:
        return held
    found = dict(DataVersion.objects.filter(pk__in=TOKENS).values_list("pk", "token"))
    if len(found) < len(TOKENS):
        _create_missing(uuid.uuid4().hex)
        found = dict(DataVersion.objects.filter(pk__in=TOKENS).values_list("pk", "token"))
    return found


def _create_missing(token: str) -> None:
    for pk in TOKENS:
        try:
            with transaction.atomic():
                DataVersion.objects.get_or_create(pk=pk, defaults={"token": token})
        except IntegrityError:  # another process created it first
            pass


def data_versions() -> tuple[str, str]:
    """(ALL's token, BESIDE_RUNS's token)."""
    tokens = _tokens()
    return tokens[ALL], tokens[BESIDE_RUNS]


def bump_data_version(*, runs_only: bool = False) -> str:
    """A new token: every cached page and ETag from before is stale (with `runs_only`, a change of
    probe runs or results alone, what reads no run stays fresh)."""
    return _bump((ALL,) if runs_only else (ALL, BESIDE_RUNS))


def bump_permissions_version() -> str:
    """A user's or a group's permissions changed: every permission profile is worked out again."""
    return _bump((PERMISSIONS,))


def _bump(rows: tuple[int, ...]) -> str:
    token = uuid.uuid4().hex
    if DataVersion.objects.filter(pk__in=rows).update(token=token) < len(rows):
        _create_missing(token)
        DataVersion.objects.filter(pk__in=rows).update(token=token)
    return token


def bump_runs_version() -> str:
    """bump_data_version of a write of probe runs or results alone."""
    return bump_data_version(runs_only=True)


#: Folders below the code roots that hold no page code: installed packages (the host lab's
#: node_modules alone is 15,000 files, which made every new server process take seconds).
NOT_PAGE_FOLDERS = frozenset({"node_modules", "__pycache__"})


def code_digest(roots: Iterable[Path]) -> str:
    """A digest of every code, template and static file below `roots` (paths and contents)."""
    digest = hashlib.blake2b(django.get_version().encode(), digest_size=8)
    for root in roots:
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = sorted(name for name in subfolders if name not in NOT_PAGE_FOLDERS)
            for name in sorted(files):
                path = Path(folder) / name
                if path.suffix in CODE_SUFFIXES and path.is_file():
                    digest.update(str(path.relative_to(root.parent)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


@once
def code_version() -> str:
    """This process's code version, read once (a server runs the code it started with)."""
    return code_digest(PROJECT / name for name in CODE_ROOTS)


def _digest(*parts: str) -> str:
    return hashlib.blake2b("\x1f".join(parts).encode(), digest_size=12).hexdigest()


#: Where the user's part of the navigation stands in a page cached for every logged-in user.
USER_NAV_MARK = "<!--mcp-compare:user-nav-->"
#: A form's CSRF token in a shared copy: each request gets its own user's token in its place.
CSRF_MARK = "mcp-compare-csrf-token"
CSRF_INPUT = re.compile(rb'(<input type="hidden" name="csrfmiddlewaretoken" value=")[^"]*(")')


#: {(user id, active, superuser, staff, PERMISSIONS token): profile}, per process.
_profiles: dict[tuple, str] = {}
PROFILES_KEPT = 1000


def permission_profile(user) -> str:
    """Who may see the same copy of a page: users holding the same permissions and staff status (a
    superuser holds every permission). Their names, navigation and tokens are put back per request.
    Read once per process until a permission changes (one query: the user's own permissions and
    their groups'; a superuser's are all, unread)."""
    key = (user.pk, user.is_active, user.is_superuser, user.is_staff, _tokens()[PERMISSIONS])
    if key not in _profiles:
        if len(_profiles) >= PROFILES_KEPT:
            _profiles.clear()
        _profiles[key] = _read_profile(user)
    return _profiles[key]


def _read_profile(user) -> str:
    if user.is_active and user.is_superuser:
        return _digest("superuser")
    held = set()
    if user.is_active:
        held = set(
            Permission.objects.filter(Q(user=user) | Q(group__user=user))
            .values_list("content_type__app_label", "codename")
            .distinct()
        )
    return _digest(*sorted(f"{app}.{codename}" for app, codename in held), f"staff={user.is_staff}")


#: {(user id, name, staff): the navigation with a CSRF mark}, per process: rendered once per user.
_navs: dict[tuple, bytes] = {}
NAVS_KEPT = 1000


def user_nav(request) -> bytes:
    """The user's part of the navigation, with a CSRF mark in its form (put back by _for_user)."""
    user = request.user
    key = (user.pk, user.get_username(), user.is_staff)
    if key not in _navs:
        if len(_navs) >= NAVS_KEPT:
            _navs.clear()
        rendered = render_to_string("_user_nav.html", {"user": user}, request=request).encode()
        _navs[key] = CSRF_INPUT.sub(rb"\g<1>" + CSRF_MARK.encode() + rb"\g<2>", rendered)
    return _navs[key]


#: What a `cached_page` version returns for a request it does not cache.
NOT_CACHED = object()


def cached_page(view=None, *, users_share: bool = False, varies_with=None, version=None):
    """Serve a GET view from the cache for visitors, and answer If-None-Match with 304. With
    `users_share` (pages whose content is the same for every user but the navigation: the row list
    and the matrix), logged-in users share one cached copy too, with their own navigation put back
    per request: without it a team's load was rendered anew for every request. `varies_with`, a
    callable, names state outside the database that the page shows too. `version(request, *args,
    **kwargs)` keys the page in place of the data version: a narrower one for a page that reads part
    of the data (it must change whenever what the page shows does; None: the data version;
    NOT_CACHED: this request is served as if the view were not decorated)."""
    if view is None:
        return lambda inner: cached_page(inner, users_share=users_share, varies_with=varies_with, version=version)

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method not in ("GET", "HEAD"):
            return view(request, *args, **kwargs)
        holding = _held.set(_tokens())
        try:
            return serve(request, *args, **kwargs)
        finally:
            _held.reset(holding)

    def serve(request, *args, **kwargs):
        narrower = version(request, *args, **kwargs) if version is not None else None
        if narrower is NOT_CACHED:
            return view(request, *args, **kwargs)
        key_version = f"{code_version()[:8]}{narrower or data_version()}"
        if varies_with is not None:
            # State a page shows that is not data (which hosts are installed here) keys it too.
            key_version += _digest(varies_with())[:8]
        fragment = "fragment" if request.headers.get("HX-Request") == "true" else "page"
        # A page with a message for this user is this user's alone (len() leaves them unread).
        plain = "messages" not in request.COOKIES and not len(get_messages(request))
        visitor = plain and not request.user.is_authenticated
        who = "visitor" if visitor else f"user-{request.user.pk}"
        etag = f'W/"{_digest(key_version)[:16]}-{_digest(request.get_full_path(), fragment, who)}"'
        if etag in request.headers.get("If-None-Match", ""):
            response = HttpResponseNotModified()
            response["ETag"] = etag
            return response
        shared = visitor or (plain and users_share)
        audience = "visitor" if visitor else f"users-{permission_profile(request.user)}" if shared else "user"
        key = f"page:{key_version}:{_digest(request.get_full_path(), fragment, audience)}" if shared else None
        stored = cache.get(key) if key else None
        if stored is not None:
            response = HttpResponse(_for_user(request, stored["content"], audience), status=200)
            for name, value in stored["headers"].items():
                response[name] = value
        else:
            response = _render_and_keep(request, lambda: view(request, *args, **kwargs), key, shared, audience)
        if response.status_code == 200:
            response["ETag"] = etag
            patch_vary_headers(response, ("HX-Request", "Cookie"))
        return response

    return wrapper


def _render_and_keep(request, render, key: str | None, shared: bool, audience: str):
    """The view's page, rendered with a mark where the user's navigation goes (so the copy kept is
    anyone's), kept under `key` when it is a whole 200 page, and given back with this user's
    navigation."""
    request.user_nav_mark = shared and audience.startswith("users-")
    response = render()
    if hasattr(response, "render") and not response.is_rendered:
        response.render()
    if request.user_nav_mark and not response.streaming:
        response.content = CSRF_INPUT.sub(rb"\g<1>" + CSRF_MARK.encode() + rb"\g<2>", response.content)
    if key and response.status_code == 200 and not response.streaming:
        headers = {name: response[name] for name in KEPT_HEADERS if name in response}
        cache.set(key, {"content": response.content, "headers": headers}, CACHE_SECONDS)
    if request.user_nav_mark and not response.streaming:
        response.content = _for_user(request, response.content, audience)
    return response


def _for_user(request, content: bytes, audience: str) -> bytes:
    """A shared copy with this user's CSRF tokens and navigation in place of its marks."""
    if not audience.startswith("users-"):
        return content
    if USER_NAV_MARK.encode() in content:
        content = content.replace(USER_NAV_MARK.encode(), user_nav(request), 1)
    if CSRF_MARK.encode() in content:
        content = content.replace(CSRF_MARK.encode(), get_token(request).encode())
    return content
