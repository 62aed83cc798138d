"""Register pages. Each view parses the request, calls one selector (registers.selectors) or
service (registers.services) and renders one template; an htmx request gets the page's own
partial instead of the whole page."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import permission_required
from django.http import Http404, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.views.decorators.http import require_POST, require_safe

from common.beside_runs import beside_runs_version
from common.busy import expensive
from common.downloads import download
from common.http import HtmxHttpRequest, base_url, export_policy, partial
from common.pagecache import cached_page
from registers import exporting, filters, selectors, services
from registers.core import glossary as glossary_terms
from registers.models import Register


def _listing_version(request, *args, **kwargs) -> str:
    return filters.listing_version()


def _rows(request: HtmxHttpRequest, template: str) -> TemplateResponse:
    """A page of filtered rows (list or matrix); htmx gets the page's `results` partial, and a
    filter change pushes the canonical URL of the new state (defaults left out)."""
    found = selectors.rows_page(request.GET, request.GET.get("page"))
    response = TemplateResponse(request, partial(request, template, "results"), found.context())
    if request.htmx and not request.GET.get("page"):
        response["HX-Push-Url"] = request.path + found.filtered.filter.querystring()
    return response


@require_safe
@cached_page(users_share=True, version=_listing_version)
def row_list(request: HtmxHttpRequest) -> TemplateResponse:
    return _rows(request, "registers/row_list.html")


@require_safe
@cached_page(users_share=True, version=_listing_version)
def matrix(request: HtmxHttpRequest) -> TemplateResponse:
    return _rows(request, "registers/matrix.html")


@require_safe
@cached_page(users_share=True, version=beside_runs_version)
def register_list(request: HtmxHttpRequest) -> TemplateResponse:
    return TemplateResponse(request, "registers/register_list.html", {"registers": selectors.register_list()})


@require_safe
@cached_page(users_share=True, version=beside_runs_version)
def register_detail(request: HtmxHttpRequest, slug: str) -> TemplateResponse:
    context = selectors.register_page(slug, request.GET.get("page"))
    context["can_verify"] = request.user.has_perm("registers.verify_citations")
    return TemplateResponse(request, "registers/register_detail.html", context)


PROPOSAL_FORMATS = {"patch": "text/x-diff; charset=utf-8", "json": "application/json"}


@require_safe
@cached_page(users_share=True)
def register_proposals(request: HtmxHttpRequest, slug: str):
    """The edits the register's evidence decides, each with its evidence; `?format=patch` the patch
    of the register's text as loaded, `?format=json` the list. An htmx request gets the section."""
    context = selectors.proposals_page(slug)
    fmt = request.GET.get("format", "")
    if fmt in PROPOSAL_FORMATS and context["proposals"] is not None:
        found = context["proposals"]
        body = found.patch() if fmt == "patch" else json.dumps(found.as_dict(), indent=2, ensure_ascii=False)
        response = HttpResponse(body, content_type=PROPOSAL_FORMATS[fmt])
        response["Content-Disposition"] = f'attachment; filename="{found.register.slug}-proposed-edits.{fmt}"'
        return response
    return TemplateResponse(request, partial(request, "registers/proposals.html", "proposals"), context)


@require_POST
@permission_required("registers.verify_citations", raise_exception=True)
def verify_register(request: HtmxHttpRequest, slug: str):
    register = get_object_or_404(Register, slug=slug)
    messages.success(request, services.verify_register(register))
    return redirect(register.get_absolute_url())


@require_safe
@cached_page(users_share=True)
def row_detail(request: HtmxHttpRequest, slug: str, row_id: str) -> HttpResponseBase:
    if row_id != row_id.upper() and (found := selectors.row_in_other_case(slug, row_id)) is not None:
        return redirect(found.get_absolute_url())
    return TemplateResponse(request, "registers/row_detail.html", selectors.row_page(slug, row_id))


@require_safe
def row_by_id(request: HtmxHttpRequest, row_id: str):
    rows = selectors.rows_by_id(row_id)
    if not rows:
        raise Http404(f"No loaded register has a row {row_id}.")
    if len(rows) == 1:
        return redirect(rows[0].get_absolute_url())
    # Two registers use the ID: say so rather than pick one of them.
    return TemplateResponse(request, "registers/row_choice.html", {"row_id": row_id, "rows": rows}, status=300)


@require_safe
@expensive
def export(request: HtmxHttpRequest, fmt: str) -> HttpResponseBase:
    """What the row list shows, in another format: the same query parameters as the page."""
    if fmt not in exporting.CONTENT_TYPES:
        raise Http404(f"No export format {fmt!r}.")
    row_filter = filters.parse(request.GET)
    chunks = exporting.export_chunks(fmt, row_filter, base_url=base_url(request))
    return export_policy(
        download(chunks, content_type=exporting.CONTENT_TYPES[fmt], filename=exporting.file_name(row_filter, fmt))
    )


@require_safe
def glossary(request: HtmxHttpRequest) -> TemplateResponse:
    """The words the pages use, each with what it means here (registers.core.glossary)."""
    return TemplateResponse(request, "registers/glossary.html", {"terms": glossary_terms.TERMS})
