"""Codex CLI (`@openai/codex`, `codex exec`): OpenAI Responses; MCP tools reach the model as one
`namespace` tool per server. Settings as measured in ../shared/research/real-hosts.md."""

from __future__ import annotations

import json
from pathlib import Path

from comparison.hostlab.adapters.base import SERVER_NAME, Adapter, Context, Launch


def _toml(value) -> str:
    return json.dumps(value)  # JSON strings and arrays of strings are valid TOML


def _server(context: Context, env_table: str) -> str:
    if context.server_url:
        headers = ", ".join(f"{_toml(name)} = {_toml(value)}" for name, value in sorted(context.server_headers.items()))
        return f"url = {_toml(context.server_url)}\nhttp_headers = {{ {headers} }}"
    return f"command = {_toml(context.server[0])}\nargs = {_toml(context.server[1:])}\nenv = {{ {env_table} }}"


def launch(context: Context, executable: Path) -> Launch:
    codex_home = context.home / "codex"
    env_table = ", ".join(f"{key} = {_toml(value)}" for key, value in sorted(context.server_env.items()))
    config = f"""
model = "fake-model"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "read-only"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = {_toml(context.model_url + "/v1")}
env_key = "FAKE_MODEL_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[features]
plugins = false

[mcp_servers.{SERVER_NAME}]
{_server(context, env_table)}
default_tools_approval_mode = "approve"
required = true
startup_timeout_sec = 30
"""
    return Launch(
        argv=[str(executable), "exec", "--skip-git-repo-check", "--json", context.prompt],
        env={"CODEX_HOME": str(codex_home), "FAKE_MODEL_KEY": "sk-fake"},
        cwd=context.project,
        files={codex_home / "config.toml": config},
    )


ADAPTER = Adapter(
    key="codex",
    label="Codex CLI",
    package="@openai/codex",
    version="0.169.0",
    dialect="OpenAI Responses",
    tool_visibility="namespaced: one `namespace` tool per server holding its function tools",
    binary="codex",
    launch=launch,
)
