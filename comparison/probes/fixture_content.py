"""What the fixture upstream returns: every content type, prompt shape and failure. Pure data.

Tool results are returned verbatim (as dicts) so that the fixture can send what a typed SDK
server would refuse: an unknown block type, a JSON-RPC error raised by a tool.
"""

from __future__ import annotations

import base64
import json
from typing import Any

PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
WAV_EMPTY = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA="
LARGE_IMAGE = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(512 * 1024)).decode()

TEXT = {"type": "text", "text": "hello from the fixture"}
IMAGE = {"type": "image", "data": PNG_1PX, "mimeType": "image/png"}
AUDIO = {"type": "audio", "data": WAV_EMPTY, "mimeType": "audio/wav"}
RESOURCE_TEXT = {
    "type": "resource",
    "resource": {"uri": "fixture://notes/readme.md", "mimeType": "text/markdown", "text": "# Notes\nhello"},
}
RESOURCE_BLOB = {
    "type": "resource",
    "resource": {"uri": "fixture://img/dot.png", "mimeType": "image/png", "blob": PNG_1PX},
}
RESOURCE_LINK = {
    "type": "resource_link",
    "uri": "fixture://reports/q3.pdf",
    "name": "q3.pdf",
    "title": "Q3 report",
    "mimeType": "application/pdf",
    "description": "quarterly report",
}
ANNOTATED = {
    "type": "text",
    "text": "annotated",
    "annotations": {"audience": ["user"], "priority": 0.5},
    "_meta": {"fixture.example/trace": "t1"},
}
ENVELOPE = {
    "error": {
        "schema": "mcp-error/1",
        "code": "argument.type",
        "target": {"kind": "parameter", "pointer": "/count"},
        "policy": "fix-argument",
        "repair": {"pointer": "/count", "expected": {"type": "integer"}},
        "retry": {"same_request": False},
        "sideEffects": "none",
        "text": "Expected integer at /count, got string",
    }
}


class ToolError(Exception):
    """A JSON-RPC error the fixture raises from a tool (code, message, data)."""

    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


WEATHER = {"city": "New York", "conditions": "light rain", "celsius": 14}
WEATHER_WORDS = "Light rain over the park, about fourteen degrees."
WEATHER_SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "conditions": {"type": "string"}, "celsius": {"type": "integer"}},
    "required": ["city", "conditions", "celsius"],
}


def _result(*blocks: dict, **extra: Any) -> dict:
    return {"content": list(blocks), **extra}


#: tool name -> (description, result or a ToolError to raise, output schema or None)
TOOLS: dict[str, tuple[str, Any, dict | None]] = {
    "text": ("one text block", _result(TEXT), None),
    "image": ("one image block", _result(IMAGE), None),
    "audio": ("one audio block", _result(AUDIO), None),
    "resource-text": ("an embedded text resource", _result(RESOURCE_TEXT), None),
    "resource-blob": ("an embedded blob resource", _result(RESOURCE_BLOB), None),
    "resource-link": ("a resource_link", _result({"type": "text", "text": "see the link"}, RESOURCE_LINK), None),
    "mixed": (
        "every block type at once, with result _meta",
        _result(
            ANNOTATED, IMAGE, AUDIO, RESOURCE_TEXT, RESOURCE_BLOB, RESOURCE_LINK, _meta={"fixture.example/result": "r1"}
        ),
        None,
    ),
    # The text says the value in words, never as its JSON, and the value's strings hold spaces: a
    # host that passes only the text never shows the value, and one that shows the value is found
    # whatever its spacing (comparison/hostlab/features.py).
    "structured": (
        "text plus structuredContent, the text unlike the value, with an outputSchema",
        _result({"type": "text", "text": WEATHER_WORDS}, structuredContent=WEATHER),
        WEATHER_SCHEMA,
    ),
    "structured-only": (
        "structuredContent with empty content",
        _result(structuredContent={"station": "Central Park", "reading": "light rain", "n": 7}),
        None,
    ),
    "annotations": ("annotations and _meta on a block", _result(ANNOTATED), None),
    "unknown-type": (
        "a block of a type no revision defines",
        _result({"type": "text", "text": "before"}, {"type": "x-hologram", "data": "AAAA"}),
        None,
    ),
    "large-image": ("a 512 KiB image", _result(dict(IMAGE, data=LARGE_IMAGE)), None),
    "is-error": (
        "isError with text",
        _result({"type": "text", "text": "Not found: no such file /data/report.csv"}, isError=True),
        None,
    ),
    "is-error-empty": ("isError without text", _result(isError=True), None),
    "rpc-error": (
        "a JSON-RPC error with code and data",
        ToolError(-32001, "Upstream database unavailable", {"retryAfterMs": 2000, "target": "db"}),
        None,
    ),
    "invalid-params": (
        "a JSON-RPC invalid params error",
        ToolError(-32602, "Invalid params: 'count' must be an integer", {"pointer": "/count"}),
        None,
    ),
    "auth-failure": (
        "an authentication failure reported in text",
        _result({"type": "text", "text": "401 Unauthorized: missing or expired bearer token"}, isError=True),
        None,
    ),
    "error-envelope": (
        "isError with a structured mcp-error/1 envelope",
        _result({"type": "text", "text": json.dumps(ENVELOPE)}, isError=True),
        None,
    ),
    # Names the conformance suite calls.
    "test_simple_text": (
        "conformance: text",
        _result({"type": "text", "text": "This is a simple text response for testing."}),
        None,
    ),
    "test_image_content": ("conformance: image", _result(IMAGE), None),
    "test_audio_content": ("conformance: audio", _result(AUDIO), None),
    "test_embedded_resource": ("conformance: embedded resource", _result(RESOURCE_TEXT), None),
    "test_multiple_content_types": ("conformance: mixed", _result(TEXT, IMAGE, RESOURCE_TEXT), None),
    "test_error_handling": (
        "conformance: error",
        _result({"type": "text", "text": "This tool intentionally returns an error for testing"}, isError=True),
        None,
    ),
}


def _envelope(code: str, target: dict, policy: str, repair: dict | None, same_request: bool, text: str) -> dict:
    error = {
        "schema": "mcp-error/1",
        "code": code,
        "target": target,
        "policy": policy,
        "retry": {"same_request": same_request},
        "sideEffects": "none",
        "text": text,
    }
    if repair:
        error["repair"] = repair
    return {"error": error}


#: The induced failures of the audit, each in the three forms an upstream can use: a JSON-RPC error
#: with code and data, isError with prose, isError with an mcp-error/1 envelope (the positive control).
FAILURE_KINDS = {
    "not-found": (
        ToolError(-32602, "Unknown tool: report_v2", {"tool": "report_v2"}),
        "Tool report_v2 not found",
        _envelope(
            "tool.not_found",
            {"kind": "tool", "name": "report_v2"},
            "alternate-tool",
            {"tool": "report"},
            False,
            "Tool report_v2 not found; use report",
        ),
    ),
    "argument-type": (
        ToolError(-32602, "Invalid params: 'count' must be an integer", {"pointer": "/count", "expected": "integer"}),
        "Expected integer at /count, got string",
        ENVELOPE,
    ),
    "argument-value": (
        ToolError(-32602, "Invalid params: 'count' must be between 1 and 100", {"pointer": "/count", "maximum": 100}),
        "count must be between 1 and 100",
        _envelope(
            "argument.value",
            {"kind": "parameter", "pointer": "/count"},
            "fix-argument",
            {"pointer": "/count", "expected": {"type": "integer", "minimum": 1, "maximum": 100}},
            False,
            "count must be between 1 and 100",
        ),
    ),
    "auth": (
        ToolError(-32001, "Unauthorized: missing bearer token", {"scheme": "Bearer"}),
        "401 Unauthorized: missing or expired bearer token",
        _envelope(
            "auth.required",
            {"kind": "credential", "name": "bearer token"},
            "authenticate",
            {"authenticate": "Bearer"},
            True,
            "missing or expired bearer token",
        ),
    ),
}
for _kind, (_rpc, _prose, _envelope_value) in FAILURE_KINDS.items():
    TOOLS[f"fail-{_kind}-rpc"] = (f"{_kind}: JSON-RPC error with code and data", _rpc, None)
    TOOLS[f"fail-{_kind}-prose"] = (
        f"{_kind}: isError with prose",
        _result({"type": "text", "text": _prose}, isError=True),
        None,
    )
    TOOLS[f"fail-{_kind}-envelope"] = (
        f"{_kind}: isError with an mcp-error/1 envelope",
        _result({"type": "text", "text": json.dumps(_envelope_value)}, isError=True),
        None,
    )

PROMPTS: dict[str, dict[str, Any]] = {
    "multi": {
        "title": "Few-shot review",
        "description": "A multi-message prompt with an assistant turn and every content type",
        "icons": [{"src": "data:image/png;base64," + PNG_1PX, "mimeType": "image/png"}],
        "messages": [
            {"role": "user", "content": {"type": "text", "text": "Review this change."}},
            {"role": "assistant", "content": {"type": "text", "text": "I will check the tests first."}},
            {"role": "user", "content": IMAGE},
            {"role": "user", "content": AUDIO},
            {"role": "user", "content": RESOURCE_TEXT},
            {"role": "user", "content": RESOURCE_LINK},
        ],
    },
    "test_simple_prompt": {
        "title": None,
        "description": "conformance: simple prompt",
        "messages": [{"role": "user", "content": {"type": "text", "text": "This is a simple prompt for testing."}}],
    },
}

# Prompts the conformance suite asks for; their text depends on the arguments (fixture_server fills them in).
PROMPTS["test_prompt_with_arguments"] = {
    "title": None,
    "description": "conformance: prompt with arguments",
    "arguments": [{"name": "arg1", "required": True}, {"name": "arg2", "required": True}],
    "messages": [
        {"role": "user", "content": {"type": "text", "text": "Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"}}
    ],
}
PROMPTS["test_prompt_with_embedded_resource"] = {
    "title": None,
    "description": "conformance: prompt with an embedded resource",
    "arguments": [{"name": "resourceUri", "required": True}],
    "messages": [
        {
            "role": "user",
            "content": {
                "type": "resource",
                "resource": {
                    "uri": "{resourceUri}",
                    "mimeType": "text/plain",
                    "text": "Embedded resource content for testing.",
                },
            },
        },
        {"role": "user", "content": {"type": "text", "text": "Please process the embedded resource above."}},
    ],
}
PROMPTS["test_prompt_with_image"] = {
    "title": None,
    "description": "conformance: prompt with an image",
    "messages": [
        {"role": "user", "content": IMAGE},
        {"role": "user", "content": {"type": "text", "text": "Please analyze the image above."}},
    ],
}

RESOURCES: dict[str, dict[str, Any]] = {
    "test://static-text": {
        "name": "static-text",
        "mimeType": "text/plain",
        "text": "This is the content of the static text resource.",
    },
    "test://static-binary": {"name": "static-binary", "mimeType": "image/png", "blob": PNG_1PX},
    "fixture://notes/readme.md": {"name": "readme", "mimeType": "text/markdown", "text": "# Notes\nhello"},
    "fixture://img/dot.png": {"name": "dot", "mimeType": "image/png", "blob": PNG_1PX},
}
