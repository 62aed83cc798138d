"""The playground's page: a pasted or picked result and what every host makes of it. Pure."""

from __future__ import annotations

import json
from dataclasses import dataclass

from .hosts import PROVIDERS, is_prompt_result, result_views
from .hosts.examples import all_examples, example
from .hosts.present import PresentedView, present
from .hosts.shape import shape_problem
from .probes import jsonsafe

#: The input is shown back in the form up to this size; beyond it, a note instead of megabytes.
ECHO_LIMIT = 256 * 1024
DEFAULT_PROVIDER = "openai-compatible"


@dataclass(frozen=True)
class PlaygroundInput:
    """What the visitor sent: pasted text (a POST), or the name of an example to show (a GET)."""

    provider: str = DEFAULT_PROVIDER
    chosen: str = ""
    pasted: str | None = None

    @property
    def text(self) -> str:
        if self.pasted is not None:
            return self.pasted
        picked = example(self.chosen) if self.chosen else None
        return json.dumps(picked, indent=2) if picked is not None else ""


def host_views(value, provider: str) -> list[PresentedView]:
    return [present(view) for view in result_views(value, provider=provider)]


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


def playground_page(given: PlaygroundInput, *, max_input: int) -> dict:
    provider = given.provider if given.provider in PROVIDERS else DEFAULT_PROVIDER
    text = given.text
    value, problem = parse_input(text)
    return {
        "text": text if len(text) <= ECHO_LIMIT else "",
        "echo_cut": len(text) > ECHO_LIMIT,
        "input_size": len(text.encode("utf-8", "surrogatepass")),
        "problem": problem,
        "views": host_views(value, provider) if value is not None else [],
        "kind": "prompt" if value is not None and is_prompt_result(value) else "tool",
        "provider": provider,
        "providers": PROVIDERS,
        "examples": sorted(all_examples()),
        "chosen": given.chosen,
        "max_input": max_input,
        "max_depth": jsonsafe.MAX_DEPTH,
    }
