"""Cline (`cline`, `cline --json PROMPT`): an OpenAI-compatible provider from its own settings
file (what `cline auth` writes), OpenAI Chat Completions; MCP servers from
`cline_mcp_settings.json`. Everything lives under the run's home (`~/.cline`)."""

from __future__ import annotations

import json
from pathlib import Path

from comparison.hostlab.adapters.base import SERVER_NAME, Adapter, Context, Launch

MODEL = "gpt-4o"
PROVIDER = "openai-compatible"
UPDATED_AT = "2026-01-01T00:00:00.000Z"


def _server(context: Context) -> dict:
    if context.server_url:
        return {"type": "streamableHttp", "url": context.server_url, "headers": context.server_headers}
    return {"type": "stdio", "command": context.server[0], "args": context.server[1:], "env": context.server_env}


def launch(context: Context, executable: Path) -> Launch:
    settings = context.home / ".cline" / "data" / "settings"
    provider = {"provider": PROVIDER, "apiKey": "sk-fake", "model": MODEL, "baseUrl": context.model_url + "/v1"}
    providers = {
        "version": 1,
        "lastUsedProvider": PROVIDER,
        "modes": {},
        # Without `updatedAt` the entry is ignored and Cline falls back to its own hosted provider.
        "providers": {PROVIDER: {"settings": provider, "updatedAt": UPDATED_AT, "tokenSource": "manual"}},
    }
    return Launch(
        argv=[str(executable), "--json", "--auto-approve", "true", context.prompt],
        env={},
        cwd=context.project,
        files={
            settings / "providers.json": json.dumps(providers),
            settings / "global-settings.json": json.dumps({"telemetryOptOut": True, "autoUpdateEnabled": False}),
            settings / "cline_mcp_settings.json": json.dumps({"mcpServers": {SERVER_NAME: _server(context)}}),
        },
    )


ADAPTER = Adapter(
    key="cline",
    label="Cline",
    package="cline",
    version="3.0.65",
    dialect="OpenAI Chat Completions",
    tool_visibility="namespaced: function tools named SERVER__TOOL",
    binary="cline",
    launch=launch,
    # Under load (the CI lane) about half of its starts miss the upstream, so 3 starts were not
    # enough for 2 of 17 scenarios; a start that misses costs about 4 s.
    starts=10,
    notes=(
        "connects its MCP servers while the session starts and never adds them later: a run whose "
        "first model request lacked them is started again (up to 10 times)",
    ),
)
