"""API tokens in the admin: an admin makes a token for a user, sees its secret once (in the
message after saving), and revokes it by setting `revoked`. Only the digest is kept."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils import timezone

from .token_models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "hint", "created", "last_used", "revoked")
    list_filter = ("revoked",)
    fields = ("user", "name", "hint", "created", "last_used", "revoked")
    readonly_fields = ("hint", "created", "last_used")
    actions = ("revoke",)

    def save_model(self, request, obj: ApiToken, form, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        token, secret = ApiToken.issue(obj.user, obj.name)
        obj.pk, obj.digest, obj.hint, obj.created = token.pk, token.digest, token.hint, token.created
        # Shown once, here; nothing can show it again.
        messages.warning(request, f"The token for {obj.user}: {secret} — copy it now, it is not shown again.")

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request, queryset) -> None:
        revoked = queryset.filter(revoked__isnull=True).update(revoked=timezone.now())
        messages.info(request, f"{revoked} token(s) revoked.")
