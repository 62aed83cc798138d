"""Is a result valid for the negotiated revision? Pure rules, plus the official JSON Schema.

The rules say which block types and fields each revision defines in tool results and prompt
messages (content-types register CT-03, CT-05, CT-07, CT-09, CT-10, CT-11; prompts register
PRM-01, PRM-03, PRM-05, PRM-06). The schemas never forbid extra fields, so a field a revision
lacks is only caught here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema

REVISIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
SCHEMAS = Path(__file__).resolve().parent.parent / "data" / "schemas"

#: (thing, first revision that defines it, register row)
BLOCK_TYPES = {
    "text": ("2024-11-05", "CT-01"),
    "image": ("2024-11-05", "CT-02"),
    "resource": ("2024-11-05", "CT-04"),
    "audio": ("2025-03-26", "CT-03"),
    "resource_link": ("2025-06-18", "CT-05"),
}
RESULT_FIELDS = {
    "structuredContent": ("2025-06-18", "CT-11"),
    "resultType": ("2026-07-28", "CT-12"),
}
BLOCK_FIELDS = {
    "_meta": ("2025-06-18", "CT-10"),
}
ANNOTATION_FIELDS = {"lastModified": ("2025-06-18", "CT-09")}
PROMPT_FIELDS = {
    "title": ("2025-06-18", "PRM-01"),
    "icons": ("2025-11-25", "PRM-03"),
    "_meta": ("2025-06-18", "PRM-04"),
}
RESULT_SCHEMAS = {
    "tools/call": "CallToolResult",
    "prompts/get": "GetPromptResult",
    "tools/list": "ListToolsResult",
    "prompts/list": "ListPromptsResult",
    "resources/read": "ReadResourceResult",
}


@dataclass(frozen=True)
class Finding:
    rule: str  # "block-type", "field", "schema"
    path: str
    message: str
    row: str = ""

    def as_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "path": self.path, "message": self.message, "row": self.row}


def _before(revision: str, first: str) -> bool:
    return REVISIONS.index(revision) < REVISIONS.index(first)


def _blocks(result: dict, method: str) -> list[tuple[str, Any]]:
    if method == "tools/call":
        return [(f"content[{i}]", block) for i, block in enumerate(result.get("content") or [])]
    if method == "prompts/get":
        return [
            (f"messages[{i}].content", m.get("content"))
            for i, m in enumerate(result.get("messages") or [])
            if isinstance(m, dict)
        ]
    return []


def rule_findings(result: dict, method: str, revision: str) -> list[Finding]:
    if revision not in REVISIONS or not isinstance(result, dict):
        return []
    found: list[Finding] = []
    for path, block in _blocks(result, method):
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind not in BLOCK_TYPES:
            found.append(Finding("block-type", path, f"block type {kind!r} is defined by no revision", "CT-14"))
            continue
        first, row = BLOCK_TYPES[kind]
        if _before(revision, first):
            found.append(Finding("block-type", path, f"{kind} blocks exist from {first}, not in {revision}", row))
        for name, (first, row) in BLOCK_FIELDS.items():
            if name in block and _before(revision, first):
                found.append(Finding("field", f"{path}.{name}", f"{name} on blocks exists from {first}", row))
        for name, (first, row) in ANNOTATION_FIELDS.items():
            if name in (block.get("annotations") or {}) and _before(revision, first):
                found.append(Finding("field", f"{path}.annotations.{name}", f"{name} exists from {first}", row))
    if method == "tools/call":
        for name, (first, row) in RESULT_FIELDS.items():
            if name in result and _before(revision, first):
                found.append(Finding("field", name, f"{name} exists from {first}, not in {revision}", row))
    if method == "prompts/list":
        for index, prompt in enumerate(result.get("prompts") or []):
            for name, (first, row) in PROMPT_FIELDS.items():
                if isinstance(prompt, dict) and name in prompt and _before(revision, first):
                    found.append(Finding("field", f"prompts[{index}].{name}", f"{name} exists from {first}", row))
    return found


@lru_cache(maxsize=len(REVISIONS))
def _schema(revision: str) -> dict:
    return json.loads((SCHEMAS / f"{revision}.json").read_text(encoding="utf-8"))


def schema_findings(result: Any, method: str, revision: str, *, limit: int = 10) -> list[Finding]:
    definition = RESULT_SCHEMAS.get(method)
    if definition is None or revision not in REVISIONS:
        return []
    schema = _schema(revision)
    key = "definitions" if "definitions" in schema else "$defs"
    root = {**schema, "$ref": f"#/{key}/{definition}"}
    validator_class = jsonschema.validators.validator_for(schema)
    found = []
    for error in validator_class(root).iter_errors(result):
        path = "/".join(str(part) for part in error.absolute_path) or "(result)"
        found.append(Finding("schema", path, f"{revision} schema ({definition}): {error.message[:300]}"))
        if len(found) >= limit:
            break
    return found


def findings(result: Any, method: str, revision: str) -> list[Finding]:
    return rule_findings(result, method, revision) + schema_findings(result, method, revision)
