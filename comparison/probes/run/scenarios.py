"""The probe catalogue: what to send, and what each scenario exercises (its anchors). Pure.

Two suites: `fixture` (the built-in upstream, whose answers and behaviour are known, so any
change a proxy makes shows even without probing the upstream directly; its scenarios are the
families of `comparison.probes.families`) and `everything`
(@modelcontextprotocol/server-everything, compared against the upstream probed directly).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from comparison.probes.families import family_of, fixture_scenarios
from comparison.probes.families.base import Scenario
from comparison.probes.fixture.fixture_content import PROMPTS, TOOLS, ToolError
from language.anchors.vocabulary import vocabulary

__all__ = ["EVERYTHING", "FIXTURE", "SUITES", "Scenario", "expected_fixture_response", "suite"]


FIXTURE: tuple[Scenario, ...] = fixture_scenarios()

EVERYTHING = (
    Scenario("tools-list", "tools/list", "tools/list", {}, ("type:Tool",)),
    Scenario("echo", "echo", "tools/call", {"name": "echo", "arguments": {"message": "hello"}}, ("type:TextContent",)),
    Scenario(
        "tiny-image",
        "get-tiny-image",
        "tools/call",
        {"name": "get-tiny-image", "arguments": {}},
        ("type:ImageContent",),
    ),
    Scenario(
        "annotated",
        "get-annotated-message",
        "tools/call",
        {"name": "get-annotated-message", "arguments": {"messageType": "error", "includeImage": True}},
        ("type:Annotations", "field:TextContent.annotations"),
    ),
    Scenario(
        "resource-reference",
        "get-resource-reference",
        "tools/call",
        {"name": "get-resource-reference", "arguments": {"resourceType": "Text", "resourceId": 1}},
        ("type:EmbeddedResource",),
    ),
    Scenario(
        "resource-links",
        "get-resource-links",
        "tools/call",
        {"name": "get-resource-links", "arguments": {"count": 2}},
        ("type:ResourceLink",),
    ),
    Scenario(
        "structured",
        "get-structured-content",
        "tools/call",
        {"name": "get-structured-content", "arguments": {"location": "New York"}},
        ("field:CallToolResult.structuredContent",),
    ),
    Scenario(
        "bad-arguments",
        "get-sum with a wrong type",
        "tools/call",
        {"name": "get-sum", "arguments": {"a": "x", "b": 1}},
        ("error:-32602",),
        True,
    ),
    Scenario(
        "no-such-tool",
        "nonexistent tool",
        "tools/call",
        {"name": "no-such-tool", "arguments": {}},
        ("error:-32602",),
        True,
    ),
    Scenario("no-such-prompt", "nonexistent prompt", "prompts/get", {"name": "no-such-prompt"}, (), True),
    Scenario("no-such-method", "unknown method", "no/such-method", {}, ("error:-32601",), True),
)


def _with_method(scenario: Scenario) -> Scenario:
    method = (f"method:{scenario.method}",) if f"method:{scenario.method}" in vocabulary().present else ()
    return replace(scenario, anchors=tuple(dict.fromkeys((*scenario.anchors, *method))))


EVERYTHING = tuple(_with_method(scenario) for scenario in EVERYTHING)
SUITES = {"fixture": FIXTURE, "everything": EVERYTHING}


def suite(name: str) -> tuple[Scenario, ...]:
    return SUITES.get(name, FIXTURE)


def expected_fixture_response(scenario: Scenario) -> dict[str, Any] | None:
    """The fixture's own answer (the `result` or `error` of the JSON-RPC response), where it is fixed
    (a family that plays several messages assesses its own: None)."""
    family = family_of(scenario)
    if family is not None and family.play is not None:
        return None
    if scenario.method == "tools/call":
        outcome = TOOLS.get(scenario.params["name"])
        if outcome is None:
            # The fixture's own words (fixture_server.call_tool): a proxy that rewrites them, or
            # wraps them in a prefix of its own, changes what a host shows its model.
            return {"error": {"code": -32602, "message": f"Unknown tool: {scenario.params['name']}"}}
        value = outcome[1]
        if isinstance(value, ToolError):
            error = {"code": value.code, "message": value.message}
            if value.data is not None:
                error["data"] = value.data
            return {"error": error}
        return {"result": copy.deepcopy(value)}
    if scenario.method == "prompts/get":
        prompt = PROMPTS.get(scenario.params.get("name"))
        if prompt is None:
            return None
        return {"result": {"description": prompt["description"], "messages": copy.deepcopy(prompt["messages"])}}
    return None
