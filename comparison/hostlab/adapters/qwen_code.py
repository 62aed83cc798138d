"""Qwen Code (`@qwen-code/qwen-code`, `qwen -p`): OpenAI Chat Completions; MCP tools are deferred
behind `tool_search`, and the found tool is called through the `tool_call` bridge tool.

What reaches the model depends on the model's name (images are dropped for a name it believes
cannot see), so the lab names a model it believes can: `gpt-4o`."""

from __future__ import annotations

from pathlib import Path

from comparison.hostlab.adapters.base import Adapter, Context, Launch
from comparison.hostlab.adapters.gemini_cli import settings

MODEL = "gpt-4o"


def launch(context: Context, executable: Path) -> Launch:
    return Launch(
        argv=[str(executable), "-p", context.prompt, "--output-format", "stream-json", "--approval-mode", "yolo"],
        env={
            "OPENAI_API_KEY": "sk-fake",
            "OPENAI_BASE_URL": context.model_url + "/v1",
            "OPENAI_MODEL": MODEL,
            "QWEN_CODE_NO_RELAUNCH": "1",
        },
        cwd=context.project,
        files={context.home / ".qwen" / "settings.json": settings(context, "openai")},
    )


ADAPTER = Adapter(
    key="qwen-code",
    label="Qwen Code",
    package="@qwen-code/qwen-code",
    version="0.24.4",
    dialect="OpenAI Chat Completions",
    tool_visibility="behind a search tool: `tool_search`, then the `tool_call` bridge",
    binary="qwen",
    launch=launch,
    notes=(f"runs with the model name {MODEL}: Qwen Code drops images for names it believes cannot see",),
)
