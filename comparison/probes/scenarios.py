"""The probe catalogue: what to send, and which register rows each scenario exercises. Pure.

Two suites: `fixture` (the built-in upstream, whose answers are known, so any change a proxy
makes shows even without probing the upstream directly) and `everything`
(@modelcontextprotocol/server-everything, compared against the upstream probed directly).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from .fixture_content import FAILURE_KINDS, PROMPTS, TOOLS, ToolError


@dataclass(frozen=True)
class Scenario:
    key: str
    title: str
    method: str
    params: dict[str, Any]
    rows: tuple[str, ...] = ()
    failure: bool = False  # a scenario that induces a failure (the failure-gap audit reads these)

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "method": self.method,
            "params": self.params,
            "rows": list(self.rows),
            "failure": self.failure,
        }


def _call(key: str, tool: str, title: str, rows: tuple[str, ...], failure: bool = False) -> Scenario:
    return Scenario(key, title, "tools/call", {"name": tool, "arguments": {}}, rows, failure)


FIXTURE = (
    Scenario("tools-list", "tools/list", "tools/list", {}, ("CT-11",)),
    _call("text", "text", "text block", ("CT-01",)),
    _call("image", "image", "image block", ("CT-02",)),
    _call("audio", "audio", "audio block", ("CT-03",)),
    _call("resource-text", "resource-text", "embedded text resource", ("CT-04",)),
    _call("resource-blob", "resource-blob", "embedded blob resource", ("CT-04",)),
    _call("resource-link", "resource-link", "resource_link", ("CT-05", "CT-06")),
    _call("mixed", "mixed", "every block type, result _meta", ("CT-07", "CT-09", "CT-10", "CT-13")),
    _call("structured", "structured", "structuredContent with outputSchema", ("CT-11", "CT-13", "CT-15")),
    _call("structured-only", "structured-only", "structuredContent, empty content", ("CT-13", "CT-15")),
    _call("annotations", "annotations", "annotations and block _meta", ("CT-09", "CT-10")),
    _call("unknown-type", "unknown-type", "unknown block type", ("CT-14",)),
    _call("large-image", "large-image", "512 KiB image", ("CT-02", "CT-13")),
    _call("is-error", "is-error", "isError with prose (not found)", ("CT-19", "FG-01", "FG-15"), True),
    _call("is-error-empty", "is-error-empty", "isError without text", ("CT-19", "FG-01"), True),
    _call("rpc-error", "rpc-error", "JSON-RPC error with code and data", ("FG-02", "FG-16"), True),
    _call("invalid-params", "invalid-params", "invalid argument type (JSON-RPC -32602)", ("FG-08",), True),
    _call("auth-failure", "auth-failure", "authentication failure in prose", ("FG-10",), True),
    _call("error-envelope", "error-envelope", "mcp-error/1 envelope (positive control)", ("FG-11",), True),
    _call("no-such-tool", "no-such-tool", "nonexistent tool", ("FG-07",), True),
    Scenario("prompts-list", "prompts/list (title, icons)", "prompts/list", {}, ("PRM-01", "PRM-03", "PRM-04")),
    Scenario(
        "prompt-multi",
        "prompts/get: roles and every content type",
        "prompts/get",
        {"name": "multi"},
        ("PRM-05", "PRM-06", "PRM-07", "PRM-08"),
    ),
    Scenario("resource-read", "resources/read: text", "resources/read", {"uri": "fixture://notes/readme.md"}, ()),
)

FAILURE_ROWS = {"not-found": "FG-07", "argument-type": "FG-08", "argument-value": "FG-09", "auth": "FG-10"}
FIXTURE = FIXTURE + tuple(
    _call(
        f"fail-{kind}-{form}",
        f"fail-{kind}-{form}",
        f"{kind} as {label}",
        (FAILURE_ROWS[kind], "FG-11") if form == "envelope" else (FAILURE_ROWS[kind], "FG-12"),
        True,
    )
    for kind in FAILURE_KINDS
    for form, label in (
        ("rpc", "a JSON-RPC error"),
        ("prose", "isError + prose"),
        ("envelope", "an mcp-error/1 envelope"),
    )
)

EVERYTHING = (
    Scenario("tools-list", "tools/list", "tools/list", {}, ()),
    Scenario("echo", "echo", "tools/call", {"name": "echo", "arguments": {"message": "hello"}}, ("CT-01",)),
    Scenario("tiny-image", "get-tiny-image", "tools/call", {"name": "get-tiny-image", "arguments": {}}, ("CT-02",)),
    Scenario(
        "annotated",
        "get-annotated-message",
        "tools/call",
        {"name": "get-annotated-message", "arguments": {"messageType": "error", "includeImage": True}},
        ("CT-09",),
    ),
    Scenario(
        "resource-reference",
        "get-resource-reference",
        "tools/call",
        {"name": "get-resource-reference", "arguments": {"resourceType": "Text", "resourceId": 1}},
        ("CT-04",),
    ),
    Scenario(
        "resource-links",
        "get-resource-links",
        "tools/call",
        {"name": "get-resource-links", "arguments": {"count": 2}},
        ("CT-05",),
    ),
    Scenario(
        "structured",
        "get-structured-content",
        "tools/call",
        {"name": "get-structured-content", "arguments": {"location": "New York"}},
        ("CT-11",),
    ),
    Scenario(
        "bad-arguments",
        "get-sum with a wrong type",
        "tools/call",
        {"name": "get-sum", "arguments": {"a": "x", "b": 1}},
        ("FG-08",),
        True,
    ),
    Scenario(
        "no-such-tool", "nonexistent tool", "tools/call", {"name": "no-such-tool", "arguments": {}}, ("FG-07",), True
    ),
    Scenario("no-such-prompt", "nonexistent prompt", "prompts/get", {"name": "no-such-prompt"}, (), True),
    Scenario("no-such-method", "unknown method", "no/such-method", {}, (), True),
)

SUITES = {"fixture": FIXTURE, "everything": EVERYTHING}


def suite(name: str) -> tuple[Scenario, ...]:
    return SUITES.get(name, FIXTURE)


def expected_fixture_response(scenario: Scenario) -> dict[str, Any] | None:
    """The fixture's own answer (the `result` or `error` of the JSON-RPC response), where it is fixed."""
    if scenario.method == "tools/call":
        outcome = TOOLS.get(scenario.params["name"])
        if outcome is None:
            return {"error": {"code": -32602}}
        value = outcome[1]
        if isinstance(value, ToolError):
            error = {"code": value.code, "message": value.message}
            if value.data is not None:
                error["data"] = value.data
            return {"error": error}
        return {"result": copy.deepcopy(value)}
    if scenario.method == "prompts/get":
        prompt = PROMPTS[scenario.params["name"]]
        return {"result": {"description": prompt["description"], "messages": copy.deepcopy(prompt["messages"])}}
    return None
