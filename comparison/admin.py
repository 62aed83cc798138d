from django.contrib import admin

from .models import ProbeResult, ProbeRun, ProbeTarget


@admin.register(ProbeTarget)
class ProbeTargetAdmin(admin.ModelAdmin):
    list_display = ("name", "transport", "url", "suite", "upstream", "builtin", "enabled")
    exclude = ()
    readonly_fields = ("builtin",)

    def get_form(self, request, obj=None, **kwargs):
        # Header values are credentials: the form takes new ones but never shows stored ones.
        form = super().get_form(request, obj, **kwargs)
        if obj is not None and "headers" in form.base_fields:
            form.base_fields["headers"].help_text = (
                f"Stored header names: {', '.join(obj.header_names) or 'none'}. Values are not shown; "
                "enter the full set again to change them."
            )
        return form

    def save_model(self, request, obj, form, change):
        if change and isinstance(obj.headers, dict) and obj.headers and not any(obj.headers.values()):
            # The names came back blank from the form: keep the stored values.
            obj.headers = ProbeTarget.objects.get(pk=obj.pk).headers
        super().save_model(request, obj, form, change)

    def get_object(self, request, object_id, from_field=None):
        obj = super().get_object(request, object_id, from_field)
        if obj is not None and request.method == "GET":
            obj.headers = {name: "" for name in obj.headers}
        return obj


@admin.register(ProbeRun)
class ProbeRunAdmin(admin.ModelAdmin):
    list_display = ("id", "target", "status", "done", "total", "started_by", "created", "finished_at")
    list_filter = ("status", "target")


@admin.register(ProbeResult)
class ProbeResultAdmin(admin.ModelAdmin):
    list_display = ("id", "run", "scenario", "requested_revision", "negotiated_revision", "verdict")
    list_filter = ("verdict", "requested_revision", "scenario")
