"""OpenAI Responses (`/v1/responses`): Codex CLI's dialect. Codex offers an MCP server's tools as
one `namespace` tool holding function tools; a call names the function inside it."""

from __future__ import annotations

import json
from typing import Any

from comparison.hostlab.dialects.shapes import Reply, ToolOutput, Turn, json_reply, sse


def matches(path: str) -> bool:
    return path.split("?")[0].endswith("/responses")


def _tools(tools: list[Any], prefix: str = "") -> dict[str, Any]:
    """Every offered function, namespaces flattened (`namespace.function`), with its parameters."""
    found: dict[str, Any] = {}
    for tool in tools:
        if not isinstance(tool, dict):
            continue
        if tool.get("type") == "namespace":
            found |= _tools(tool.get("tools") or [], prefix=f"{tool.get('name', '')}.")
        elif tool.get("name"):
            found[prefix + tool["name"]] = tool.get("parameters")
    return found


def read(body: dict[str, Any]) -> Turn:
    items = body.get("input")
    items = [{"type": "message", "role": "user", "content": items}] if isinstance(items, str) else items or []
    items = [item for item in items if isinstance(item, dict)]
    calls = {item.get("call_id"): item for item in items if item.get("type") == "function_call"}
    outputs = []
    for index, item in enumerate(items):
        if item.get("type") != "function_call_output":
            continue
        call = calls.get(item.get("call_id"), {})
        name = ".".join(part for part in (call.get("namespace"), call.get("name")) if part)
        later = tuple(follower.get("content") for follower in items[index + 1 :] if follower.get("role") == "user")
        outputs.append(ToolOutput(name, item.get("call_id", ""), item.get("output"), None, later[:1]))
    user_text = " ".join(
        part.get("text", "") if isinstance(part, dict) else str(part)
        for item in items
        if item.get("role") == "user"
        for part in (item.get("content") if isinstance(item.get("content"), list) else [{"text": item.get("content")}])
    )
    tools = _tools(body.get("tools") or [])
    return Turn(tuple(tools), user_text, tuple(outputs), bool(body.get("stream")), {"schemas": tools})


def _response(output: list[dict]) -> dict:
    return {
        "id": "resp_fake",
        "object": "response",
        "status": "completed",
        "model": "fake-model",
        "output": output,
        "usage": {
            "input_tokens": 1,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 1,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 2,
        },
    }


def _answer(item: dict, stream: bool) -> Reply:
    if not stream:
        return json_reply(_response([item]))
    events = [
        ("response.created", {"type": "response.created", "response": {"id": "resp_fake"}}),
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
        ("response.completed", {"type": "response.completed", "response": _response([item])}),
    ]
    return Reply(200, "text/event-stream", sse(events))


def call(name: str, arguments: dict[str, Any], stream: bool, call_id: str = "call_1") -> Reply:
    namespace, _, function = name.rpartition(".")
    item = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": call_id,
        "name": function,
        "arguments": json.dumps(arguments),
    }
    if namespace:
        item["namespace"] = namespace
    return _answer(item, stream)


def text(words: str, stream: bool) -> Reply:
    item = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": words, "annotations": []}],
    }
    return _answer(item, stream)
