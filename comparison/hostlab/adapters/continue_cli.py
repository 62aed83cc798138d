"""Continue's CLI (`@continuedev/cli`, `cn -p`): a model and MCP servers from a local config file
(`--config`), an OpenAI provider pointed at the fake, OpenAI Chat Completions; MCP tools reach the
model under their own names. `--auto` allows every tool; its metrics and telemetry are off."""

from __future__ import annotations

import json
from pathlib import Path

from comparison.hostlab.adapters.base import SERVER_NAME, Adapter, Context, Launch

MODEL = "gpt-4o"
FETCH_VIA_PROXY = Path(__file__).resolve().parent.parent / "preload" / "fetch_via_proxy.cjs"
#: Continue's own tools at 1.5.47 (what it offers with no MCP server configured).
OWN_TOOLS = ("Read", "Write", "List", "Bash", "Fetch", "Checklist", "CheckBackgroundJob", "AskQuestion", "MultiEdit",
             "Exit", "Skills")  # fmt: skip


def _server(context: Context) -> dict:
    if context.server_url:
        headers = {"headers": context.server_headers}
        return {"name": SERVER_NAME, "type": "streamable-http", "url": context.server_url, "requestOptions": headers}
    return {"name": SERVER_NAME, "command": context.server[0], "args": context.server[1:], "env": context.server_env}


def config(context: Context) -> dict:
    model = {
        "name": "Fake Model",
        "provider": "openai",
        "model": MODEL,
        "apiBase": context.model_url + "/v1",
        "apiKey": "sk-fake",
        "roles": ["chat"],
        "capabilities": ["tool_use", "image_input"],
    }
    return {"name": "lab", "version": "0.0.1", "schema": "v1", "models": [model], "mcpServers": [_server(context)]}


def launch(context: Context, executable: Path) -> Launch:
    # JSON is YAML: the config file is written as JSON, read by Continue's YAML loader.
    path = context.home / "continue.yaml"
    return Launch(
        argv=[str(executable), "-p", context.prompt, "--config", str(path), "--auto", "--format", "json"],
        env={
            "CONTINUE_GLOBAL_DIR": str(context.home / ".continue"),
            "CONTINUE_METRICS_ENABLED": "0",
            "CONTINUE_CLI_ENABLE_TELEMETRY": "0",
            "CONTINUE_CLI_AUTO_UPDATED": "1",
            # Its version check uses Node's own fetch, which ignores the proxy variables (and so the
            # egress trap): Node 22 is told to honour them, Node 20 gets a preload that does.
            "NODE_USE_ENV_PROXY": "1",
            "NODE_OPTIONS": f"--require {FETCH_VIA_PROXY}",
        },
        cwd=context.project,
        files={path: json.dumps(config(context))},
    )


ADAPTER = Adapter(
    key="continue",
    label="Continue CLI",
    package="@continuedev/cli",
    version="1.5.47",
    dialect="OpenAI Chat Completions",
    tool_visibility="plain: function tools named TOOL",
    binary="cn",
    launch=launch,
    bare_tool_names=True,
    own_tools=OWN_TOOLS,
)
