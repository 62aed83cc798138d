"""Login throttling: after repeated failed log-ins for one user name, or from one address, further
attempts are refused for a while, whatever the password (the admin's login included). Counts live
in the cache the server processes share (the page cache's folder, or Redis).

An attempt is counted before its password is checked, under a lock every server process shares
(a file lock beside the file cache, Redis's lock with Redis), and forgiven when it succeeds: thirty
guesses at once are counted one after another, so no more than the limit are ever checked.
The authentication backend makes that reservation; the login page's form says when a name or
address is locked (HTTP 429) instead of "wrong password"."""

from __future__ import annotations

import fcntl
import hashlib
import os
import secrets
import threading
import time
from contextlib import contextmanager

from django import forms
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.exceptions import PermissionDenied


def client_address(request) -> str:
    # REMOTE_ADDR only: a forwarded-for header is the client's to forge.
    return (request.META.get("REMOTE_ADDR") or "unknown")[:64] if request is not None else "unknown"


def _keys(request, username: str) -> list[tuple[str, int]]:
    name = hashlib.sha256((username or "").strip().lower().encode()).hexdigest()[:32]
    return [
        (f"login-failures:user:{name}", settings.LOGIN_FAILURES_PER_USER),
        (f"login-failures:address:{client_address(request)}", settings.LOGIN_FAILURES_PER_ADDRESS),
    ]


def locked_for(request, username: str) -> int:
    """Seconds until this name or address may try again; 0 when it may now."""
    now = time.time()
    waits = []
    for key, limit in _keys(request, username):
        failures = [at for at in cache.get(key, []) if at > now - settings.LOGIN_LOCKOUT_SECONDS]
        if len(failures) >= limit:
            waits.append(int(failures[-limit] + settings.LOGIN_LOCKOUT_SECONDS - now) + 1)
    return max(waits, default=0)


_local_lock = threading.Lock()


@contextmanager
def _shared_lock():
    """One attempt at a time across every process that shares the cache."""
    backend = settings.CACHES["default"]["BACKEND"]
    if backend.endswith("RedisCache"):
        client = cache._cache.get_client(None, write=True)
        with client.lock("login-throttle-lock", timeout=10, blocking_timeout=10):
            yield
        return
    location = settings.CACHES["default"].get("LOCATION", "")
    with _local_lock:
        if backend.endswith("FileBasedCache") and location:
            os.makedirs(location, exist_ok=True)
            with open(os.path.join(location, "login-throttle.lock"), "a") as handle:
                fcntl.flock(handle, fcntl.LOCK_EX)
                try:
                    yield
                finally:
                    fcntl.flock(handle, fcntl.LOCK_UN)
        else:
            yield


def reserve(request, username: str) -> float | None:
    """Counts an attempt for this name and address before its password is checked: its stamp, or
    None when either is locked (nothing is counted then)."""
    with _shared_lock():
        if locked_for(request, username):
            return None
        now = time.time()
        stamp = now + secrets.randbelow(10**6) / 10**12  # unique, so one attempt can be forgiven
        for key, limit in _keys(request, username):
            recent = [at for at in cache.get(key, []) if at > now - settings.LOGIN_LOCKOUT_SECONDS]
            cache.set(key, [*recent, stamp][-limit:], settings.LOGIN_LOCKOUT_SECONDS)
        return stamp


def forgive(request, username: str, stamp: float) -> None:
    """A successful log-in: the name's failures are forgotten, and this attempt is not one."""
    with _shared_lock():
        keys = _keys(request, username)
        cache.delete(keys[0][0])
        for key, _ in keys[1:]:
            cache.set(key, [at for at in cache.get(key, []) if at != stamp], settings.LOGIN_LOCKOUT_SECONDS)


class ThrottledModelBackend(ModelBackend):
    """The model backend: an attempt is counted before any password is checked, refused when the
    name or address is locked, and forgiven when it succeeds."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        name = username or kwargs.get("email", "")
        stamp = reserve(request, name)
        if stamp is None:
            raise PermissionDenied("too many failed log-ins")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            forgive(request, name, stamp)
        return user


class ThrottledAuthenticationForm(AuthenticationForm):
    def clean(self):
        wait = locked_for(self.request, self.cleaned_data.get("username", ""))
        if wait:
            minutes = max(1, round(wait / 60))
            raise forms.ValidationError(
                f"Too many failed log-ins for this user name or from this address: try again in about "
                f"{minutes} minute{'s' if minutes != 1 else ''}.",
                code="locked",
            )
        return super().clean()


class LoginView(auth_views.LoginView):
    form_class = ThrottledAuthenticationForm
    redirect_authenticated_user = True

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error("__all__", "locked"):
            response.status_code = 429
            response["Retry-After"] = str(locked_for(self.request, form.cleaned_data.get("username", "")))
        return response
