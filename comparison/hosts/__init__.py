"""Host models: what each host path makes of an MCP result. Pure Python, no Django.

`tool_views(result)` returns one HostView per host path for a CallToolResult;
`prompt_views(result)` does the same for a GetPromptResult.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from comparison.hosts import cloudflare, lootbox, mcpx, opencode_v1, opencode_v2
from comparison.hosts.view import ABSENT, HostView
from language.vocabulary import HostPath as Path

__all__ = ["ABSENT", "TOOL_PATHS", "HostView", "checked_against", "prompt_views", "tool_views"]

#: Host paths whose model the test suite checks against the real host software, on every vector.
#: Every other path (opencode v2, lootbox, mcpx, prompts as slash commands) is checked only against
#: the vectors derived by hand from the host's source.
REAL_HOST_CHECKS = {
    "opencode-v1": "the real opencode 1.18.33 binary",
    "opencode-v1-codemode": "the real opencode 1.18.33 binary, code mode",
    "cloudflare": "the real @cloudflare/codemode 0.5.6 package",
}


def checked_against(path_key: str) -> str:
    """How a host path's model is known to be right, in words for the pages."""
    if path_key in REAL_HOST_CHECKS:
        return f"checked against {REAL_HOST_CHECKS[path_key]}, and against the host lab's runs (Hosts, Disagreements)"
    return "checked against hand-derived vectors only (no runnable host here)"


@dataclass(frozen=True)
class HostPath:
    key: str  # the vectors.json key: opencode-v1, opencode-v1-codemode, …
    host: str
    label: str
    render: Callable[..., HostView]
    takes_provider: bool = False


def _path(key: Path, render: Callable[..., HostView], takes_provider: bool = False) -> HostPath:
    return HostPath(key, key.host, key.label, render, takes_provider)


TOOL_PATHS = (
    _path(Path.OPENCODE_V1, opencode_v1.direct, True),
    _path(Path.OPENCODE_V1_CODEMODE, opencode_v1.codemode, True),
    _path(Path.OPENCODE_V2, opencode_v2.direct, True),
    _path(Path.OPENCODE_V2_CODEMODE, opencode_v2.codemode, True),
    _path(Path.LOOTBOX, lootbox.script),
    _path(Path.CLOUDFLARE, cloudflare.script),
    _path(Path.MCPX, mcpx.call),
)
PROVIDERS = ("openai-compatible", "openai", "anthropic", "amazon-bedrock", "xai", "google-vertex-anthropic", "gemini-3")


def tool_views(result: Any, *, provider: str = "openai-compatible", only: str | None = None) -> list[HostView]:
    views = []
    for path in TOOL_PATHS:
        if only and path.key != only and path.host != only:
            continue
        views.append(path.render(result, provider=provider) if path.takes_provider else path.render(result))
    return views


def prompt_views(result: Any, *, arguments: list[str] | None = None) -> list[HostView]:
    return [
        opencode_v1.slash_command(result, arguments=arguments),
        opencode_v2.slash_command(result, arguments=arguments),
        mcpx.render_prompt(result),
    ]


def result_views(result: Any, *, provider: str = "openai-compatible", only: str | None = None) -> list[HostView]:
    """Every host path's view of a tool result, or of a prompt result (prompts ignore `only`)."""
    if is_prompt_result(result):
        return prompt_views(result)
    return tool_views(result, provider=provider, only=only)


def is_prompt_result(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("messages"), list) and "content" not in value
