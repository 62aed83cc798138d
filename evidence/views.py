"""The Disagreements page: every claim of a register row some evidence contradicts, where that
evidence is worked out (this layer reads both apps' tables); `?format=md|csv|json` downloads it."""

from __future__ import annotations

from django.http import HttpResponseBase
from django.template.response import TemplateResponse
from django.views.decorators.http import require_safe

from common.busy import expensive
from common.http import HtmxHttpRequest, partial
from common.pagecache import cached_page
from evidence import disagreements as disagreement_list
from registers import exporting, filters


def _listing_version(request, *args, **kwargs) -> str:
    return filters.listing_version()


@require_safe
@cached_page(users_share=True, version=_listing_version)
def disagreements(request: HtmxHttpRequest):
    """Every claim some evidence contradicts; `?format=md|csv|json` downloads the list."""
    fmt = request.GET.get("format", "")
    if fmt in exporting.DISAGREEMENT_FORMATS:
        return _disagreements_export(request, fmt)
    context = disagreement_list.page(request.GET.get("page"))
    return TemplateResponse(request, partial(request, "evidence/disagreements.html", "results"), context)


@expensive
def _disagreements_export(request: HtmxHttpRequest, fmt: str) -> HttpResponseBase:
    return exporting.disagreements_response(disagreement_list.items(), fmt)
