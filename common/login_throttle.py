"""Login throttling: after repeated failed log-ins for one user name, or from one address, further
attempts are refused for a while, whatever the password (the admin's login included). Counts live
in the cache the server processes share (the page cache's folder, or Redis).

Wired three ways: a `user_login_failed` receiver counts failures, the authentication backend
refuses a locked name or address before it checks a password, and the login page's form says so
(HTTP 429) instead of "wrong password"."""

from __future__ import annotations

import hashlib
import time

from django import forms
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.signals import user_logged_in, user_login_failed
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


def record_failure(request, username: str) -> None:
    now = time.time()
    for key, limit in _keys(request, username):
        recent = [at for at in cache.get(key, []) if at > now - settings.LOGIN_LOCKOUT_SECONDS]
        cache.set(key, [*recent, now][-limit:], settings.LOGIN_LOCKOUT_SECONDS)


def _count_failure(sender, credentials, request=None, **kwargs) -> None:
    record_failure(request, credentials.get("username", ""))


def _forget_failures(sender, request, user, **kwargs) -> None:
    cache.delete(_keys(request, user.get_username())[0][0])


def connect() -> None:
    """Count failed log-ins and forget a user's on success (called once, by the app's ready())."""
    user_login_failed.connect(_count_failure, dispatch_uid="login-throttle-failure")
    user_logged_in.connect(_forget_failures, dispatch_uid="login-throttle-success")


class ThrottledModelBackend(ModelBackend):
    """The model backend, refusing a locked name or address before it checks any password."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if locked_for(request, username or kwargs.get("email", "")):
            raise PermissionDenied("too many failed log-ins")
        return super().authenticate(request, username=username, password=password, **kwargs)


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
