"""Per-user API tokens: created and revoked in the admin, stored as a SHA-256 digest only, shown
once when made. A request that carries one acts as its user, with that user's permissions."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

#: What every token starts with, so a leaked one is recognisable (and a secret scanner can match it).
TOKEN_PREFIX = "mcpc_"  # noqa: S105 - a public prefix, not a secret


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, help_text="What the token is for, e.g. “myproxy CI”.")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    #: The first characters of the token, to tell tokens apart in the admin without the secret.
    hint = models.CharField(max_length=16, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True, editable=False)
    revoked = models.DateTimeField(null=True, blank=True, help_text="Set to revoke: the token stops working.")

    class Meta:
        ordering = ["-created"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…, {self.user})"

    @classmethod
    def issue(cls, user, name: str) -> tuple[ApiToken, str]:
        """A new token for `user`; the secret is returned once and never stored."""
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = cls.objects.create(user=user, name=name, digest=digest(secret), hint=secret[:12])
        return token, secret

    @classmethod
    def user_for(cls, secret: str):
        """The active user a token stands for, or None (unknown, revoked, or the user inactive)."""
        if not secret.startswith(TOKEN_PREFIX) or len(secret) > 200:
            return None
        found = cls.objects.select_related("user").filter(digest=digest(secret), revoked__isnull=True).first()
        if found is None or not found.user.is_active:
            return None
        cls.objects.filter(pk=found.pk).update(last_used=timezone.now())
        return found.user
