from django.contrib import admin

from .models import Citation, HostNote, Label, Register, RevisionSupport, Row, SourceRoot


class LabelInline(admin.TabularInline):
    model = Label
    extra = 0
    fields = ("order", "text", "kind", "revision", "verb", "host")


class RevisionSupportInline(admin.TabularInline):
    model = RevisionSupport
    extra = 0
    fields = ("revision", "state", "note", "source")


class HostNoteInline(admin.TabularInline):
    model = HostNote
    extra = 0
    fields = ("host", "state", "state_source", "where")


class CitationInline(admin.TabularInline):
    model = Citation
    extra = 0
    fields = ("order", "field", "kind", "path", "line_start", "line_end", "quote", "url", "verdict", "found_line")


@admin.register(Register)
class RegisterAdmin(admin.ModelAdmin):
    list_display = ("title", "slug", "prefix", "subject", "subject_commit", "increment", "loaded_at")
    search_fields = ("title", "slug", "description")
    readonly_fields = ("content_hash", "loaded_at", "warnings")


@admin.register(Row)
class RowAdmin(admin.ModelAdmin):
    list_display = ("row_id", "title", "register", "status_verdict", "value_cell", "effort", "risk", "introduced_in")
    list_filter = ("register", "status_verdict", "effort", "risk", "introduced_in")
    search_fields = ("row_id", "title", "search_text")
    list_select_related = ("register",)
    inlines = [LabelInline, RevisionSupportInline, HostNoteInline, CitationInline]
    readonly_fields = ("content_hash",)


@admin.register(Label)
class LabelAdmin(admin.ModelAdmin):
    list_display = ("text", "kind", "row", "revision", "verb", "host")
    list_filter = ("kind", "revision", "verb", "host")
    search_fields = ("text", "row__row_id")
    list_select_related = ("row",)


@admin.register(RevisionSupport)
class RevisionSupportAdmin(admin.ModelAdmin):
    list_display = ("row", "revision", "state", "source", "note")
    list_filter = ("revision", "state", "source")
    search_fields = ("row__row_id", "note")
    list_select_related = ("row",)


@admin.register(HostNote)
class HostNoteAdmin(admin.ModelAdmin):
    list_display = ("row", "host", "state", "state_source")
    list_filter = ("host", "state", "state_source")
    search_fields = ("row__row_id",)
    list_select_related = ("row",)


@admin.register(Citation)
class CitationAdmin(admin.ModelAdmin):
    list_display = ("row", "order", "kind", "path", "line_start", "line_end", "host", "verdict")
    list_filter = ("kind", "host", "verdict", "field")
    search_fields = ("row__row_id", "path", "url", "quote")
    list_select_related = ("row",)


@admin.register(SourceRoot)
class SourceRootAdmin(admin.ModelAdmin):
    list_display = ("key", "name", "repository", "commit", "enabled")
    search_fields = ("key", "name", "repository")
