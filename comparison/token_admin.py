"""API tokens in the admin. A user makes tokens for themselves only (a superuser for anyone), with
scopes, an expiry and optionally the targets it may touch; the secret is shown once, on the page
that answers the save (never in a message, which would travel in a cookie). A token's user never
changes, and a revoked token stays revoked: revoking is an action, not an editable date."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse
from django.utils import timezone

from comparison.models.tokens import MAX_DAYS, SCOPES, ApiToken


class ApiTokenForm(forms.ModelForm):
    scopes = forms.MultipleChoiceField(choices=SCOPES, widget=forms.CheckboxSelectMultiple)

    class Meta:
        model = ApiToken
        fields = ("user", "name", "scopes", "expires", "targets")

    def clean_expires(self):
        expires = self.cleaned_data["expires"]
        made = self.instance.created if self.instance.pk else timezone.now()
        if expires <= timezone.now():
            raise forms.ValidationError("An expiry in the future: a token that has expired is no token.")
        if expires > made + timedelta(days=MAX_DAYS):
            raise forms.ValidationError(f"At most {MAX_DAYS} days after the token is made.")
        return expires


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    form = ApiTokenForm
    list_display = ("name", "user", "hint", "scopes", "created", "expires", "last_used", "revoked")
    list_filter = ("revoked",)
    filter_horizontal = ("targets",)
    actions = ("revoke",)

    def get_queryset(self, request):
        found = super().get_queryset(request)
        return found if request.user.is_superuser else found.filter(user=request.user)

    def get_fields(self, request, obj=None):
        fields = ["name", "scopes", "expires", "targets"]
        if obj is not None:
            return ["user", *fields, "hint", "created", "last_used", "revoked"]
        return ["user", *fields] if request.user.is_superuser else fields

    def get_readonly_fields(self, request, obj=None):
        return ("user", "hint", "created", "last_used", "revoked") if obj is not None else ()

    def save_model(self, request, obj: ApiToken, form, change: bool) -> None:
        if change:
            stored = ApiToken.objects.get(pk=obj.pk)
            # The form cannot change them; a crafted POST must not either.
            obj.user_id, obj.revoked = stored.user_id, stored.revoked
            super().save_model(request, obj, form, change)
            return
        owner = obj.user if request.user.is_superuser and obj.user_id else request.user
        if owner != request.user and not request.user.is_superuser:
            raise PermissionDenied("a token is made for yourself")
        token, secret = ApiToken.issue(owner, obj.name, scopes=form.cleaned_data["scopes"], expires=obj.expires)
        obj.pk, obj.user, obj.digest, obj.hint, obj.created = token.pk, owner, token.digest, token.hint, token.created
        obj.scopes, obj.revoked, obj.last_used = token.scopes, None, None
        # Shown once, on the page that answers this request; nothing stores it.
        request._issued_secret = secret

    def response_add(self, request, obj, post_url_continue=None):
        secret = getattr(request, "_issued_secret", None)
        if secret is None:
            return super().response_add(request, obj, post_url_continue)
        context = {**self.admin_site.each_context(request), "token": obj, "secret": secret, "opts": self.opts}
        response = TemplateResponse(request, "admin/comparison/apitoken/issued.html", context)
        response["Cache-Control"] = "no-store"
        return response

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request, queryset) -> None:
        revoked = queryset.filter(revoked__isnull=True).update(revoked=timezone.now())
        messages.info(request, f"{revoked} token(s) revoked.")
