"""opencode 2.0.3: the direct path, code mode and prompts as slash commands (HOSTS.md §3)."""

from __future__ import annotations

import json
from typing import Any

from comparison.hosts import sdk
from comparison.hosts.opencode_v1 import delivery_notes, note_ignored
from comparison.hosts.prompt_text import message_lines
from comparison.hosts.view import HostView, Media, Part, Rule, base64_size, describe_block

CONVERT_RULE = Rule("v2:packages/core/src/mcp/client.ts:324-328", ("CT-02", "CT-05"))
ERROR_RULE = Rule("v2:packages/core/src/tool/mcp.ts:78-85", ("CT-19", "FG-15"))
OUTPUT_RULE = Rule("v2:packages/core/src/tool/mcp.ts:96-106", ("CT-15", "CT-16"))
CODEMODE_RULE = Rule("v2:packages/core/src/codemode/tool.ts:139-147", ("CT-18",))
PROMPT_RULE = Rule("v2:packages/core/src/plugin/command.ts:55", ("PRM-08",))
# Not traced in the 2.0.3 sources; assumed to follow v1's provider rules (HOSTS.md §3.2).
PROVIDER_RULE = Rule("assumed as opencode v1: v1:packages/opencode/src/session/message-v2.ts:147-159", ("CT-18",))
INLINE_FILE_RULE = Rule("assumed as opencode v1 (measured on the 1.18.33 binary)", ("CT-18", "CT-03"))
DEFAULT_ERROR = "MCP tool returned an error"


def _convert(view: HostView, content: list[dict]) -> list[Part]:
    parts: list[Part] = []
    for index, block in enumerate(content):
        kind = block["type"]
        name = describe_block(index, block)
        if kind == "text":
            parts.append(Part(text=block["text"]))
        elif kind in ("image", "audio"):
            parts.append(Part(media=Media(block["mimeType"], base64_size(block["data"]))))
        elif kind == "resource_link":
            parts.append(Part(text=block["uri"]))
            view.change(name, "becomes a text part holding only the uri (name, title, description lost)", CONVERT_RULE)
        elif kind == "resource":
            resource = block["resource"]
            if isinstance(resource.get("text"), str):
                parts.append(Part(text=resource["text"]))
            elif isinstance(resource.get("blob"), str) and isinstance(resource.get("mimeType"), str):
                parts.append(Part(media=Media(resource["mimeType"], base64_size(resource["blob"]))))
            else:
                parts.append(Part(text=resource["uri"]))
                view.change(name, "a blob without mimeType becomes a text part holding the uri", CONVERT_RULE)
    return parts


def _joined_text(parts: list[Part]) -> str:
    return "\n".join(part.text for part in parts if part.text is not None)


def _output(result: dict, parts: list[Part], *, output_schema: bool) -> Any:
    if "structuredContent" in result:
        return result["structuredContent"]
    text = _joined_text(parts)
    if text == "":
        return None
    if not output_schema and text[:1] in ("{", "["):
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text


def _run(view: HostView, result: Any, output_schema: bool) -> tuple[dict, list[Part], Any] | None:
    """The shared path of both tool paths: (parsed result, parts, output), or None once failed."""
    parsed = sdk.parse(result, sdk.CLIENT_2_0)
    if not parsed.ok:
        view.fail(parsed.error)
        return None
    result = parsed.result
    parts = _convert(view, result["content"])
    if result.get("isError"):
        view.drop_from_error(result["content"], ("text", "resource_link", "resource"), ERROR_RULE)
        view.fail(_joined_text(parts).strip() or DEFAULT_ERROR)
        return None
    note_ignored(view, result)
    view.attachments = [part.media for part in parts if part.media]
    return result, parts, _output(result, parts, output_schema=output_schema)


def direct(result: Any, *, provider: str = "openai-compatible", output_schema: bool = False) -> HostView:
    view = HostView("opencode-v2", "direct", "opencode v2 · direct")
    ran = _run(view, result, output_schema)
    if ran is None:
        return view
    result, parts, view.output = ran
    view.parts = parts
    if "structuredContent" in result and _joined_text(parts):
        view.notes.append("the model gets the content parts; `output` is structuredContent")
    if not parts:
        view.notes.append("no content parts: only `output` reaches the model")
    if isinstance(view.output, (dict, list)) and "structuredContent" not in result:
        view.change("text", "starts with { or [ and parses: `output` is the parsed JSON", OUTPUT_RULE)
    delivery_notes(view, provider, PROVIDER_RULE, INLINE_FILE_RULE)
    return view


def codemode(result: Any, *, provider: str = "openai-compatible", output_schema: bool = False) -> HostView:
    view = HostView("opencode-v2", "codemode", "opencode v2 · code mode")
    ran = _run(view, result, output_schema)
    if ran is None:
        return view
    _, _, view.script_value = ran
    if view.attachments:
        view.change("media parts", "appended to the execute result as files, after the text", CODEMODE_RULE)
    delivery_notes(view, provider, PROVIDER_RULE, INLINE_FILE_RULE)
    return view


def slash_command(prompt_result: Any, *, arguments: list[str] | None = None) -> HostView:
    """The prompt text opencode v2 sends: each message's text (or ""), joined with newlines, trimmed."""
    view = HostView("opencode-v2", "slash-command", "opencode v2 · slash command")
    messages = prompt_result.get("messages") if isinstance(prompt_result, dict) else None
    if not isinstance(messages, list):
        return view.fail("the prompt is missing: the command fails")
    lines = message_lines(view, messages, PROMPT_RULE, bare_strings=True)
    text = "\n".join(lines).strip()
    view.script_value = {"prompt": text, "arguments": list(arguments or [])}
    view.parts.append(Part(text=text))
    return view
