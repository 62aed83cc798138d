"""Playground: paste or pick a result and see what every host makes of it; and the hosts page:
what each host does with the rest of the protocol."""

from __future__ import annotations

from django.conf import settings
from django.template.response import TemplateResponse
from django.views.decorators.http import require_http_methods, require_safe

from common.http import HtmxHttpRequest, partial
from comparison.core import share_links
from comparison.core.playground import DEFAULT_PROVIDER, PlaygroundInput, playground_page
from comparison.selectors.lab import protocol_table


@require_http_methods(["GET", "POST"])
def playground(request: HtmxHttpRequest) -> TemplateResponse:
    limit = settings.MAX_BODY_AUTHENTICATED if request.user.is_authenticated else settings.MAX_BODY_ANONYMOUS
    pasted, link_problem = request.POST.get("result", "") if request.method == "POST" else None, ""
    if request.method != "POST" and request.GET.get("d"):
        try:
            pasted = share_links.decode(request.GET["d"], limit)
        except share_links.ShareError as error:
            pasted, link_problem = "", str(error)
    given = PlaygroundInput(
        provider=request.POST.get("provider") or request.GET.get("provider") or DEFAULT_PROVIDER,
        chosen=request.GET.get("example", ""),
        pasted=pasted,
    )
    context = playground_page(given, max_input=limit)
    context["problem"] = link_problem or context["problem"]
    context["share"] = share_links.encode(given.text) if context["views"] else None
    template = partial(request, "comparison/playground.html", "views")
    return TemplateResponse(request, template, context, status=400 if context["problem"] else 200)


@require_safe
def host_protocol(request: HtmxHttpRequest) -> TemplateResponse:
    """Every host × every scenario beyond request → answer: uses it or not, what it does, what a
    proxy's loss changes for the model, and the source."""
    return TemplateResponse(request, "comparison/host_protocol.html", protocol_table())
