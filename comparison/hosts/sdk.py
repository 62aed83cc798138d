"""The validation every host runs first: an MCP SDK's `CallToolResultSchema`. Pure.

Hosts see results only after their SDK version parsed them (HOSTS.md §1): the block union is
closed, `structuredContent` must be an object, a missing `content` becomes `[]`, unknown top-level
keys survive, and SDK 1.22.0 (lootbox) strips block `annotations`. Parsing also reorders keys the
way the schema declares them, which is visible in the JSON a script prints.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from comparison.hosts.view import Rule

SDK_1_22 = "sdk-1.22.0"  # lootbox
SDK_1_29 = "sdk-1.29.0"  # opencode 1.18.31 as read from its source
#: What the opencode 1.18.33 binary really reports: the bare issue list, like SDK 1.22.0, not the
#: `MCP error -32602: …` wrapper the 1.29.0 source suggests (measured against the binary).
OPENCODE_1_18_BINARY = "opencode-1.18-binary"
SDK_1_32 = "sdk-1.32.2"  # Cloudflare codemode 0.5.6 (dev dependency)
CLIENT_2_0 = "client-2.0.0"  # opencode 2.0.3

ANNOTATIONS_STRIPPED = Rule("npm:@modelcontextprotocol/sdk@1.22.0 dist/esm/types.js:676-687", ("CT-09",))

BLOCK_KEYS = {
    "text": ("type", "text", "annotations", "_meta"),
    "image": ("type", "data", "mimeType", "annotations", "_meta"),
    "audio": ("type", "data", "mimeType", "annotations", "_meta"),
    "resource": ("type", "resource", "annotations", "_meta"),
    "resource_link": ("name", "title", "uri", "description", "mimeType", "annotations", "_meta", "icons", "type"),
}
RESOURCE_KEYS = ("uri", "mimeType", "_meta", "text", "blob")
RESULT_KEYS = ("_meta", "content", "structuredContent", "isError")


@dataclass
class Parsed:
    ok: bool
    result: dict | None = None
    error: str = ""
    issues: list[dict] | None = None


def _ordered(obj: dict, keys: tuple[str, ...]) -> dict:
    ordered = {key: obj[key] for key in keys if key in obj}
    ordered.update({key: value for key, value in obj.items() if key not in ordered})
    return ordered


def _block_issue(index: int, block: Any) -> dict | None:
    path = ["content", index]
    if not isinstance(block, dict):
        return {"code": "invalid_union", "path": path, "message": "Invalid input"}
    kind = block.get("type")
    if not isinstance(kind, str) or kind not in BLOCK_KEYS:
        return {"code": "invalid_union", "path": path, "message": "Invalid input"}
    required = {
        "text": ("text",),
        "image": ("data", "mimeType"),
        "audio": ("data", "mimeType"),
        "resource_link": ("uri", "name"),
        "resource": (),
    }[kind]
    for key in required:
        if not isinstance(block.get(key), str):
            return {"code": "invalid_union", "path": path, "message": "Invalid input"}
    if kind == "resource":
        resource = block.get("resource")
        if not isinstance(resource, dict) or not isinstance(resource.get("uri"), str):
            return {"code": "invalid_union", "path": path, "message": "Invalid input"}
        if not isinstance(resource.get("text"), str) and not isinstance(resource.get("blob"), str):
            return {"code": "invalid_union", "path": path, "message": "Invalid input"}
    return None


def issues_of(result: Any) -> list[dict]:
    if not isinstance(result, dict):
        return [
            {
                "code": "invalid_type",
                "expected": "object",
                "received": type(result).__name__,
                "path": [],
                "message": "Expected object",
            }
        ]
    issues: list[dict] = []
    content = result.get("content", [])
    if not isinstance(content, list):
        issues.append({"code": "invalid_type", "expected": "array", "path": ["content"], "message": "Expected array"})
    else:
        issues.extend(issue for index, block in enumerate(content) if (issue := _block_issue(index, block)))
    if "structuredContent" in result and not isinstance(result["structuredContent"], dict):
        received = "null" if result["structuredContent"] is None else type(result["structuredContent"]).__name__
        issues.append(
            {
                "code": "invalid_type",
                "expected": "object",
                "received": received,
                "path": ["structuredContent"],
                "message": f"Expected object, received {received}",
            }
        )
    if "isError" in result and not isinstance(result["isError"], bool):
        issues.append(
            {"code": "invalid_type", "expected": "boolean", "path": ["isError"], "message": "Expected boolean"}
        )
    return issues


def error_message(version: str, issues: list[dict]) -> str:
    listing = json.dumps(issues, indent=2)
    if version in (SDK_1_22, OPENCODE_1_18_BINARY):
        return listing
    if version == CLIENT_2_0:
        return f"Invalid tools/call result: {listing}"
    return f"MCP error -32602: MCP error -32602: Invalid tools/call result: {listing}"


def parse(result: Any, version: str) -> Parsed:
    """`result` as the host's SDK hands it over, or the error the SDK raises instead."""
    issues = issues_of(result)
    if issues:
        return Parsed(False, error=error_message(version, issues), issues=issues)
    parsed = dict(result)
    parsed.setdefault("content", [])
    blocks = []
    for block in parsed["content"]:
        block = dict(block)
        if version == SDK_1_22:
            block.pop("annotations", None)
        if block["type"] == "resource":
            block["resource"] = _ordered(dict(block["resource"]), RESOURCE_KEYS)
        blocks.append(_ordered(block, BLOCK_KEYS[block["type"]]))
    parsed["content"] = blocks
    return Parsed(True, result=_ordered(parsed, RESULT_KEYS))
