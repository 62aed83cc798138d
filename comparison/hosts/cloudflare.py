"""Cloudflare code mode (@cloudflare/codemode 0.5.6, codeMcpServer over SDK 1.32.2), HOSTS.md §5."""

from __future__ import annotations

import json
from typing import Any

from comparison.hosts import sdk
from comparison.hosts.view import HostView, Rule

UNWRAP_RULE = Rule("npm:@cloudflare/codemode@0.5.6 dist/mcp.js:38-54", ("CT-15", "CT-16", "CT-19"))
MAX_HOST_TEXT = 24_000
DEFAULT_ERROR = "Tool call failed"


class Thrown(Exception):
    pass


def unwrap(result: dict) -> Any:
    """The package's unwrap order: toolResult, isError (throws), structuredContent, all-text
    (JSON.parse or the string), else the whole result object."""
    if "toolResult" in result:
        return result["toolResult"]
    if result.get("isError"):
        texts = [block.get("text", "") for block in result["content"] if block.get("type") == "text"]
        raise Thrown("\n".join(texts) or DEFAULT_ERROR)
    if result.get("structuredContent") is not None:
        return result["structuredContent"]
    content = result["content"]
    if content and all(block.get("type") == "text" for block in content):
        joined = "\n".join(block["text"] for block in content)
        try:
            return json.loads(joined)
        except ValueError:
            return joined
    return result


def js_json(value: Any) -> str:
    """JSON.stringify(value, null, 2)."""
    return json.dumps(value, indent=2, ensure_ascii=False)


def script(result: Any) -> HostView:
    view = HostView("cloudflare", "script", "Cloudflare · code mode")
    parsed = sdk.parse(result, sdk.SDK_1_32)
    if not parsed.ok:
        view.fail(parsed.error)
    else:
        try:
            view.script_value = unwrap(parsed.result)
        except Thrown as error:
            view.drop_from_error(parsed.result["content"], ("text",), UNWRAP_RULE)
            view.fail(str(error))
    if view.error is not None:
        view.host_text, view.host_is_error = f"Error: {view.error}", True
        return view
    value = view.script_value
    text = value if isinstance(value, str) else js_json(value)
    if len(text) > MAX_HOST_TEXT:
        view.notes.append(f"the code tool clips its text at {MAX_HOST_TEXT} characters")
        text = text[:MAX_HOST_TEXT]
    view.host_text, view.host_is_error = text, False
    _explain(view, parsed.result)
    return view


def _explain(view: HostView, result: dict) -> None:
    if "toolResult" in result:
        view.change("result", "the legacy toolResult is returned as is", UNWRAP_RULE)
    elif result.get("structuredContent") is not None:
        if result["content"]:
            view.drop("content", "structuredContent wins over content", UNWRAP_RULE)
    elif result["content"] and all(b["type"] == "text" for b in result["content"]):
        if not isinstance(view.script_value, str):
            view.change("text", "the joined text parses as JSON: the script gets the parsed value", UNWRAP_RULE)
    else:
        view.change("result", "not all text: the script gets the whole result object", UNWRAP_RULE)
