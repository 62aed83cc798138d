"""What the official conformance suite (@modelcontextprotocol/conformance 0.1.16) asks of a server
beyond the fixture's own content: tools that log, report progress, and ask the client for sampling
and input during the call, a completion answer and a resource template. Pure (runs against the
families' `Upstream`); the fixture server serves it beside its own scenarios, apart from them.

Each tool does what the suite's scenario description asks, with the names and values it checks.
"""

from __future__ import annotations

import json
import re
from typing import Any

from comparison.probes.families.base import Tool, Upstream

STEP_DELAY = 0.05
TEMPLATE = "test://template/{id}/data"
_TEMPLATE_URI = re.compile(r"^test://template/(?P<id>[^/]{1,200})/data$")


def _text(text: str, *, is_error: bool = False) -> dict[str, Any]:
    result: dict[str, Any] = {"content": [{"type": "text", "text": text}]}
    if is_error:
        result["isError"] = True
    return result


async def _with_logging(up: Upstream, arguments: dict[str, Any]) -> dict[str, Any]:
    for index, message in enumerate(("Tool execution started", "Tool processing data", "Tool execution completed")):
        if index:
            await up.sleep(STEP_DELAY)
        await up.notify("notifications/message", {"level": "info", "logger": "conformance", "data": message})
    return _text("Tool with logging executed")


async def _with_progress(up: Upstream, arguments: dict[str, Any]) -> dict[str, Any]:
    token = up.meta.get("progressToken")
    for index, progress in enumerate((0, 50, 100)):
        if index:
            await up.sleep(STEP_DELAY)
        if token is not None:
            await up.notify("notifications/progress", {"progressToken": token, "progress": progress, "total": 100})
    return _text("Tool with progress executed")


def _lacks(up: Upstream, capability: str) -> dict[str, Any] | None:
    if capability in up.client_capabilities:
        return None
    return _text(f"the client did not declare the {capability} capability", is_error=True)


def _answer(asked: dict[str, Any]) -> str:
    """The client's answer as the tool reports it (an error, when the request failed)."""
    if "error" in asked:
        return f"error: {json.dumps(asked['error'])}"
    return json.dumps(asked.get("result"), sort_keys=True)


async def _sampling(up: Upstream, arguments: dict[str, Any]) -> dict[str, Any]:
    if refusal := _lacks(up, "sampling"):
        return refusal
    prompt = str(arguments.get("prompt", ""))[:2000]
    asked = await up.request(
        "sampling/createMessage",
        {"messages": [{"role": "user", "content": {"type": "text", "text": prompt}}], "maxTokens": 100},
    )
    content = (asked.get("result") or {}).get("content") if "result" in asked else None
    said = content.get("text") if isinstance(content, dict) and isinstance(content.get("text"), str) else None
    return _text(f"LLM response: {said if said is not None else _answer(asked)}", is_error="error" in asked)


async def _elicit(up: Upstream, message: str, schema: dict[str, Any]) -> dict[str, Any]:
    return await up.request("elicitation/create", {"message": message, "requestedSchema": schema})


async def _elicitation(up: Upstream, arguments: dict[str, Any]) -> dict[str, Any]:
    schema = {
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"},
        },
        "required": ["username", "email"],
    }
    if refusal := _lacks(up, "elicitation"):
        return refusal
    asked = await _elicit(up, str(arguments.get("message", ""))[:2000], schema)
    return _text(f"User response: {_answer(asked)}", is_error="error" in asked)


DEFAULTS_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "score": {"type": "number", "default": 95.5},
        "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
        "verified": {"type": "boolean", "default": True},
    },
}
ENUMS_SCHEMA = {
    "type": "object",
    "properties": {
        "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
        "titledSingle": {
            "type": "string",
            "oneOf": [
                {"const": "value1", "title": "First Option"},
                {"const": "value2", "title": "Second Option"},
                {"const": "value3", "title": "Third Option"},
            ],
        },
        "legacyEnum": {
            "type": "string",
            "enum": ["opt1", "opt2", "opt3"],
            "enumNames": ["Option One", "Option Two", "Option Three"],
        },
        "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
        "titledMulti": {
            "type": "array",
            "items": {
                "anyOf": [
                    {"const": "value1", "title": "First Choice"},
                    {"const": "value2", "title": "Second Choice"},
                    {"const": "value3", "title": "Third Choice"},
                ]
            },
        },
    },
}


def _elicit_schema(schema: dict[str, Any]):
    async def run(up: Upstream, arguments: dict[str, Any]) -> dict[str, Any]:
        if refusal := _lacks(up, "elicitation"):
            return refusal
        asked = await _elicit(up, "Please review and update the form fields", schema)
        result = asked.get("result") or {}
        action = result.get("action", "error") if isinstance(result, dict) else "error"
        content = json.dumps(result.get("content", {}) if isinstance(result, dict) else {}, sort_keys=True)
        text = f"Elicitation completed: action={action}, content={content}"
        return _text(text if "result" in asked else f"Elicitation failed: {_answer(asked)}", is_error="error" in asked)

    return run


_ARGUMENT = {"type": "object", "properties": {}}
TOOLS = (
    Tool("test_tool_with_logging", "conformance: three log messages during the call", _with_logging),
    Tool("test_tool_with_progress", "conformance: progress 0, 50, 100 of 100", _with_progress),
    Tool(
        "test_sampling",
        "conformance: asks the client to sample",
        _sampling,
        {"type": "object", "properties": {"prompt": {"type": "string"}}, "required": ["prompt"]},
    ),
    Tool(
        "test_elicitation",
        "conformance: asks the client for a username and an email",
        _elicitation,
        {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]},
    ),
    Tool(
        "test_elicitation_sep1034_defaults",
        "conformance: a form whose fields have defaults",
        _elicit_schema(DEFAULTS_SCHEMA),
        _ARGUMENT,
    ),
    Tool(
        "test_elicitation_sep1330_enums",
        "conformance: a form with the five enum shapes",
        _elicit_schema(ENUMS_SCHEMA),
        _ARGUMENT,
    ),
)
BY_NAME = {tool.name: tool for tool in TOOLS}


def template_read(uri: str) -> dict[str, Any] | None:
    """`resources/read` of the conformance template, or None for another URI."""
    match = _TEMPLATE_URI.match(uri)
    if match is None:
        return None
    identifier = match["id"]
    body = json.dumps({"id": identifier, "templateTest": True, "data": f"Data for ID: {identifier}"})
    return {"contents": [{"uri": uri, "mimeType": "application/json", "text": body}]}


def complete(ref: dict[str, Any], argument: dict[str, Any]) -> dict[str, Any]:
    """`completion/complete`: values of a small fixed list that start with what was typed."""
    typed = str(argument.get("value", ""))[:200]
    values = [value for value in ("paris", "park", "party", "test", "testing") if value.startswith(typed)]
    return {"completion": {"values": values, "total": len(values), "hasMore": False}}
