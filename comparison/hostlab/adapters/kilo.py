"""Kilo Code's CLI (`@kilocode/cli`, `kilo run`): an opencode fork, configured the same way (an
openai-compatible provider, `mcp` servers) in its own `kilo.json`; OpenAI Chat Completions; MCP tools
reach the model as `SERVER_TOOL`. Its own switches keep it from fetching model lists, updating,
sending telemetry and sharing sessions."""

from __future__ import annotations

import json
from pathlib import Path

from comparison.hostlab.adapters.base import Adapter, Context, Launch
from comparison.hostlab.adapters.opencode import _server, opencode_config

XDG = ("CONFIG", "DATA", "CACHE", "STATE")
QUIET_ENV = {
    "KILO_DISABLE_AUTOUPDATE": "1",
    "KILO_DISABLE_MODELS_FETCH": "1",
    "KILO_DISABLE_SHARE": "1",
    "KILO_DISABLE_LSP_DOWNLOAD": "1",
    "KILO_DISABLE_SESSION_INGEST": "1",
    "KILO_DISABLE_CLAUDE_CODE": "1",
    "KILO_DISABLE_EXTERNAL_SKILLS": "1",
    "KILO_DISABLE_CODEBASE_INDEXING": "1",
    "KILO_DISABLE_PRESENCE": "1",
    "KILO_TELEMETRY_LEVEL": "off",
}


def config(context: Context) -> dict:
    found = opencode_config(context.model_url, _server(context))
    found.pop("$schema")
    return found


def launch(context: Context, executable: Path) -> Launch:
    home = context.home
    return Launch(
        argv=[str(executable), "run", "--model", "fake/fake-model", context.prompt],
        env={f"XDG_{kind}_HOME": str(home / kind.lower()) for kind in XDG} | QUIET_ENV,
        cwd=context.project,
        files={context.project / "kilo.json": json.dumps(config(context))},
    )


ADAPTER = Adapter(
    key="kilo",
    label="Kilo Code CLI",
    package="@kilocode/cli",
    version="7.7.7",
    dialect="OpenAI Chat Completions",
    tool_visibility="namespaced: function tools named SERVER_TOOL",
    binary="kilo",
    launch=launch,
)
