"""The playground's page: a pasted or picked result and what every host makes of it. Pure.

Its cost is bounded whatever is pasted: a result of more than MAX_BLOCKS content blocks or
messages is refused, naming the field (35,000 one-pixel images in 2 MiB took 20 s of CPU and
answered 58 MB), and each host view shows its first SHOWN_ITEMS parts, files and changes with a
count of the rest, so the page stays the same size however many blocks the input has.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from comparison.hosts import PROVIDERS, is_prompt_result, result_views
from comparison.hosts.examples import all_examples, example
from comparison.hosts.present import PresentedView, present
from comparison.hosts.shape import shape_problem
from comparison.probes.transport import jsonsafe

#: The input is shown back in the form up to this size; beyond it, a note instead of megabytes.
ECHO_LIMIT = 256 * 1024
DEFAULT_PROVIDER = "openai-compatible"
#: The most content blocks (or prompt messages) a pasted result may have.
MAX_BLOCKS = 500
#: Parts, files and changes shown per host view; the rest are counted.
SHOWN_ITEMS = 20


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
    return [shown(present(view)) for view in result_views(value, provider=provider)]


def shown(view: PresentedView) -> PresentedView:
    """The view with its first SHOWN_ITEMS parts, attached files and changes, and a note of how
    many of each are not shown."""
    hidden = [
        (len(items) - SHOWN_ITEMS, word)
        for items, word in ((view.parts, "parts"), (view.attachments, "attached files"), (view.changes, "changes"))
        if len(items) > SHOWN_ITEMS
    ]
    if not hidden:
        return view
    note = "Not shown here: " + ", ".join(f"{count:,} more {word}" for count, word in hidden) + "."
    return replace(
        view,
        parts=view.parts[:SHOWN_ITEMS],
        attachments=view.attachments[:SHOWN_ITEMS],
        changes=view.changes[:SHOWN_ITEMS],
        notes=(*view.notes, note),
    )


def too_many_blocks(value) -> str:
    """The problem with a result of more blocks than the playground takes, or ""."""
    for name in ("content", "messages"):
        items = value.get(name) if isinstance(value, dict) else None
        if isinstance(items, list) and len(items) > MAX_BLOCKS:
            return f"{name}: {len(items):,} items; the playground takes up to {MAX_BLOCKS:,}."
    return ""


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
    problem = too_many_blocks(value)
    return (None, problem) if problem else (value, "")


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
