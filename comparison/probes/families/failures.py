"""Failures: every way a tool call can fail, in the three forms an upstream can use (a JSON-RPC
error, isError with prose, an mcp-error/1 envelope). One request each, assessed as a result; the
failure-gap audit scores them (DPCTER)."""

from __future__ import annotations

from ..fixture_content import FAILURE_KINDS
from .base import Family, Scenario, call_scenario

NAME = "failures"
#: The failure-gap row of each induced kind.
FAILURE_ROWS = {"not-found": "FG-07", "argument-type": "FG-08", "argument-value": "FG-09", "auth": "FG-10"}
FORMS = (("rpc", "a JSON-RPC error"), ("prose", "isError + prose"), ("envelope", "an mcp-error/1 envelope"))


def _fail(key: str, title: str, rows: tuple[str, ...]) -> Scenario:
    return call_scenario(NAME, key, key, title, rows, True)


FAMILY = Family(
    NAME,
    "Failures",
    (
        _fail("is-error", "isError with prose (not found)", ("CT-19", "FG-01", "FG-15")),
        _fail("is-error-empty", "isError without text", ("CT-19", "FG-01")),
        _fail("rpc-error", "JSON-RPC error with code and data", ("FG-02", "FG-16")),
        _fail("invalid-params", "invalid argument type (JSON-RPC -32602)", ("FG-08",)),
        _fail("auth-failure", "authentication failure in prose", ("FG-10",)),
        _fail("error-envelope", "mcp-error/1 envelope (positive control)", ("FG-11",)),
        _fail("no-such-tool", "nonexistent tool", ("FG-07",)),
        *(
            _fail(
                f"fail-{kind}-{form}",
                f"{kind} as {label}",
                (FAILURE_ROWS[kind], "FG-11" if form == "envelope" else "FG-12"),
            )
            for kind in FAILURE_KINDS
            for form, label in FORMS
        ),
    ),
)
