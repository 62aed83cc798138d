"""Claude Code (`@anthropic-ai/claude-code`, `claude -p`): Anthropic Messages; MCP tools are
deferred behind its `ToolSearch` tool, which the model must call before the tool is offered."""

from __future__ import annotations

import json
from pathlib import Path

from comparison.hostlab.adapters.base import ANY_TOOL, SERVER_NAME, Adapter, Context, Launch

#: A model name Claude Code knows, so it makes no lookup for an unknown one.
MODEL = "claude-sonnet-4-5"


def launch(context: Context, executable: Path) -> Launch:
    config_dir = context.home / "claude"
    mcp_config = context.home / "mcp.json"
    server = {"command": context.server[0], "args": context.server[1:], "env": context.server_env}
    if context.server_url:
        server = {"type": "http", "url": context.server_url, "headers": context.server_headers}
    return Launch(
        argv=[
            str(executable),
            "-p",
            context.prompt,
            "--mcp-config",
            str(mcp_config),
            "--strict-mcp-config",
            "--allowedTools",
            f"mcp__{SERVER_NAME}" if context.tool == ANY_TOOL else f"mcp__{SERVER_NAME}__{context.tool}",
            "--output-format",
            "stream-json",
            "--verbose",
            "--model",
            MODEL,
        ],
        env={
            "CLAUDE_CONFIG_DIR": str(config_dir),
            "ANTHROPIC_BASE_URL": context.model_url,
            "ANTHROPIC_API_KEY": "sk-ant-fake",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
            # Calling every tool of a server (the conformance suite's) needs them offered at once.
            **({"ENABLE_TOOL_SEARCH": "false"} if context.tool == ANY_TOOL else {}),
        },
        cwd=context.project,
        files={mcp_config: json.dumps({"mcpServers": {SERVER_NAME: server}})},
    )


ADAPTER = Adapter(
    key="claude-code",
    label="Claude Code",
    package="@anthropic-ai/claude-code",
    version="2.1.328",
    dialect="Anthropic Messages",
    tool_visibility="behind a search tool: `ToolSearch` (select:mcp__SERVER__TOOL) offers the tool's schema",
    binary="claude",
    launch=launch,
)
