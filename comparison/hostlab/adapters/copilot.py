"""GitHub Copilot CLI (`@github/copilot`, `copilot -p`): a model provider of one's own (BYOK)
through `COPILOT_PROVIDER_*`, OpenAI Chat Completions here; `COPILOT_OFFLINE` keeps it from signing
in, sending telemetry or starting its built-in GitHub MCP server. MCP tools reach the model as
`SERVER-TOOL`. (No `--disable-client-telemetry`: 1.0.87 refuses the command line with it.)"""

from __future__ import annotations

import json
from pathlib import Path

from comparison.hostlab.adapters.base import SERVER_NAME, Adapter, Context, Launch

MODEL = "gpt-4o"


def _server(context: Context) -> dict:
    if context.server_url:
        return {"type": "http", "url": context.server_url, "headers": context.server_headers, "tools": ["*"]}
    return {
        "type": "local",
        "command": context.server[0],
        "args": context.server[1:],
        "env": context.server_env,
        "tools": ["*"],
    }


def launch(context: Context, executable: Path) -> Launch:
    config_dir = context.home / "copilot"
    return Launch(
        argv=[
            str(executable),
            "-p",
            context.prompt,
            "--allow-all-tools",
            "--disable-builtin-mcps",
            "--output-format",
            "json",
            "--model",
            MODEL,
        ],
        env={
            "COPILOT_HOME": str(config_dir),
            "COPILOT_OFFLINE": "true",
            "COPILOT_PROVIDER_BASE_URL": context.model_url + "/v1",
            "COPILOT_PROVIDER_TYPE": "openai",
            "COPILOT_PROVIDER_API_KEY": "sk-fake",
            "COPILOT_MODEL": MODEL,
        },
        cwd=context.project,
        files={config_dir / "mcp-config.json": json.dumps({"mcpServers": {SERVER_NAME: _server(context)}})},
    )


ADAPTER = Adapter(
    key="copilot",
    label="Copilot CLI",
    package="@github/copilot",
    version="1.0.102",
    dialect="OpenAI Chat Completions",
    tool_visibility="namespaced: function tools named SERVER-TOOL",
    binary="copilot",
    launch=launch,
)
