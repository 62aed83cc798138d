from django import forms
from django.contrib import admin, messages
from django.utils import timezone

from common.pagecache import bump_runs_version
from comparison import tasks, token_admin  # noqa: F401 - registers the token admin
from comparison.models import ProbeResult, ProbeRun, ProbeSchedule, ProbeTarget
from comparison.probes.run.scenarios import SUITES, suite
from comparison.probes.targets.secrets import display_command, display_url
from comparison.services.target_credentials import CredentialsLeftBehind, fields_of, keep_credentials_on_origin
from language.vocabulary import REVISIONS

SECRET_FIELDS = ("headers", "upstream_headers", "env")
#: Argument lists whose credential-looking values (`--token X`, `KEY=X`) the form shows masked.
COMMAND_FIELDS = ("command", "launch")


class ProbeTargetForm(forms.ModelForm):
    class Meta:
        model = ProbeTarget
        fields = (
            "name", "transport", "url", "command", "headers", "upstream_headers", "env", "upstream_description",
            "suite", "upstream", "launch", "enabled", "uploaders",
        )  # fmt: skip

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk:
            before = fields_of(ProbeTarget.objects.get(pk=self.instance.pk))
            after = {**before, **{name: cleaned[name] for name in ("url", "upstream") if name in cleaned}}
            try:
                keep_credentials_on_origin(before, after, entered=cleaned)
            except CredentialsLeftBehind as error:
                raise forms.ValidationError(str(error)) from None
        return cleaned


@admin.register(ProbeTarget)
class ProbeTargetAdmin(admin.ModelAdmin):
    form = ProbeTargetForm
    filter_horizontal = ("uploaders",)
    list_display = ("name", "transport", "shown_url", "suite", "shown_upstream", "builtin", "enabled")

    def get_readonly_fields(self, request, obj=None):
        # What the worker runs is set only with its own permission (a superuser has it).
        if request.user.has_perm("comparison.set_target_command"):
            return ("builtin",)
        return ("builtin", "command", "launch", "env")

    @admin.display(description="URL")
    def shown_url(self, obj: ProbeTarget) -> str:
        return obj.display_url or obj.display_command

    @admin.display(description="upstream")
    def shown_upstream(self, obj: ProbeTarget) -> str:
        return obj.display_upstream

    def get_form(self, request, obj=None, **kwargs):
        # Header values are credentials: the form takes new ones but never shows stored ones.
        form = super().get_form(request, obj, **kwargs)
        if obj is not None:
            for field in SECRET_FIELDS:
                if field in form.base_fields:
                    names = sorted(getattr(ProbeTarget.objects.get(pk=obj.pk), field) or {})
                    kind = "variable" if field == "env" else "header"
                    form.base_fields[field].help_text = (
                        f"Stored {kind} names: {', '.join(names) or 'none'}. Values are not shown; leave them "
                        "blank to keep them, or enter the full set again to change them (a URL moved to another "
                        "origin needs its headers entered again)."
                    )
        return form

    def save_model(self, request, obj, form, change):
        if change:
            stored = ProbeTarget.objects.get(pk=obj.pk)
            for field in ("url", "upstream"):
                # The form showed the URL with credential query values masked: unchanged means kept.
                if getattr(obj, field) == display_url(getattr(stored, field)):
                    setattr(obj, field, getattr(stored, field))
            for field in COMMAND_FIELDS:
                # The form showed the command with its secrets masked: unchanged means kept.
                stored_command = getattr(stored, field)
                if isinstance(stored_command, list) and getattr(obj, field) == display_command(stored_command):
                    setattr(obj, field, stored_command)
            for field in SECRET_FIELDS:
                value = getattr(obj, field)
                if isinstance(value, dict) and value and not any(value.values()):
                    # The names came back blank from the form: keep the stored values.
                    setattr(obj, field, getattr(stored, field))
        super().save_model(request, obj, form, change)

    def get_object(self, request, object_id, from_field=None):
        obj = super().get_object(request, object_id, from_field)
        if obj is not None and request.method == "GET":
            for field in SECRET_FIELDS:
                setattr(obj, field, {name: "" for name in getattr(obj, field) or {}})
            obj.url = display_url(obj.url) if obj.url else ""
            obj.upstream = obj.display_upstream
            for field in COMMAND_FIELDS:
                value = getattr(obj, field)
                setattr(obj, field, display_command(value) if isinstance(value, list) else value)
        return obj


@admin.register(ProbeRun)
class ProbeRunAdmin(admin.ModelAdmin):
    """Uploaded runs are the uploader's word until someone with `accept_upload` accepts them: only
    then do they count as the dashboard's own measurements (row evidence)."""

    list_display = (
        "id", "target", "status", "done", "total", "started_by", "uploaded", "accepted_at", "created", "finished_at",
    )  # fmt: skip
    list_filter = ("status", "uploaded", "target")
    actions = ("accept",)

    @admin.action(description="Accept the selected uploaded runs as measurements", permissions=["accept"])
    def accept(self, request, queryset) -> None:
        accepted = queryset.filter(uploaded=True, accepted_at__isnull=True).update(
            accepted_by=request.user, accepted_at=timezone.now()
        )
        bump_runs_version()
        messages.info(request, f"{accepted} uploaded run(s) accepted as measurements.")

    def has_accept_permission(self, request) -> bool:
        return request.user.has_perm("comparison.accept_upload")


@admin.register(ProbeResult)
class ProbeResultAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "run",
        "scenario",
        "requested_revision",
        "upstream_revision",
        "negotiated_revision",
        "verdict",
    )
    list_filter = ("verdict", "requested_revision", "upstream_revision", "scenario")


def _scenario_choices() -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for name in SUITES:
        for scenario in suite(name):
            seen.setdefault(scenario.key, f"{scenario.title} ({scenario.key})")
    return list(seen.items())


class ProbeScheduleForm(forms.ModelForm):
    """Revisions and scenarios as checkboxes, as the run form has them, not raw JSON lists."""

    revisions = forms.MultipleChoiceField(
        choices=[(str(revision), str(revision)) for revision in REVISIONS],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="None ticked: every revision.",
    )
    upstream_revisions = forms.MultipleChoiceField(
        choices=[(str(revision), str(revision)) for revision in REVISIONS],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label="Cross-era grid: upstream revisions",
        help_text="Each one ticked pins the target's upstream to it and probes every client revision through it "
        "(about five times a run's work); none ticked: no grid.",
    )
    scenarios = forms.MultipleChoiceField(
        choices=_scenario_choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="None ticked: the target's whole suite.",
    )

    class Meta:
        model = ProbeSchedule
        fields = (
            "target",
            "every_seconds",
            "revisions",
            "upstream_revisions",
            "scenarios",
            "conformance",
            "real_hosts",
            "enabled",
        )


@admin.register(ProbeSchedule)
class ProbeScheduleAdmin(admin.ModelAdmin):
    """Saving arms the schedule's next tick (at once for a new one); disabling disarms it."""

    form = ProbeScheduleForm
    list_display = (
        "target",
        "every_seconds",
        "effective_seconds",
        "conformance",
        "real_hosts",
        "enabled",
        "next_run_at",
        "last_fired_at",
        "last_message",
    )
    readonly_fields = ("next_run_at", "last_fired_at", "last_message")

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if obj.enabled:
            tasks.arm(schedule=obj)
        else:
            tasks.disarm(schedule=obj)
