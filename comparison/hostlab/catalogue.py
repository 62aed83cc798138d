"""The scenarios the lab runs each host through: every content-result and failure tool of the
fixture (comparison/probes/fixture/fixture_content.py), one run each, and the feature each one shows."""

from __future__ import annotations

import copy
import hashlib
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from comparison.probes.fixture import sessions

FIXTURE = Path(__file__).resolve().parent.parent / "probes" / "fixture"
#: The fixture's own files: a change to any of them is a new fixture version.
FIXTURE_FILES = ("fixture_content.py", "fixture_server.py")


@dataclass(frozen=True)
class LabScenario:
    tool: str  # the fixture's tool name
    title: str
    group: str  # content | failure
    anchors: tuple[str, ...]


def _s(tool: str, title: str, group: str, *anchors: str) -> LabScenario:
    return LabScenario(tool, title, group, anchors)


IS_ERROR = "field:CallToolResult.isError"
SCENARIOS: tuple[LabScenario, ...] = (
    _s("text", "one text block", "content", "type:TextContent"),
    _s("image", "one image block", "content", "type:ImageContent"),
    _s("audio", "one audio block", "content", "type:AudioContent"),
    _s("resource-text", "an embedded text resource", "content", "type:EmbeddedResource", "type:TextResourceContents"),
    _s("resource-blob", "an embedded blob resource", "content", "type:EmbeddedResource", "type:BlobResourceContents"),
    _s("resource-link", "a resource_link after a text block", "content", "type:ResourceLink"),
    _s("mixed", "every block type at once", "content", "type:ContentBlock"),
    _s("structured", "text plus structuredContent", "content", "field:CallToolResult.structuredContent"),
    _s("structured-only", "structuredContent with empty content", "content", "field:CallToolResult.structuredContent"),
    _s("annotations", "annotations and _meta on a block", "content", "type:Annotations"),
    _s("unknown-type", "a block of a type no revision defines", "content", "type:ContentBlock"),
    _s("is-error", "isError with text", "failure", IS_ERROR, "type:TextContent"),
    _s("is-error-empty", "isError without text", "failure", IS_ERROR),
    _s("auth-failure", "an authentication failure in text", "failure", IS_ERROR),
    _s("error-envelope", "isError with an mcp-error/1 envelope", "failure", IS_ERROR),
    _s("rpc-error", "a JSON-RPC error with code and data", "failure", "type:JSONRPCError"),
    _s("invalid-params", "a JSON-RPC invalid params error", "failure", "error:-32602"),
)
BY_TOOL = {scenario.tool: scenario for scenario in SCENARIOS}


@cache
def fixture_version() -> str:
    """A short hash of the fixture's files: observations are cached per fixture version."""
    digest = hashlib.sha256()
    for name in FIXTURE_FILES:
        digest.update((FIXTURE / name).read_bytes())
    return digest.hexdigest()[:12]


def fixture_command() -> list[str]:
    """The fixture as a command of its own: a new interpreter that imports the MCP SDK (about a
    second of CPU), as a target or a peer's upstream is stored and shown. A run of this process
    uses a forked session instead (comparison.probes.fixture.forkserver), and so does a target's
    start of this command (comparison.probes.fixture.sessions)."""
    return [sys.executable, "-m", sessions.FIXTURE_MODULE, "--stdio"]


def fixture_environment() -> dict[str, str]:
    """The fixture imports the project: it runs with the project on its path."""
    return {"PYTHONPATH": str(FIXTURE.parents[2])}


def meeting(anchors: list[str] | tuple[str, ...]) -> list[LabScenario]:
    """The lab scenarios whose anchors meet a register row's: what the real hosts showed about it."""
    from language.anchors.kinds import meet

    wanted = set(anchors)
    return [scenario for scenario in SCENARIOS if wanted and meet(wanted, set(scenario.anchors))]


def fixture_reply(tool: str) -> dict[str, Any] | None:
    """The JSON-RPC reply the fixture sends for a tool (its result, or the error it raises): the
    same at every revision."""
    from comparison.probes.fixture.fixture_content import TOOLS, ToolError

    if tool not in TOOLS:
        return None
    _, answer, _ = TOOLS[tool]
    if isinstance(answer, ToolError):
        return {
            "jsonrpc": "2.0",
            "id": 1,
            "error": {"code": answer.code, "message": answer.message, "data": answer.data},
        }
    return {"jsonrpc": "2.0", "id": 1, "result": copy.deepcopy(answer)}
