"""Register pages. Views are thin: parse the request (registers.filters), read, render one template;
an htmx request gets the page's own partial instead of the whole page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import permission_required
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.response import TemplateResponse
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_POST

from comparison.hosts.agreement import row_host_views
from comparison.hosts.findings import findings_for
from comparison.models import ProbeResult

from . import exporting, filters, history
from . import vocabulary as vocab
from .models import Citation, Register, Row
from .pagecache import cached_page
from .quotes import DRIFTED, FILE_MISSING, MOVED, VERDICTS
from .verification import Verifier, effective_roots, summary, verify

PAGE_SIZE = 100
EXPORT_FORMATS = [("md", "Markdown (register format)"), ("html", "HTML report"), ("json", "JSON"), ("csv", "CSV")]


def _template(request, name: str, partial: str) -> str:
    return f"{name}#{partial}" if getattr(request, "htmx", False) else name


def _with_permalink(request, response: TemplateResponse, row_filter: filters.RowFilter) -> TemplateResponse:
    """An htmx filter change pushes the canonical URL of the new state (defaults left out)."""
    if getattr(request, "htmx", False) and not request.GET.get("page"):
        response["HX-Push-Url"] = request.path + row_filter.querystring()
    return response


def _filter_context(filtered: filters.Filtered) -> dict:
    return {
        "filter": filtered.filter,
        "filter_fields": filters.filter_fields(filtered.filter, filtered.facets()),
        "matrix_columns": 1 + len(vocab.REVISIONS) + len(vocab.HOSTS),
        "export_formats": EXPORT_FORMATS,
    }


def _filtered_rows(request, template: str, rows_for) -> TemplateResponse:
    """A page of filtered rows (list or matrix); htmx gets the page's `results` partial."""
    filtered = filters.run(filters.parse(request.GET))
    page = Paginator(filtered.pks, PAGE_SIZE).get_page(request.GET.get("page"))
    by_pk = rows_for(Row.objects.filter(pk__in=page.object_list)).in_bulk()
    page.object_list = [by_pk[pk] for pk in page.object_list if pk in by_pk]
    _attach_register_cells(page.object_list)
    context = _filter_context(filtered) | {"page": page}
    response = TemplateResponse(request, _template(request, template, "results"), context)
    return _with_permalink(request, response, filtered.filter)


def _attach_register_cells(rows: list[Row]) -> None:
    """Each row's register cell, built once per register on the page rather than once per row (a
    URL reversal per row was a fifth of a page's time)."""
    cells: dict[int, str] = {}
    for row in rows:
        if row.register_id not in cells:
            register = row.register
            cells[row.register_id] = format_html(
                '<td><a href="{}">{}</a></td>', register.get_absolute_url(), register.title
            )
        row.register_cell = cells[row.register_id]


@require_GET
@cached_page
def row_list(request) -> TemplateResponse:
    return _filtered_rows(request, "registers/row_list.html", lambda rows: rows.for_listing())


@require_GET
@cached_page
def matrix(request) -> TemplateResponse:
    return _filtered_rows(request, "registers/matrix.html", lambda rows: rows.for_listing())


@require_GET
@cached_page
def register_list(request) -> TemplateResponse:
    registers = Register.objects.annotate(row_count=Count("rows")).order_by("title")
    return TemplateResponse(request, "registers/register_list.html", {"registers": registers})


@require_GET
@cached_page
def register_detail(request, slug: str) -> TemplateResponse:
    register = get_object_or_404(Register, slug=slug)
    rows = register.rows.for_listing().order_by("order")
    verdicts = dict(
        register.rows.values_list("status_verdict").annotate(n=Count("pk")).values_list("status_verdict", "n")
    )
    citation_verdicts = dict(
        Citation.objects.filter(row__register=register)
        .exclude(kind__in=["url", "wire"])
        .values_list("verdict")
        .annotate(n=Count("pk"))
        .values_list("verdict", "n")
    )
    context = {
        "register": register,
        "rows": rows,
        "verdict_counts": [(vocab.STATUS_LABELS[key], verdicts.get(key, 0)) for key in filters.STATUS_CHOICES],
        "citation_counts": [(v, citation_verdicts.get(v, 0)) for v in (*VERDICTS, "")],
        "citation_problems": Citation.objects.filter(row__register=register, verdict__in=CITATION_PROBLEMS)
        .select_related("row")
        .order_by("row__order", "order")[:MAX_CITATION_PROBLEMS],
        "can_verify": request.user.has_perm("registers.verify_citations"),
    }
    return TemplateResponse(request, "registers/register_detail.html", context)


#: Verdicts a register author must act on, listed on the register page.
CITATION_PROBLEMS = (DRIFTED, FILE_MISSING, MOVED)
MAX_CITATION_PROBLEMS = 200


@require_POST
@permission_required("registers.verify_citations", raise_exception=True)
def verify_register(request, slug: str):
    """Re-verify one register's citations against the configured sources (reads local git only)."""
    register = get_object_or_404(Register, slug=slug)
    checks = verify(Citation.objects.filter(row__register=register), verifier=Verifier(effective_roots()))
    counts = summary(checks)
    messages.success(
        request,
        f"Checked {len(checks)} citations: " + ", ".join(f"{n} {verdict}" for verdict, n in counts.most_common()),
    )
    return redirect(register.get_absolute_url())


@require_GET
@cached_page
def row_detail(request, slug: str, row_id: str) -> TemplateResponse:
    row = get_object_or_404(
        Row.objects.select_related("register").prefetch_related(
            "labels", "support", "host_notes", "citations", "versions"
        ),
        register__slug=slug,
        row_id=row_id,
    )
    siblings = Row.objects.filter(register=row.register)
    previous_row = siblings.filter(order__lt=row.order).order_by("-order").only("row_id", "title").first()
    next_row = siblings.filter(order__gt=row.order).order_by("order").only("row_id", "title").first()
    citations = list(row.citations.all())
    host_notes = [
        {"note": note, "citations": [citations[i] for i in note.citation_orders if i < len(citations)]}
        for note in row.host_notes.all()
    ]
    versions = list(row.versions.all())
    current = history.snapshot(row, [label.text for label in row.labels.all()])
    newer = [current] + [version.snapshot for version in versions]
    row_history = [
        {"version": version, "changes": history.changes(version.snapshot, newer[index])}
        for index, version in enumerate(versions)
    ]
    examples = row_host_views(row.row_id, {note.host: note.state for note in row.host_notes.all()})
    context = {
        "row": row,
        "register": row.register,
        "example_name": examples[0] if examples else "",
        "model_views": examples[1] if examples else [],
        "findings": findings_for(row.row_id),
        "lint_findings": [finding for finding in row.register.findings if finding.get("row") == row.row_id],
        "row_history": row_history,
        "audit_run_id": ProbeResult.objects.exclude(dpcter=[]).order_by("-id").values_list("run_id", flat=True).first()
        if row.register.slug == "failure-gap"
        else None,
        "probe_results": ProbeResult.objects.filter(rows_key__contains=f",{row.row_id},")
        .select_related("run__target")
        .order_by("-id")[:20],
        "fields": [f for f in row.fields if f["key"] != "sources"],
        "sources": row.field("sources"),
        "citations": citations,
        "host_notes": host_notes,
        "previous_row": previous_row,
        "next_row": next_row,
    }
    return TemplateResponse(request, "registers/row_detail.html", context)


@require_GET
def row_by_id(request, row_id: str):
    """Rows cite each other by ID across registers; IDs are unique across a register set."""
    row = Row.objects.select_related("register").filter(row_id=row_id).order_by("register__title").first()
    if row is None:
        raise Http404(f"No loaded register has a row {row_id}.")
    return redirect(row.get_absolute_url())


def not_found(request, exception=None):
    return render(request, "404.html", {"message": str(exception) if exception else ""}, status=404)


@require_GET
def export(request, fmt: str) -> StreamingHttpResponse:
    """What the row list shows, in another format: the same query parameters as the page."""
    if fmt not in exporting.CONTENT_TYPES:
        raise Http404(f"No export format {fmt!r}.")
    row_filter = filters.parse(request.GET)
    response = StreamingHttpResponse(
        exporting.export_chunks(fmt, row_filter), content_type=exporting.CONTENT_TYPES[fmt]
    )
    response["Content-Disposition"] = f'attachment; filename="mcp-compare-rows.{fmt}"'
    return response
