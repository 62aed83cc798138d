"""Anthropic Messages (`/v1/messages`): Claude Code's dialect. A tool result is a `tool_result`
block in a user message, with its own `is_error` flag."""

from __future__ import annotations

import json
from typing import Any

from comparison.hostlab.dialects.shapes import Reply, ToolOutput, Turn, json_reply, sse


def matches(path: str) -> bool:
    return path.split("?")[0].endswith("/messages") and "/chat/" not in path


def _blocks(content: Any) -> list[dict]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [block for block in content or [] if isinstance(block, dict)]


def read(body: dict[str, Any]) -> Turn:
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    names = {
        block.get("id"): block.get("name", "")
        for m in messages
        if m.get("role") == "assistant"
        for block in _blocks(m.get("content"))
        if block.get("type") == "tool_use"
    }
    outputs, texts = [], []
    for message in messages:
        if message.get("role") != "user":
            continue
        blocks = _blocks(message.get("content"))
        results = [b for b in blocks if b.get("type") == "tool_result"]
        others = tuple(b for b in blocks if b.get("type") != "tool_result")
        texts += [b.get("text", "") for b in blocks if b.get("type") == "text"]
        for block in results:
            flag = block.get("is_error")
            outputs.append(
                ToolOutput(
                    names.get(block.get("tool_use_id"), ""),
                    block.get("tool_use_id", ""),
                    block.get("content"),
                    bool(flag) if flag is not None else False,
                    others,
                )
            )
    schemas = {
        tool.get("name", ""): tool.get("input_schema") for tool in body.get("tools") or [] if isinstance(tool, dict)
    }
    return Turn(tuple(schemas), " ".join(texts), tuple(outputs), bool(body.get("stream")), {"schemas": schemas})


def _message(content: list[dict], stop: str) -> dict:
    return {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": "fake-model",
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def _answer(block: dict, delta: dict, stop: str, stream: bool) -> Reply:
    if not stream:
        return json_reply(_message([block], stop))
    start = dict(block, **({"input": {}} if block["type"] == "tool_use" else {"text": ""}))
    events = [
        ("message_start", {"type": "message_start", "message": _message([], None) | {"stop_reason": None}}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": start}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 1},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return Reply(200, "text/event-stream", sse(events))


def call(name: str, arguments: dict[str, Any], stream: bool, call_id: str = "toolu_1") -> Reply:

    block = {"type": "tool_use", "id": call_id, "name": name, "input": arguments}
    return _answer(block, {"type": "input_json_delta", "partial_json": json.dumps(arguments)}, "tool_use", stream)


def text(words: str, stream: bool) -> Reply:
    return _answer({"type": "text", "text": words}, {"type": "text_delta", "text": words}, "end_turn", stream)
