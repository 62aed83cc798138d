"""Playground: paste or pick a result and see what every host makes of it."""

from __future__ import annotations

import json

from django.template.response import TemplateResponse
from django.views.decorators.http import require_http_methods

from .hosts import PROVIDERS, is_prompt_result, prompt_views, tool_views
from .hosts.examples import all_examples, example
from .hosts.present import view_data

MAX_INPUT = 32 * 1024 * 1024


def host_views(value, provider: str) -> list[dict]:
    views = prompt_views(value) if is_prompt_result(value) else tool_views(value, provider=provider)
    return [view_data(view) for view in views]


def _parse(text: str) -> tuple[object | None, str]:
    if not text.strip():
        return None, ""
    if len(text) > MAX_INPUT:
        return None, f"The input is {len(text):,} characters; the playground takes up to {MAX_INPUT:,}."
    try:
        value = json.loads(text)
    except ValueError as error:
        return None, f"Not valid JSON: {error}."
    if not isinstance(value, dict):
        return None, f"Expected a JSON object (a CallToolResult or GetPromptResult), got a {type(value).__name__}."
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
    value, problem = _parse(text)
    views = host_views(value, provider) if value is not None else []
    context = {
        "text": text,
        "input_size": len(text),
        "problem": problem,
        "views": views,
        "kind": "prompt" if value is not None and is_prompt_result(value) else "tool",
        "provider": provider,
        "providers": PROVIDERS,
        "examples": sorted(all_examples()),
        "chosen": chosen,
    }
    name = "comparison/playground.html#views" if getattr(request, "htmx", False) else "comparison/playground.html"
    return TemplateResponse(request, name, context)
