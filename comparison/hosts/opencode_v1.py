"""opencode 1.18.31: the direct path, code mode (`execute` scripts) and prompts as slash commands.

Rules and their sources are from the host behaviour notes (HOSTS.md §2); source paths are in the
registers' `v1:` citation form.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from comparison.hosts import sdk
from comparison.hosts.prompt_text import message_lines
from comparison.hosts.view import Change, HostView, Media, Part, Rule, base64_size, describe_block

ERROR_RULE = Rule("v1:packages/opencode/src/mcp/catalog.ts:68-74", ("CT-19", "FG-15"))
STRUCTURED_RULE = Rule("v1:packages/opencode/src/mcp/catalog.ts:75-80", ("CT-15",))
DROPPED_RULE = Rule("v1:packages/opencode/src/session/tools.ts:428-462", ("CT-03", "CT-05"))
BLOB_TYPES_RULE = Rule("v1:packages/opencode/src/session/tools.ts:33-39", ("CT-04",))
BLOB_SIZE_RULE = Rule("v1:packages/opencode/src/session/tools.ts:32", ("CT-04",))
IGNORED_RULE = Rule("HOSTS.md §1: no opencode path reads annotations or _meta", ("CT-09", "CT-10"))
PROVIDER_RULE = Rule("v1:packages/opencode/src/session/message-v2.ts:147-159", ("CT-18",))
INLINE_FILE_RULE = Rule(
    "measured: opencode-ai 1.18.33 binary, code mode, audio and non-image files", ("CT-18", "CT-03")
)
CODEMODE_RULE = Rule("v1:packages/opencode/src/tool/code-mode.ts:75-116", ("CT-15", "CT-18"))
LINK_RULE = Rule("v1:packages/opencode/src/tool/code-mode.ts:102-105", ("CT-05",))
PROMPT_RULE = Rule("v1:packages/opencode/src/command/index.ts:121-126", ("PRM-08", "PRM-07"))

VALIDATION_RULE = Rule("measured: opencode-ai 1.18.33 binary, unknown block / non-object structuredContent", ("CT-14",))
DEFAULT_ERROR = "MCP tool returned an error"
ATTACHABLE = {"application/pdf", "image/gif", "image/jpeg", "image/png", "image/webp"}
MAX_BLOB_BYTES = 10 * 1024 * 1024
#: Providers whose tool results may carry media (message-v2.ts:147-159); "images" means only images.
MEDIA_PROVIDERS = {
    "anthropic": "all",
    "openai": "all",
    "google-vertex-anthropic": "all",
    "gemini-3": "all",
    "amazon-bedrock": "images",
    "xai": "images",
}
TRUNCATE_LINES, TRUNCATE_BYTES = 2000, 50 * 1024


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{math.ceil(n / 1024)} KB"
    return f"{math.ceil(n / (1024 * 1024))} MB"


def error_text(content: list[dict]) -> str:
    texts = [b["text"] for b in content if b.get("type") == "text" and b["text"].strip()]
    return "\n\n".join(texts) or DEFAULT_ERROR


def compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def note_ignored(view: HostView, result: dict) -> None:
    if "_meta" in result:
        view.drop("result _meta", "not read by any opencode path", IGNORED_RULE)
    for index, block in enumerate(result["content"]):
        for key in ("annotations", "_meta"):
            if key in block:
                view.drop(f"{describe_block(index, block)} {key}", "not read by any opencode path", IGNORED_RULE)


def delivery_notes(
    view: HostView, provider: str, rule: Rule = PROVIDER_RULE, inline_rule: Rule = INLINE_FILE_RULE
) -> None:
    """Some providers take media inside a tool result; for the rest opencode moves images and PDFs
    into a separate user message after the tool result."""
    support = MEDIA_PROVIDERS.get(provider)
    for media in view.attachments:
        moved = support is None or (support == "images" and not media.mime.startswith("image/"))
        if moved and (media.mime.startswith("image/") or media.mime == "application/pdf"):
            view.changes.append(_moved(media, provider, rule))
        elif support is None:
            view.changes.append(
                Change(
                    f"attachment ({media.mime})",
                    "changed",
                    f"stays in the tool result: provider {provider!r} gets the tool's parts as one "
                    "JSON text with the base64 data inline",
                    inline_rule,
                )
            )


def _moved(media: Media, provider: str, rule: Rule) -> Change:
    return Change(
        f"attachment ({media.mime})",
        "moved",
        f"provider {provider!r} takes no media in tool results: sent as a separate user message",
        rule,
    )


def direct(result: Any, *, provider: str = "openai-compatible") -> HostView:
    view = HostView("opencode-v1", "direct", "opencode v1 · direct")
    parsed = sdk.parse(result, sdk.OPENCODE_1_18_BINARY)
    if not parsed.ok:
        view.drop(
            "the whole result",
            "the SDK rejects it; the model gets the bare zod issue list as the error",
            VALIDATION_RULE,
        )
        return view.fail(parsed.error)
    result = parsed.result
    content = result["content"]
    if result.get("isError"):
        view.drop_from_error(content, ("text",), ERROR_RULE)
        return view.fail(error_text(content))
    note_ignored(view, result)
    if not content and isinstance(result.get("structuredContent"), dict):
        content = [{"type": "text", "text": compact_json(result["structuredContent"])}]
        view.change("structuredContent", "content is empty, so it becomes compact JSON text", STRUCTURED_RULE)
    elif "structuredContent" in result:
        view.drop("structuredContent", "content is present, so structuredContent is ignored", STRUCTURED_RULE)
    texts: list[str] = []
    for index, block in enumerate(content):
        kind = block["type"]
        name = describe_block(index, block)
        if kind == "text":
            texts.append(block["text"])
        elif kind == "image":
            view.attachments.append(Media(block["mimeType"], base64_size(block["data"])))
        elif kind == "resource" and "text" in block["resource"]:
            if block["resource"]["text"]:
                texts.append(block["resource"]["text"])
            view.drop(f"{name} uri", "only the resource text reaches the model", DROPPED_RULE)
        elif kind == "resource" and block["resource"].get("blob"):
            resource = block["resource"]
            mime = resource.get("mimeType") or "application/octet-stream"
            size = base64_size(resource["blob"])
            if mime not in ATTACHABLE:
                texts.append(
                    f"[Binary MCP resource omitted: {resource['uri']} ({mime}, {_size(size)}) "
                    "is not a supported attachment type]"
                )
                view.change(name, f"{mime} is not an attachable type: replaced by a text line", BLOB_TYPES_RULE)
            elif size > MAX_BLOB_BYTES:
                texts.append(f"[Binary MCP resource omitted: {resource['uri']} ({mime}, {_size(size)}) exceeds 10 MB]")
                view.change(name, "over 10 MiB: replaced by a text line", BLOB_SIZE_RULE)
            else:
                view.attachments.append(Media(mime, size, resource["uri"]))
        else:
            view.drop(name, "the direct path has no branch for this block type", DROPPED_RULE)
    text = "\n\n".join(texts)
    if text.count("\n") >= TRUNCATE_LINES or len(text.encode()) > TRUNCATE_BYTES:
        view.notes.append("over opencode's output limit (2000 lines / 50 KiB): the text is truncated")
    view.parts.append(Part(text=text))
    view.parts.extend(Part(media=media) for media in view.attachments)
    delivery_notes(view, provider)
    return view


def _filename(uri: str) -> str:
    path = re.split(r"[?#]", uri, maxsplit=1)[0].rstrip("/")
    return path.rsplit("/", 1)[-1]


def codemode(result: Any, *, provider: str = "openai-compatible") -> HostView:
    view = HostView("opencode-v1", "codemode", "opencode v1 · code mode")
    # Same SDK call as the direct path, so the same error text (not captured from the binary here).
    parsed = sdk.parse(result, sdk.OPENCODE_1_18_BINARY)
    if not parsed.ok:
        return view.fail(parsed.error)
    result = parsed.result
    content = result["content"]
    if result.get("isError"):
        view.drop_from_error(content, ("text",), ERROR_RULE)
        return view.fail(error_text(content))
    note_ignored(view, result)
    texts: list[str] = []
    for index, block in enumerate(content):
        kind = block["type"]
        if kind == "text":
            texts.append(block["text"])
        elif kind in ("image", "audio"):
            view.attachments.append(Media(block["mimeType"], base64_size(block["data"])))
        elif kind == "resource" and "text" in block["resource"]:
            texts.append(block["resource"]["text"])
        elif kind == "resource":
            resource = block["resource"]
            view.attachments.append(
                Media(
                    resource.get("mimeType") or "application/octet-stream",
                    base64_size(resource.get("blob", "")),
                    _filename(resource["uri"]),
                )
            )
        elif kind == "resource_link":
            texts.append(f"{block['name']}: {block['uri']}")
            view.change(describe_block(index, block), 'becomes the text line "<name>: <uri>"', LINK_RULE)
    structured = result.get("structuredContent")
    if structured is not None:
        view.script_value = structured
        if texts or view.attachments:
            view.drop("content (for the script value)", "structuredContent is the script's value", CODEMODE_RULE)
    elif texts:
        view.script_value = "\n".join(texts)
    elif view.attachments:
        n = len(view.attachments)
        kind = "image" if all(m.mime.startswith("image/") for m in view.attachments) else "file"
        view.script_value = f"[{n} {kind}{'' if n == 1 else 's'} attached to the result]"
    else:
        view.script_value = None
    delivery_notes(view, provider)
    return view


def slash_command(prompt_result: Any, *, arguments: list[str] | None = None) -> HostView:
    """The template opencode v1 keeps from a `prompts/get` fetched with `$1..$n` placeholders."""
    view = HostView("opencode-v1", "slash-command", "opencode v1 · slash command")
    messages = prompt_result.get("messages") if isinstance(prompt_result, dict) else None
    if not isinstance(messages, list):
        return view.fail("prompts/get result without messages: the template is empty")
    lines = message_lines(view, messages, PROMPT_RULE, bare_strings=False)
    template = "\n".join(lines)
    declared = arguments or []
    view.script_value = {"template": template, "hints": [f"${n}" for n in range(1, len(declared) + 1)]}
    view.parts.append(Part(text=template))
    return view
