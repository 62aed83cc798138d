"""Per-user API tokens: made in the admin (each user for themselves; a superuser for anyone),
stored as a SHA-256 digest only, shown once when made. A token acts as its user, with that user's
permissions, narrowed by its scopes and, when it names any, its targets; it expires, and once
revoked it stays revoked."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

#: What every token starts with, so a leaked one is recognisable (and a secret scanner can match it).
TOKEN_PREFIX = "mcpc_"  # noqa: S105 - a public prefix, not a secret

#: What a token may be used for; a write outside its scopes is refused whatever its user may do.
SCOPE_RUN, SCOPE_UPLOAD, SCOPE_TARGETS = "run", "upload", "targets"
SCOPES = [
    (SCOPE_UPLOAD, "upload runs made elsewhere (a proxy's CI)"),
    (SCOPE_RUN, "start and cancel runs"),
    (SCOPE_TARGETS, "create and edit targets"),
]
DEFAULT_DAYS = 90
MAX_DAYS = 366


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def default_expiry():
    return timezone.now() + timedelta(days=DEFAULT_DAYS)


def default_scopes() -> list[str]:
    return [SCOPE_UPLOAD]


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, help_text="What the token is for, e.g. “myproxy CI”.")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    #: The first characters of the token, to tell tokens apart in the admin without the secret.
    hint = models.CharField(max_length=16, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True, editable=False)
    revoked = models.DateTimeField(null=True, blank=True, editable=False, help_text="When it was revoked.")
    scopes = models.JSONField(default=default_scopes, help_text="What the token may do (its user's permissions too).")
    expires = models.DateTimeField(default=default_expiry, help_text=f"At most {MAX_DAYS} days after it is made.")
    targets = models.ManyToManyField(
        "comparison.ProbeTarget",
        blank=True,
        related_name="+",
        help_text="Only these targets (none chosen: every target its user may use).",
    )

    class Meta:
        ordering = ["-created"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…, {self.user})"

    @classmethod
    def issue(cls, user, name: str, *, scopes=None, expires=None, targets=()) -> tuple[ApiToken, str]:
        """A new token for `user`; the secret is returned once and never stored."""
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = cls.objects.create(
            user=user,
            name=name,
            digest=digest(secret),
            hint=secret[:12],
            scopes=list(scopes) if scopes is not None else default_scopes(),
            expires=expires or default_expiry(),
        )
        if targets:
            token.targets.set(targets)
        return token, secret

    @classmethod
    def live(cls, secret: str) -> ApiToken | None:
        """The live token for a secret, or None (unknown, revoked, expired, or its user inactive)."""
        if not secret.startswith(TOKEN_PREFIX) or len(secret) > 200:
            return None
        now = timezone.now()
        found = (
            cls.objects.select_related("user")
            .filter(digest=digest(secret), revoked__isnull=True, expires__gt=now)
            .first()
        )
        if found is None or not found.user.is_active:
            return None
        cls.objects.filter(pk=found.pk).update(last_used=now)
        return found

    @classmethod
    def user_for(cls, secret: str):
        """The active user a live token stands for, or None."""
        found = cls.live(secret)
        return None if found is None else found.user

    def allows(self, scope: str) -> bool:
        return isinstance(self.scopes, list) and scope in self.scopes

    def reaches(self, target) -> bool:
        """Whether the token may act on `target` (a token that names no target reaches every one)."""
        chosen = {pk for pk in self.targets.values_list("pk", flat=True)}
        return not chosen or target.pk in chosen
