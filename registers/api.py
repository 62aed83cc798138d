"""The read-only JSON API's register side (`/api/v1/registers/`, `/rows/`, `/disagreements/`):
what the pages show, as data, with the row list's filters. Reads only; cached like the pages."""

from typing import Any

from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.decorators.http import require_safe
from ninja import Query, Router

from common import api_schemas as out
from common.http import api_json, page_or_404
from common.pagecache import cached_page
from common.path_ids import known_text
from comparison.hosts.agreement import row_host_views
from evidence import lab_findings, probe_findings, row_evidence
from evidence.rules.latest_verdicts import LatestVerdicts
from registers import api_schemas as register_out
from registers import exporting, filters, selectors
from registers.core import rowcompare
from registers.models import Citation, HostNote, Label, Register, RevisionSupport, Row

#: The register side's operations on the API's document (mcp_compare.api_v1 mounts it).
router = Router(tags=["registers"])
API_PAGE_SIZE = 100
CITATION_FIELDS = ("order", "raw", "kind", "path", "line_start", "line_end", "quote", "web_url", "verdict")


def citation_dict(citation: Citation) -> dict[str, Any]:
    return {name: getattr(citation, name) for name in CITATION_FIELDS} | {"verified_commit": citation.verified_commit}


def row_dict(row: Row, probe: LatestVerdicts, evidence: str) -> dict[str, Any]:
    return {
        "register": row.register.slug,
        "row_id": row.row_id,
        "title": row.title,
        "difference": row.difference,
        "status": {"cell": row.status_cell, "verdict": row.status_verdict},
        "value": row.value_cell,
        "effort": row.effort_cell,
        "risk": row.risk_cell,
        "introduced_in": row.introduced_in,
        "removed_in": row.removed_in,
        "deprecated_in": row.deprecated_in,
        "labels": [label.text for label in row.labels.all()],
        "revisions": {s.revision: {"state": s.state, "note": s.note} for s in row.support.all()},
        "hosts": {
            note.host: {"state": note.state, "statements": [s.get("text", "") for s in note.statements]}
            for note in row.host_notes.all()
        },
        "citations": [citation_dict(c) for c in row.citations.all()],
        "fields": [{"name": f["name"], "text": f["text"]} for f in row.fields],
        "anchors": [item for item in row.anchors if isinstance(item, dict)],
        "probe_verdicts": dict(probe.for_row(item["anchor"] for item in row.anchors)),
        "evidence": evidence,
        "url": row.get_absolute_url(),
    }


def _rows(pks: list[int]) -> list[Row]:
    found = (
        Row.objects.filter(pk__in=pks)
        .select_related("register")
        .prefetch_related(
            Prefetch("labels", queryset=Label.objects.order_by("order")),
            Prefetch("support", queryset=RevisionSupport.objects.order_by("revision")),
            Prefetch("host_notes", queryset=HostNote.objects.order_by("order")),
            Prefetch("citations", queryset=Citation.objects.order_by("order")),
        )
        .in_bulk()
    )
    return [found[pk] for pk in pks if pk in found]


@router.get("/registers/", response=register_out.RegistersOut, url_name="registers")
@require_safe
@cached_page(users_share=True)
def registers(request):
    found = [
        exporting.register_dict(r) | {"rows": r.row_count, "url": r.get_absolute_url()}
        for r in selectors.register_list()
    ]
    return api_json({"registers": found})


@router.get(
    "/registers/{slug}/",
    response={200: register_out.RegisterOut, **out.NOT_FOUND},
    url_name="register",
)
@require_safe
@cached_page(users_share=True)
def register(request, slug: str):
    found = get_object_or_404(Register, slug=known_text(slug))
    rows_url = reverse("api:rows") + f"?register={found.slug}"
    ids = list(found.rows.order_by("order").values_list("row_id", flat=True))
    return api_json(
        exporting.register_dict(found) | {"row_ids": ids, "rows_url": rows_url, "url": found.get_absolute_url()}
    )


@router.get(
    "/registers/{slug}/proposals/",
    response={200: register_out.ProposalsOut, 409: out.Open, **out.NOT_FOUND},
    url_name="register_proposals",
)
@require_safe
@cached_page(users_share=True)
def register_proposals(request, slug: str):
    """The edits the register's evidence decides, each with its evidence, and the rows that need a
    person; `patch` is the unified diff of its text as loaded."""
    context = selectors.proposals_page(known_text(slug))
    found = context["proposals"]
    if found is None:
        return api_json({"register": context["register"].slug, "error": context["error"]}, 409)
    return api_json(found.as_dict() | {"patch": found.patch(), "page": f"/registers/{found.register.slug}/proposals/"})


@router.get("/rows/", response={200: register_out.RowsOut, **out.NOT_FOUND}, url_name="rows")
@require_safe
@cached_page(users_share=True)
def rows(request, query: Query[register_out.RowFilterQuery]):
    """`/api/v1/rows/?<the row list's filters>&page=N`: 100 rows a page, in the list's order."""
    filtered = filters.run(filters.parse(request.GET))
    page = page_or_404(Paginator(filtered.pks, API_PAGE_SIZE), request.GET.get("page"))
    facts = {one.pk: one for one in filtered.evaluation.selected}
    compared = rowcompare.for_filter(filtered.filter)
    probe = probe_findings.latest_probe_verdicts()
    rows_data = []
    for row in _rows(list(page.object_list)):
        item = row_dict(row, probe, facts[row.pk].evidence if row.pk in facts else "untested")
        if compared:
            item["compared"] = rowcompare.compared_dicts(compared, facts.get(row.pk))
        rows_data.append(item)
    return api_json(
        {
            "filter": dict(filtered.filter.params()),
            "comparisons": [one.as_dict() for one in compared],
            "ignored": list(filtered.filter.ignored),
            "count": page.paginator.count,
            "page": page.number,
            "pages": page.paginator.num_pages,
            "rows": rows_data,
        }
    )


@router.get(
    "/rows/{row_id}/",
    response={200: register_out.RowOut, 300: out.Choices, **out.NOT_FOUND},
    url_name="row",
)
@require_safe
@cached_page(users_share=True)
def row(request, row_id: str):
    found = selectors.rows_by_id(known_text(row_id))
    if not found:
        raise Http404(f"No loaded register has a row {row_id}.")
    if len(found) > 1:
        choices = [{"register": row.register.slug, "url": row.get_absolute_url()} for row in found]
        message = f"{len(found)} loaded registers have a row {row_id}"
        return JsonResponse({"error": message, "status": 300, "choices": choices}, status=300)
    full = _rows([found[0].pk])[0]
    claims = {note.host: note.state for note in full.host_notes.all()}
    revisions = row_evidence.revisions_of_row(full)
    items = row_evidence.row_evidence(
        full.row_id, claims, row_host_views(full.row_id, claims, revisions.title), revisions=revisions
    )
    data = row_dict(full, probe_findings.latest_probe_verdicts(), "")
    data["evidence"] = {item.host: _evidence(item) for item in items}
    data["host_observations"] = lab_findings.row_observations(revisions.anchors)
    data["host_claims_checked"] = lab_findings.claim_checks(full)
    return api_json(data)


def _evidence(item) -> dict[str, Any]:
    return {"claim": item.claim, "verdict": item.verdict, "sources": [s.as_dict() for s in item.sources]}
