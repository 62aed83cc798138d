"""The request type the views see (django-htmx's middleware, installed in the settings, gives
every request an `htmx` attribute, true for requests htmx made), and what both apps' views and
API answers share: the htmx partial, a page of a listing, the export policy, a JSON answer."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.paginator import InvalidPage, Page, Paginator
from django.http import Http404, HttpRequest, HttpResponseBase, JsonResponse
from django_htmx.middleware import HtmxDetails

from common.path_ids import MAX_PK


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def partial(request: HtmxHttpRequest, template: str, name: str) -> str:
    """The template, or only its partial `name` when htmx asked (it swaps that part of the page)."""
    return f"{template}#{name}" if request.htmx else template


def int_param(value) -> int | None:
    """A query value as an id: ASCII digits of a sane length, else None (never an error page)."""
    text = str(value or "")
    # At most PostgreSQL's integer: a bigger id is no id (the database would refuse the query).
    number = int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None
    return number if number is not None and number <= MAX_PK else None


def ids_or_404(values: list[str], what: str) -> list[int]:
    """Numbers from repeated query parameters (`?run=3&run=5`); any other value is a 404 that says
    what a value must be, never a value silently dropped."""
    ids = [pk for pk in map(int_param, values) if pk is not None]
    if len(ids) != len(values):
        raise Http404(f"A {what} is named by its number (?{what}=12).")
    return ids


def page_or_404(paginator: Paginator, number: str | None) -> Page:
    """The page asked for (the first when none is); a page that does not exist is a 404 that says
    how many there are, never another page in its place."""
    try:
        return paginator.page(number or 1)
    except InvalidPage:
        raise Http404(f"No page {str(number)[:20]}: there are {paginator.num_pages}.") from None


def base_url(request: HttpRequest) -> str:
    """Where an export's links point: the configured base URL, else the address it came from."""
    return settings.BASE_URL or request.build_absolute_uri("/")


def export_policy(response: HttpResponseBase) -> HttpResponseBase:
    """A download gets the exports' own Content-Security-Policy: their inline CSS, no script."""
    response._csp_config = settings.EXPORT_CSP
    return response


def api_json(data: Any, status: int = 200) -> JsonResponse:
    return JsonResponse(data, status=status, json_dumps_params={"ensure_ascii": False, "indent": 1})
