"""opencode (`opencode-ai`, `opencode run`): OpenAI Chat Completions through its openai-compatible
provider; MCP tools reach the model as `SERVER_TOOL`. The fake model is declared with every input
modality, so nothing is dropped for want of one."""

from __future__ import annotations

import json
from pathlib import Path

from comparison.hostlab.adapters.base import SERVER_NAME, Adapter, Context, Launch

QUIET_ENV = {
    "OPENCODE_DISABLE_AUTOUPDATE": "1",
    "OPENCODE_DISABLE_MODELS_FETCH": "1",
    "OPENCODE_DISABLE_SHARE": "1",
    "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
}


def _server(context: Context) -> dict:
    if context.server_url:
        return {"type": "remote", "enabled": True, "url": context.server_url, "headers": context.server_headers}
    return {"type": "local", "enabled": True, "command": context.server}


def config(context: Context) -> dict:
    return opencode_config(context.model_url, _server(context))


def opencode_config(model_url: str, server: dict) -> dict:
    """opencode's config for a fake openai-compatible model at `model_url` and one MCP server
    named SERVER_NAME (also the model tests' `opencode serve`, opencode_serve.py)."""
    model = {
        "name": "Fake Model",
        "tool_call": True,
        "attachment": True,
        "modalities": {"input": ["text", "image", "audio", "pdf"], "output": ["text"]},
        "limit": {"context": 128000, "output": 4096},
    }
    provider = {
        "npm": "@ai-sdk/openai-compatible",
        "name": "Fake",
        "options": {"baseURL": f"{model_url}/v1", "apiKey": "sk-fake"},
        "models": {"fake-model": model},
    }
    return {
        "$schema": "https://opencode.ai/config.json",
        "autoupdate": False,
        "share": "disabled",
        "model": "fake/fake-model",
        "small_model": "fake/fake-model",
        "enabled_providers": ["fake"],
        "provider": {"fake": provider},
        "mcp": {SERVER_NAME: server},
        "permission": {"*": "allow"},
        "lsp": False,
        "formatter": False,
    }


def launch(context: Context, executable: Path) -> Launch:
    home = context.home
    return Launch(
        argv=[str(executable), "run", "--model", "fake/fake-model", context.prompt],
        env={
            **{f"XDG_{kind}_HOME": str(home / kind.lower()) for kind in ("CONFIG", "DATA", "CACHE", "STATE")},
            **QUIET_ENV,
        },
        cwd=context.project,
        files={context.project / "opencode.json": json.dumps(config(context))},
    )


ADAPTER = Adapter(
    key="opencode",
    label="opencode",
    package="opencode-ai",
    version="1.18.33",
    dialect="OpenAI Chat Completions",
    tool_visibility="namespaced: function tools named SERVER_TOOL",
    binary="opencode",
    launch=launch,
)
