"""One adapter per host: the npm package and version it runs, how it runs headless (command,
config files, environment), the model dialect the fake must speak, and how the host shows MCP
tools to its model. `ADAPTERS` lists them in the order the pages show them."""

from __future__ import annotations

from comparison.hostlab.adapters import (
    claude_code,
    cline,
    codemode,
    codex,
    continue_cli,
    copilot,
    gemini_cli,
    kilo,
    lootbox,
    opencode,
    qwen_code,
)
from comparison.hostlab.adapters.base import Adapter, Context, Launch

ADAPTERS: dict[str, Adapter] = {
    adapter.key: adapter
    for adapter in (
        codex.ADAPTER,
        claude_code.ADAPTER,
        gemini_cli.ADAPTER,
        qwen_code.ADAPTER,
        copilot.ADAPTER,
        cline.ADAPTER,
        kilo.ADAPTER,
        continue_cli.ADAPTER,
        opencode.ADAPTER,
        codemode.ADAPTER,
        lootbox.ADAPTER,
    )
}

__all__ = ["ADAPTERS", "Adapter", "Context", "Launch"]
