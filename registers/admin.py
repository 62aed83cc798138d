from django.contrib import admin

from common.pagecache import bump_data_version
from registers import facts
from registers.models import Citation, HostNote, Label, Register, RevisionSupport, Row, SourceRoot


class LoadedFromFiles:
    """Register content comes from the register files: edit the file and run load_registers.
    Edits here would be overwritten by the next load and would bypass the filters' row facts,
    so these pages are read-only (a register or row may still be deleted)."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class DeletesBumpTheDataVersion:
    """Deleting registers or rows in the admin is new data for every cached page."""

    def delete_model(self, request, obj) -> None:
        super().delete_model(request, obj)
        bump_data_version()

    def delete_queryset(self, request, queryset) -> None:
        super().delete_queryset(request, queryset)
        bump_data_version()


class ChildOfRow(LoadedFromFiles):
    """A row's child may be deleted (with its row, or alone); its row's facts follow."""

    def delete_model(self, request, obj) -> None:
        super().delete_model(request, obj)
        facts.refresh([obj.row_id])

    def delete_queryset(self, request, queryset) -> None:
        rows = set(queryset.values_list("row_id", flat=True))
        super().delete_queryset(request, queryset)
        facts.refresh(rows)


class LabelInline(ChildOfRow, admin.TabularInline):
    model = Label
    extra = 0
    fields = ("order", "text", "kind", "revision", "verb", "host")


class RevisionSupportInline(ChildOfRow, admin.TabularInline):
    model = RevisionSupport
    extra = 0
    fields = ("revision", "state", "note", "source")


class HostNoteInline(ChildOfRow, admin.TabularInline):
    model = HostNote
    extra = 0
    fields = ("host", "state", "state_source", "where")


class CitationInline(ChildOfRow, admin.TabularInline):
    model = Citation
    extra = 0
    fields = ("order", "field", "kind", "path", "line_start", "line_end", "quote", "url", "verdict", "found_line")


@admin.register(Register)
class RegisterAdmin(DeletesBumpTheDataVersion, LoadedFromFiles, admin.ModelAdmin):
    list_display = ("title", "slug", "prefix", "subject", "subject_commit", "increment", "loaded_at")
    search_fields = ("title", "slug", "description")
    readonly_fields = ("content_hash", "loaded_at", "warnings")


@admin.register(Row)
class RowAdmin(DeletesBumpTheDataVersion, LoadedFromFiles, admin.ModelAdmin):
    list_display = ("row_id", "title", "register", "status_verdict", "value_cell", "effort", "risk", "introduced_in")
    list_filter = ("register", "status_verdict", "effort", "risk", "introduced_in")
    search_fields = ("row_id", "title", "search_text")
    list_select_related = ("register",)
    inlines = [LabelInline, RevisionSupportInline, HostNoteInline, CitationInline]
    readonly_fields = ("content_hash",)


@admin.register(Label)
class LabelAdmin(ChildOfRow, admin.ModelAdmin):
    list_display = ("text", "kind", "row", "revision", "verb", "host")
    list_filter = ("kind", "revision", "verb", "host")
    search_fields = ("text", "row__row_id")
    list_select_related = ("row",)


@admin.register(RevisionSupport)
class RevisionSupportAdmin(ChildOfRow, admin.ModelAdmin):
    list_display = ("row", "revision", "state", "source", "note")
    list_filter = ("revision", "state", "source")
    search_fields = ("row__row_id", "note")
    list_select_related = ("row",)


@admin.register(HostNote)
class HostNoteAdmin(ChildOfRow, admin.ModelAdmin):
    list_display = ("row", "host", "state", "state_source")
    list_filter = ("host", "state", "state_source")
    search_fields = ("row__row_id",)
    list_select_related = ("row",)


@admin.register(Citation)
class CitationAdmin(ChildOfRow, admin.ModelAdmin):
    list_display = ("row", "order", "kind", "path", "line_start", "line_end", "host", "verdict")
    list_filter = ("kind", "host", "verdict", "field")
    search_fields = ("row__row_id", "path", "url", "quote")
    list_select_related = ("row",)


@admin.register(SourceRoot)
class SourceRootAdmin(admin.ModelAdmin):
    list_display = ("key", "name", "repository", "commit", "enabled")
    search_fields = ("key", "name", "repository")
