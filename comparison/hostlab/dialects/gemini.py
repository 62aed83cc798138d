"""Gemini `generateContent` (`/v1beta/models/M:streamGenerateContent?alt=sse`, `:generateContent`,
`:countTokens`): Gemini CLI's dialect. A tool result is a `functionResponse` part; media go in
sibling parts of the same content."""

from __future__ import annotations

from typing import Any

from comparison.hostlab.dialects.shapes import Reply, ToolOutput, Turn, json_reply, sse


def matches(path: str) -> bool:
    return ":generateContent" in path or ":streamGenerateContent" in path or ":countTokens" in path


def read(body: dict[str, Any]) -> Turn:
    contents = [c for c in body.get("contents") or [] if isinstance(c, dict)]
    schemas = {
        declaration.get("name", ""): declaration.get("parametersJsonSchema") or declaration.get("parameters")
        for tool in body.get("tools") or []
        if isinstance(tool, dict)
        for declaration in tool.get("functionDeclarations") or []
        if isinstance(declaration, dict)
    }
    offered = tuple(schemas)
    outputs, texts = [], []
    for content in contents:
        parts = [p for p in content.get("parts") or [] if isinstance(p, dict)]
        if content.get("role") != "user":
            continue
        texts += [p.get("text", "") for p in parts if isinstance(p.get("text"), str)]
        responses = [p for p in parts if "functionResponse" in p]
        others = tuple(p for p in parts if "functionResponse" not in p)
        for part in responses:
            response = part["functionResponse"]
            outputs.append(ToolOutput(response.get("name", ""), response.get("id", ""), response, None, others))
    return Turn(offered, " ".join(texts), tuple(outputs), streamed=False, extra={"schemas": schemas})


def count_tokens() -> Reply:
    return json_reply({"totalTokens": 1})


def _answer(parts: list[dict], stream: bool) -> Reply:
    value = {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
        "modelVersion": "fake-model",
    }
    if stream:
        return Reply(200, "text/event-stream", sse([(None, value)]))
    return json_reply(value)


def call(name: str, arguments: dict[str, Any], stream: bool, call_id: str = "call_1") -> Reply:
    return _answer([{"functionCall": {"name": name, "args": arguments}}], stream)


def text(words: str, stream: bool) -> Reply:
    return _answer([{"text": words}], stream)
