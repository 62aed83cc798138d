"""Playground: paste or pick a result and see what every host makes of it."""

from __future__ import annotations

import json

from django.conf import settings
from django.template.response import TemplateResponse
from django.views.decorators.http import require_http_methods

from .hosts import PROVIDERS, is_prompt_result, prompt_views, tool_views
from .hosts.examples import all_examples, example
from .hosts.present import PresentedView, present
from .hosts.shape import shape_problem
from .probes import jsonsafe

#: The input is shown back in the form up to this size; beyond it, a note instead of megabytes.
ECHO_LIMIT = 256 * 1024


def host_views(value, provider: str) -> list[PresentedView]:
    views = prompt_views(value) if is_prompt_result(value) else tool_views(value, provider=provider)
    return [present(view) for view in views]


def parse_input(text: str) -> tuple[object | None, str]:
    """(value, problem): the problem names the field and what was expected."""
    if not text.strip():
        return None, ""
    try:
        value, _ = jsonsafe.loads(text)
    except jsonsafe.UnsafeJSON as error:
        return None, f"The input cannot be shown: {error} (the playground takes up to {jsonsafe.MAX_DEPTH} levels)."
    except ValueError as error:
        return None, f"Not valid JSON: {str(error)[:200]}."
    field, expected = shape_problem(value)
    if field:
        return None, f"{field}: {expected}."
    return value, ""


@require_http_methods(["GET", "POST"])
def playground(request) -> TemplateResponse:
    provider = request.POST.get("provider") or request.GET.get("provider") or "openai-compatible"
    if provider not in PROVIDERS:
        provider = "openai-compatible"
    chosen = request.GET.get("example", "")
    if request.method == "POST":
        text = request.POST.get("result", "")
    else:
        picked = example(chosen) if chosen else None
        text = json.dumps(picked, indent=2) if picked is not None else ""
    value, problem = parse_input(text)
    views = host_views(value, provider) if value is not None else []
    context = {
        "text": text if len(text) <= ECHO_LIMIT else "",
        "echo_cut": len(text) > ECHO_LIMIT,
        "input_size": len(text.encode("utf-8", "surrogatepass")),
        "problem": problem,
        "views": views,
        "kind": "prompt" if value is not None and is_prompt_result(value) else "tool",
        "provider": provider,
        "providers": PROVIDERS,
        "examples": sorted(all_examples()),
        "chosen": chosen,
        "max_input": settings.MAX_BODY_AUTHENTICATED if request.user.is_authenticated else settings.MAX_BODY_ANONYMOUS,
        "max_depth": jsonsafe.MAX_DEPTH,
    }
    name = "comparison/playground.html#views" if request.htmx else "comparison/playground.html"
    return TemplateResponse(request, name, context, status=400 if problem else 200)
