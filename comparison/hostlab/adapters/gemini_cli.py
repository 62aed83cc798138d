"""Gemini CLI (`@google/gemini-cli`, `gemini -p`): Gemini `streamGenerateContent`; MCP tools
reach the model as `functionDeclarations` named `mcp_SERVER_TOOL`."""

from __future__ import annotations

import json
from pathlib import Path

from comparison.hostlab.adapters.base import SERVER_NAME, Adapter, Context, Launch

MODEL = "gemini-2.5-flash"


def settings(context: Context, auth_type: str) -> str:
    server = {"command": context.server[0], "args": context.server[1:], "env": context.server_env, "trust": True}
    if context.server_url:
        server = {"httpUrl": context.server_url, "headers": context.server_headers, "trust": True}
    return json.dumps(
        {
            "security": {"auth": {"selectedType": auth_type}, "folderTrust": {"enabled": False}},
            "general": {"disableAutoUpdate": True, "disableUpdateNag": True, "enableAutoUpdate": False},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "mcpServers": {SERVER_NAME: server},
        }
    )


def launch(context: Context, executable: Path) -> Launch:
    return Launch(
        argv=[
            str(executable),
            "-p",
            context.prompt,
            "--output-format",
            "stream-json",
            "--approval-mode",
            "yolo",
            "-m",
            MODEL,
        ],
        env={
            "GEMINI_API_KEY": "fake-key",
            "GOOGLE_GEMINI_BASE_URL": context.model_url,
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
        },
        cwd=context.project,
        files={context.home / ".gemini" / "settings.json": settings(context, "gemini-api-key")},
    )


ADAPTER = Adapter(
    key="gemini-cli",
    label="Gemini CLI",
    package="@google/gemini-cli",
    version="0.61.0",
    dialect="Gemini generateContent",
    tool_visibility="namespaced: `functionDeclarations` named mcp_SERVER_TOOL",
    binary="gemini",
    launch=launch,
)
