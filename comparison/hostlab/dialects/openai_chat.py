"""OpenAI Chat Completions (`/v1/chat/completions`): opencode's and Qwen Code's dialect."""

from __future__ import annotations

import json
from typing import Any

from comparison.hostlab.dialects.shapes import Reply, ToolOutput, Turn, json_reply, sse


def matches(path: str) -> bool:
    return path.split("?")[0].endswith("/chat/completions")


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


def read(body: dict[str, Any]) -> Turn:
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    offered = tuple(
        tool.get("function", {}).get("name", "") for tool in body.get("tools") or [] if isinstance(tool, dict)
    )
    names = {}
    for message in messages:
        for call in message.get("tool_calls") or []:
            if isinstance(call, dict):
                names[call.get("id")] = call.get("function", {}).get("name", "")
    outputs = []
    for index, message in enumerate(messages):
        if message.get("role") != "tool":
            continue
        later = []
        for follower in messages[index + 1 :]:
            if follower.get("role") != "user":
                break
            later.append(follower.get("content"))
        call_id = message.get("tool_call_id", "")
        outputs.append(ToolOutput(names.get(call_id, ""), call_id, message.get("content"), None, tuple(later)))
    user_text = " ".join(_text_of(m.get("content")) for m in messages if m.get("role") == "user")
    schemas = {
        tool.get("function", {}).get("name", ""): tool.get("function", {}).get("parameters")
        for tool in body.get("tools") or []
        if isinstance(tool, dict)
    }
    return Turn(offered, user_text, tuple(outputs), bool(body.get("stream")), {"schemas": schemas})


def _chunk(delta: dict, finish: str | None) -> dict:
    return {
        "id": "fake",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "fake-model",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def _answer(message: dict, finish: str, stream: bool) -> Reply:
    if stream:
        return Reply(200, "text/event-stream", sse([(None, _chunk(message, None)), (None, _chunk({}, finish))], True))
    return json_reply(
        {
            "id": "fake",
            "object": "chat.completion",
            "created": 0,
            "model": "fake-model",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
    )


def call(name: str, arguments: dict[str, Any], stream: bool, call_id: str = "call_1") -> Reply:
    tool_call = {
        "index": 0,
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }
    return _answer({"role": "assistant", "content": None, "tool_calls": [tool_call]}, "tool_calls", stream)


def text(words: str, stream: bool) -> Reply:
    return _answer({"role": "assistant", "content": words}, "stop", stream)
