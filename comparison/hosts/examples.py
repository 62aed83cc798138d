"""Example results for the playground and the row pages: the test vectors, a few composed
examples, and which example shows each register row. Pure (reads a JSON data file)."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from language.anchors.kinds import meets
from language.anchors.row_anchors import resolve
from language.anchors.titles import naming_title

VECTORS = Path(__file__).resolve().parent.parent / "data" / "vectors.json"
PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

COMPOSED: dict[str, Any] = {
    "image_and_link": {
        "content": [
            {"type": "image", "data": PNG_1PX, "mimeType": "image/png"},
            {"type": "resource_link", "uri": "mcpx://artifacts/abc123", "name": "chart.png", "mimeType": "image/png"},
        ]
    },
    "is_error_envelope": {
        "isError": True,
        "content": [
            {
                "type": "text",
                "text": json.dumps(
                    {
                        "error": {
                            "schema": "mcp-error/1",
                            "code": "argument.type",
                            "target": {"kind": "parameter", "pointer": "/path"},
                            "policy": "fix-argument",
                            "retry": {"same_request": False},
                            "sideEffects": "none",
                            "text": "Expected string at /path, got integer",
                        }
                    }
                ),
            }
        ],
    },
    "prompt_few_shot": {
        "description": "Review a diff",
        "messages": [
            {"role": "user", "content": {"type": "text", "text": "Review this change: $1"}},
            {"role": "assistant", "content": {"type": "text", "text": "I will look for bugs first."}},
            {"role": "user", "content": {"type": "image", "data": PNG_1PX, "mimeType": "image/png"}},
            {
                "role": "user",
                "content": {"type": "resource", "resource": {"uri": "file:///CONTRIBUTING.md", "text": "Style rules"}},
            },
        ],
    },
}

#: Register row -> (example, what the row is about). The subject is a block type or field whose
#: fate decides "has"/"lacks", or "failure" for rows about a host failing the call (CT-14, CT-19).
ROW_EXAMPLES: dict[str, tuple[str, str]] = {
    "CT-01": ("text_single", "text"),
    "CT-02": ("text_and_image", "image"),
    "CT-03": ("audio_only", "audio"),
    "CT-04": ("resource_text", "resource"),
    "CT-05": ("resource_link", "resource_link"),
    "CT-09": ("annotations_and_meta", "annotations"),
    "CT-10": ("annotations_and_meta", "_meta"),
    "CT-13": ("structured_with_text", "structuredContent"),
    "CT-14": ("unknown_block_type", "failure"),
    "CT-15": ("structured_with_text", "structuredContent"),
    "CT-16": ("text_json_object", "parse"),
    "CT-18": ("image_only", "image"),
    "CT-19": ("is_error_with_text", "failure"),
    "FG-01": ("is_error_with_text", "failure"),
    "FG-11": ("is_error_envelope", "failure"),
    "FG-15": ("is_error_with_text", "failure"),
    "FG-16": ("is_error_with_text", "failure"),
    "PRM-05": ("prompt_few_shot", "image"),
    "PRM-07": ("prompt_few_shot", "role"),
    "PRM-08": ("prompt_few_shot", "text"),
}
#: What a row whose title names one of these anchors (and that has no example above) is shown on:
#: a register nobody here has read gets the host models' verdicts on what its rows are about.
ANCHOR_EXAMPLES: dict[str, tuple[str, str]] = {
    "type:TextContent": ("text_single", "text"),
    "type:ImageContent": ("image_only", "image"),
    "type:AudioContent": ("audio_only", "audio"),
    "type:EmbeddedResource": ("resource_text", "resource"),
    "type:ResourceLink": ("resource_link", "resource_link"),
    "field:CallToolResult.structuredContent": ("structured_with_text", "structuredContent"),
    "field:CallToolResult.isError": ("is_error_with_text", "failure"),
}


@lru_cache(maxsize=8192)
def example_for(row_id: str, title: str = "") -> tuple[str, str] | None:
    """(example, what in it the row is about): the row's own example, else, for a title that only
    names a thing and starts with it (`audio` content block, `CallToolResult.isError`), the one for
    that thing. A title that says more is about something else that involves it (`resource_link`
    rewritten as embedded resource; `mcpx_exec` returns artifacts as `resource_link` blocks), and
    its host claims are not about delivering it."""
    if row_id in ROW_EXAMPLES:
        return ROW_EXAMPLES[row_id]
    if not naming_title(title):
        return None
    lead = re.match(r"\s*`([^`\n]{1,120})`", title or "")
    for value in resolve(lead.group(1)) if lead else ():
        for key, found in ANCHOR_EXAMPLES.items():
            if meets(value, key):
                return found
    return None


#: Rows whose status column speaks about what mcpx passes on (elsewhere it is about mcpx's own
#: features, so the mcpx_call model is shown but not checked against it).
MCPX_PASS_THROUGH_ROWS = {"CT-13", "FG-01", "FG-16", "PRM-07"}


@lru_cache(maxsize=1)
def vectors() -> dict[str, Any]:
    data = json.loads(VECTORS.read_text(encoding="utf-8"))
    return {vector["name"]: vector["input"] for vector in data["vectors"]}


def all_examples() -> dict[str, Any]:
    return {**vectors(), **COMPOSED}


def example(name: str) -> Any | None:
    return all_examples().get(name)
