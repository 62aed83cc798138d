"""Registers in the database: Register, Row, Label, RevisionSupport, HostNote, Citation.

HTML fields are rendered once at load (registers.core.rendering) and stored beside their Markdown
source; templates print them without rendering anything per request.
"""

from __future__ import annotations

from django.db import models
from django.urls import reverse

from common import choices
from language import vocabulary as vocab
from registers.core import excerpts
from registers.core.citations import locator

PROVENANCE = {
    vocab.FROM_WHERE_CELL: "stated in the Where cell",
    vocab.FROM_LABEL: "from a revision label",
    vocab.INFERRED: "inferred from the revision labels",
}


class Register(models.Model):
    slug = models.SlugField(max_length=100, unique=True)
    # Text a register writes is TextField, never a bounded CharField: the format sets no length, and
    # PostgreSQL refused what SQLite stored (a title over 300, a status over 50, many ID prefixes).
    title = models.TextField()
    title_html = models.TextField(blank=True)
    description = models.TextField(blank=True)
    tags = models.JSONField(default=list, blank=True)
    status = models.TextField(blank=True)
    created = models.DateTimeField(null=True, blank=True)
    last_updated = models.DateTimeField(null=True, blank=True)
    increment = models.PositiveIntegerField(default=1)
    subject = models.TextField(blank=True, help_text="The status-column subject, e.g. mcpx.")
    subject_commit = models.CharField(max_length=40, blank=True)
    intro = models.TextField(blank=True)
    intro_html = models.TextField(blank=True)
    prefix = models.TextField(blank=True)
    source_path = models.TextField(blank=True)
    content_hash = models.CharField(max_length=64, blank=True)
    read_with = models.PositiveIntegerField(
        default=0, help_text="The reading rules (registers.core.format.READING_RULES) the stored rows were parsed with."
    )
    warnings = models.JSONField(default=list, blank=True, help_text="[{line, message}] kept from the parser.")
    findings = models.JSONField(
        default=list, blank=True, help_text="[{severity, line, row, code, message}] from the register lint at load."
    )
    front_matter = models.JSONField(default=dict, blank=True, help_text="The front-matter values as written.")
    loaded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["title"]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("registers:register_detail", args=[self.slug])

    @property
    def lint_counts(self) -> dict[str, int]:
        severities = [finding.get("severity") for finding in self.findings]
        return {"error": severities.count("error"), "warning": severities.count("warning")}


class RowQuerySet(models.QuerySet):
    """Reads over rows. Which rows match a filter is decided in registers.core.rowfilter over each
    row's facts; this only narrows by free text and prefetches what listings show."""

    def search(self, text: str) -> RowQuerySet:
        query = self
        for word in text.lower().split()[:8]:
            query = query.filter(search_text__contains=word)
        return query

    def loaded_ids(self) -> frozenset[str]:
        """Every loaded row's ID (one query): what a link to a row may point at."""
        return frozenset(self.values_list("row_id", flat=True))

    def for_listing(self) -> RowQuerySet:
        """What a listing shows: the stored fragments and the register's slug and title."""
        return self.select_related("register").only(
            "pk", "row_id", "order", "lead_html", "cells_html", "matrix_html", "register__slug", "register__title"
        )


class RegisterSource(models.Model):
    """A register's text as it was loaded: what its proposed edits are a patch of. Kept apart so a
    page that reads a register never reads its whole text."""

    register = models.OneToOneField(Register, on_delete=models.CASCADE, related_name="source")
    text = models.TextField()

    def __str__(self) -> str:
        return f"the text of {self.register_id}"


class Row(models.Model):
    register = models.ForeignKey(Register, on_delete=models.CASCADE, related_name="rows")
    row_id = models.CharField(max_length=20, db_index=True)
    order = models.PositiveIntegerField()
    line = models.PositiveIntegerField(default=0, help_text="Line of the row in the register file.")
    title = models.TextField()
    title_html = models.TextField(blank=True)
    # Summary-table cells, verbatim Markdown, and their rendered HTML.
    difference = models.TextField(blank=True)
    difference_html = models.TextField(blank=True)
    labels_cell = models.TextField(blank=True)
    where_cell = models.TextField(blank=True)
    where_html = models.TextField(blank=True)
    status_cell = models.TextField(blank=True)
    status_html = models.TextField(blank=True)
    value_cell = models.TextField(blank=True)
    effort_cell = models.CharField(max_length=10, blank=True)
    risk_cell = models.CharField(max_length=10, blank=True)
    # Parsed cells.
    status_verdict = models.CharField(max_length=10, blank=True, db_index=True)
    status_broken = models.BooleanField(default=False)
    status_note = models.TextField(blank=True)
    value_sign = models.CharField(max_length=1, blank=True)
    value_level = models.TextField(blank=True)
    effort = models.CharField(max_length=2, blank=True, choices=choices.Effort)
    risk = models.CharField(max_length=4, blank=True, choices=choices.Risk)
    introduced_in = models.CharField(max_length=10, blank=True, db_index=True)
    removed_in = models.CharField(max_length=10, blank=True)
    deprecated_in = models.CharField(max_length=10, blank=True)
    has_table_row = models.BooleanField(default=True)
    # Section fields: [{key, name, text, html, line}] in register order.
    fields = models.JSONField(default=list, blank=True)
    issue_refs = models.JSONField(default=list, blank=True)
    wire_refs = models.JSONField(default=list, blank=True)
    search_text = models.TextField(blank=True, help_text="Lower-cased text of the whole row, for search.")
    # What listings show of the row, rendered at load (registers.listing).
    lead_html = models.TextField(blank=True)
    cells_html = models.TextField(blank=True)
    matrix_html = models.TextField(blank=True)
    facts = models.JSONField(
        default=dict,
        blank=True,
        help_text="What the filters read (support, host states, labels, citation states, latest version), "
        "kept in step with the children by registers.facts.",
    )
    content_hash = models.CharField(max_length=64)
    read_with = models.PositiveIntegerField(default=0, help_text="The reading rules this row was parsed with.")
    anchors = models.JSONField(
        default=list,
        blank=True,
        help_text="What the row is about (comparison.anchors): [{anchor, how, where}], the title's first.",
    )

    objects = RowQuerySet.as_manager()

    class Meta:
        ordering = ["register__title", "order"]
        constraints = [models.UniqueConstraint(fields=["register", "row_id"], name="unique_row_per_register")]

    def __str__(self) -> str:
        return f"{self.row_id} {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("registers:row_detail", args=[self.register.slug, self.row_id])

    def field(self, key: str) -> dict | None:
        return next((f for f in self.fields if f["key"] == key), None)

    @property
    def status_symbol(self) -> str:
        return vocab.STATUS_LABELS.get(self.status_verdict, "")

    @property
    def value_display(self) -> str:
        return f"{self.value_sign} {self.value_level}".strip()


class Label(models.Model):
    row = models.ForeignKey(Row, on_delete=models.CASCADE, related_name="labels")
    order = models.PositiveIntegerField()
    text = models.TextField(db_index=True)
    kind = models.CharField(max_length=10, choices=choices.LabelKind)
    revision = models.CharField(max_length=10, blank=True)
    verb = models.CharField(max_length=12, blank=True)
    host = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["row", "order"]

    def __str__(self) -> str:
        return self.text


class RevisionSupport(models.Model):
    row = models.ForeignKey(Row, on_delete=models.CASCADE, related_name="support")
    revision = models.CharField(max_length=10, choices=choices.Revision)
    state = models.CharField(max_length=10, choices=choices.SupportState)
    note = models.TextField(blank=True)
    source = models.CharField(max_length=10, blank=True, help_text="where (the cell), label, inferred, or empty.")

    class Meta:
        ordering = ["row", "revision"]
        constraints = [models.UniqueConstraint(fields=["row", "revision"], name="one_support_per_revision")]
        indexes = [models.Index(fields=["revision", "state"])]

    def __str__(self) -> str:
        return f"{self.row.row_id} {self.revision}: {self.state}"

    @property
    def short_revision(self) -> str:
        return vocab.REVISION_SHORT[self.revision]

    @property
    def provenance(self) -> str:
        return PROVENANCE.get(self.source, "the register does not say")


class HostNote(models.Model):
    row = models.ForeignKey(Row, on_delete=models.CASCADE, related_name="host_notes")
    host = models.CharField(max_length=20, choices=choices.Host)
    order = models.PositiveIntegerField()
    state = models.CharField(max_length=10, choices=choices.HostState)
    state_source = models.CharField(max_length=10, blank=True, help_text="label, where, status, or empty.")
    where = models.JSONField(default=list, blank=True)
    statements = models.JSONField(default=list, blank=True, help_text="[{text, html}]")
    citation_orders = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["row", "order"]
        constraints = [models.UniqueConstraint(fields=["row", "host"], name="one_note_per_host")]

    def __str__(self) -> str:
        return f"{self.row.row_id} {self.host}: {self.state}"

    @property
    def host_name(self) -> str:
        return vocab.host_name(self.host, self.row.register.subject)


class RowVersion(models.Model):
    """A previous version of a row, kept when a reload changed it."""

    row = models.ForeignKey(Row, on_delete=models.CASCADE, related_name="versions")
    increment = models.PositiveIntegerField(help_text="The register increment this version belonged to.")
    commit = models.CharField(max_length=40, blank=True, help_text="The status-column commit of that increment.")
    last_updated = models.DateTimeField(null=True, blank=True)
    snapshot = models.JSONField(help_text="title, cells, status verdict, labels and fields as they were.")
    replaced_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["row", "-replaced_at", "-id"]

    def __str__(self) -> str:
        return f"{self.row.row_id} at increment {self.increment}"


class SourceRoot(models.Model):
    """A source root set in the admin; overrides the settings default with the same key."""

    key = models.SlugField(max_length=50, unique=True)
    name = models.CharField(max_length=200)
    prefixes = models.JSONField(default=list, help_text='Citation path prefixes, e.g. ["v1:"]; YYYY-MM-DD is any date.')
    path_map = models.JSONField(
        default=list, blank=True, help_text='[["cited prefix", "repository prefix"], …], e.g. [["v1:", ""]].'
    )
    repository = models.CharField(max_length=1000, blank=True, help_text="A local git directory or a clone URL.")
    commit = models.CharField(max_length=100, blank=True, help_text="The pinned commit, tag or branch.")
    web_url = models.CharField(
        max_length=1000, blank=True, help_text="Link template with {commit}, {path} and {anchor} (#L1-L2)."
    )
    enabled = models.BooleanField(default=True)
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["key"]

    def __str__(self) -> str:
        return f"{self.key}: {self.name}"


class Citation(models.Model):
    row = models.ForeignKey(Row, on_delete=models.CASCADE, related_name="citations")
    order = models.PositiveIntegerField()
    field = models.TextField(blank=True, help_text="The section field the citation stands in.")
    raw = models.TextField()
    kind = models.CharField(max_length=20)
    path = models.TextField(blank=True)
    line_start = models.PositiveIntegerField(null=True, blank=True)
    line_end = models.PositiveIntegerField(null=True, blank=True)
    quote = models.TextField(blank=True)
    quote_style = models.CharField(max_length=10, blank=True)
    note = models.TextField(blank=True)
    url = models.URLField(max_length=2000, blank=True)
    web_url = models.URLField(max_length=2000, blank=True)
    host = models.CharField(max_length=20, blank=True)
    wire_ids = models.JSONField(default=list, blank=True)
    continuation = models.BooleanField(default=False)
    # Filled in by citation verification; an empty verdict means never verified.
    verdict = models.CharField(max_length=20, blank=True, db_index=True)
    verified_commit = models.CharField(max_length=40, blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    source_key = models.CharField(max_length=50, blank=True, help_text="The source root the path matched.")
    repo_path = models.TextField(blank=True)
    found_line = models.PositiveIntegerField(null=True, blank=True, help_text="Where a moved quote is now.")
    verify_detail = models.TextField(blank=True)
    excerpt = models.JSONField(
        default=dict,
        blank=True,
        help_text="The cited lines with context as verification read them: {first, focus: [first, last], lines}.",
    )

    class Meta:
        ordering = ["row", "order"]
        permissions = [("verify_citations", "Can run citation verification")]

    def __str__(self) -> str:
        return self.raw[:80]

    @property
    def excerpt_html(self) -> str:
        """The kept excerpt, highlighted (the pages that show it are cached)."""
        return excerpts.render(self.repo_path or self.path, self.excerpt) if self.excerpt else ""

    @property
    def locator(self) -> str:
        return locator(self.kind, self.path, self.url, self.wire_ids, self.line_start, self.line_end)


class DataVersion(models.Model):
    """One row whose token changes whenever what the pages show changes (a register load, a
    citation verification, a probe result or run). Cached pages are keyed by it, so a change is
    never served stale, by any process on any machine that shares the database."""

    token = models.CharField(max_length=32)
    changed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.token
