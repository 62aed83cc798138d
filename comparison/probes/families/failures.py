"""Failures: every way a tool call can fail, in the three forms an upstream can use (a JSON-RPC
error, isError with prose, an mcp-error/1 envelope). One request each, assessed as a result; the
failure-gap audit scores them (DPCTER)."""

from __future__ import annotations

from comparison.probes.families.base import Family, Scenario, call_scenario
from comparison.probes.fixture.fixture_content import FAILURE_KINDS

NAME = "failures"
IS_ERROR, INVALID_PARAMS = "field:CallToolResult.isError", "error:-32602"
#: What each form of an induced failure exercises.
FORM_ANCHORS = {
    "rpc": ("type:JSONRPCError", INVALID_PARAMS),
    "prose": (IS_ERROR, "type:TextContent"),
    "envelope": (IS_ERROR, "field:CallToolResult.structuredContent"),
}
FORMS = (("rpc", "a JSON-RPC error"), ("prose", "isError + prose"), ("envelope", "an mcp-error/1 envelope"))


def _fail(key: str, title: str, anchors: tuple[str, ...]) -> Scenario:
    return call_scenario(NAME, key, key, title, anchors, True)


FAMILY = Family(
    NAME,
    "Failures",
    (
        _fail("is-error", "isError with prose (not found)", (IS_ERROR, "type:TextContent")),
        _fail("is-error-empty", "isError without text", (IS_ERROR,)),
        _fail("rpc-error", "JSON-RPC error with code and data", ("type:JSONRPCError",)),
        _fail("invalid-params", "invalid argument type (JSON-RPC -32602)", (INVALID_PARAMS,)),
        _fail("auth-failure", "authentication failure in prose", (IS_ERROR, "type:TextContent")),
        _fail(
            "error-envelope",
            "mcp-error/1 envelope (positive control)",
            (IS_ERROR, "field:CallToolResult.structuredContent"),
        ),
        _fail("no-such-tool", "nonexistent tool", (INVALID_PARAMS,)),
        *(
            _fail(
                f"fail-{kind}-{form}",
                f"{kind} as {label}",
                FORM_ANCHORS[form],
            )
            for kind in FAILURE_KINDS
            for form, label in FORMS
        ),
    ),
)

#: What every scenario of the family exercises (comparison.anchors), beside its own.
ANCHORS: tuple[str, ...] = ("page:tools#error-handling",)
