"""Is a result valid for the negotiated revision? Pure rules, plus the official JSON Schema.

The rules say which block types and fields each revision defines in tool results and prompt
messages, each with the spec anchor it is (a register row about it meets it by that anchor). The
schemas never forbid extra fields, so a field a revision
lacks is only caught here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema

from language.vocabulary import REVISIONS
from language.vocabulary import Revision as R

SCHEMAS = Path(__file__).resolve().parents[3] / "comparison" / "data" / "schemas"

#: (thing, first revision that defines it, the spec anchor it is)
BLOCK_TYPES = {
    "text": (R.V2024_11_05, "type:TextContent"),
    "image": (R.V2024_11_05, "type:ImageContent"),
    "resource": (R.V2024_11_05, "type:EmbeddedResource"),
    "audio": (R.V2025_03_26, "type:AudioContent"),
    "resource_link": (R.V2025_06_18, "type:ResourceLink"),
}
RESULT_FIELDS = {
    "structuredContent": (R.V2025_06_18, "field:CallToolResult.structuredContent"),
    "resultType": (R.V2026_07_28, "field:CallToolResult.resultType"),
}
BLOCK_FIELDS = {
    "_meta": (R.V2025_06_18, "field:TextContent._meta"),
}
ANNOTATION_FIELDS = {"lastModified": (R.V2025_06_18, "field:Annotations.lastModified")}
PROMPT_FIELDS = {
    "title": (R.V2025_06_18, "field:Prompt.title"),
    "icons": (R.V2025_11_25, "field:Prompt.icons"),
    "_meta": (R.V2025_06_18, "field:Prompt._meta"),
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
    anchor: str = ""  # what it is (comparison.anchors): rows meet it by anchor

    def as_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "path": self.path, "message": self.message, "anchor": self.anchor}


def _before(revision: str, first: str) -> bool:
    return REVISIONS.index(revision) < REVISIONS.index(first)


def _list(value: Any) -> list:
    """A list field of a result, or nothing: a wrong type is the schema's finding, not a rule's."""
    return value if isinstance(value, list) else []


def _blocks(result: dict, method: str) -> list[tuple[str, Any]]:
    if method == "tools/call":
        return [(f"content[{i}]", block) for i, block in enumerate(_list(result.get("content")))]
    if method == "prompts/get":
        return [
            (f"messages[{i}].content", m.get("content"))
            for i, m in enumerate(_list(result.get("messages")))
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
        if not isinstance(kind, str) or kind not in BLOCK_TYPES:
            unknown = f"block type {kind!r} is defined by no revision"
            found.append(Finding("block-type", path, unknown, "type:ContentBlock"))
            continue
        first, anchor = BLOCK_TYPES[kind]
        if _before(revision, first):
            found.append(Finding("block-type", path, f"{kind} blocks exist from {first}, not in {revision}", anchor))
        for name, (first, anchor) in BLOCK_FIELDS.items():
            if name in block and _before(revision, first):
                found.append(Finding("field", f"{path}.{name}", f"{name} on blocks exists from {first}", anchor))
        for name, (first, anchor) in ANNOTATION_FIELDS.items():
            annotations = block.get("annotations")
            if isinstance(annotations, dict) and name in annotations and _before(revision, first):
                found.append(Finding("field", f"{path}.annotations.{name}", f"{name} exists from {first}", anchor))
    if method == "tools/call":
        for name, (first, anchor) in RESULT_FIELDS.items():
            if name in result and _before(revision, first):
                found.append(Finding("field", name, f"{name} exists from {first}, not in {revision}", anchor))
    if method == "prompts/list":
        for index, prompt in enumerate(_list(result.get("prompts"))):
            for name, (first, anchor) in PROMPT_FIELDS.items():
                if isinstance(prompt, dict) and name in prompt and _before(revision, first):
                    found.append(Finding("field", f"prompts[{index}].{name}", f"{name} exists from {first}", anchor))
    return found


@lru_cache(maxsize=len(REVISIONS))
def official_schema(revision: str) -> dict:
    return json.loads((SCHEMAS / f"{revision}.json").read_text(encoding="utf-8"))


def schema_findings(result: Any, method: str, revision: str, *, limit: int = 10) -> list[Finding]:
    definition = RESULT_SCHEMAS.get(method)
    if definition is None or revision not in REVISIONS:
        return []
    schema = official_schema(revision)
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


def answer_findings(response: Any, repairs: list[str] = (), strays: list[Any] = ()) -> list[Finding]:
    """What makes an answer invalid whatever the revision: the JSON-RPC 2.0 response shape
    (jsonrpc "2.0", exactly one of result and error, a result object, an error object with an
    integer code and a string message), characters that had to be repaired to keep it, and
    answers to no request in flight that came on the session meanwhile."""
    found = [Finding("encoding", "(response)", note) for note in repairs]
    if strays:
        named = ", ".join(_brief(stray) for stray in strays[:5]) + (", …" if len(strays) > 5 else "")
        found.append(
            Finding(
                "jsonrpc",
                "(session)",
                f"{len(strays)} answer{'s' if len(strays) != 1 else ''} to no request in flight came before "
                f"the response (id {named}): a client matches answers by id and drops these",
            )
        )
    if not isinstance(response, dict):
        return [*found, Finding("jsonrpc", "(response)", "the response is not a JSON object")]
    if response.get("jsonrpc") != "2.0":
        found.append(Finding("jsonrpc", "jsonrpc", f'jsonrpc is {_brief(response.get("jsonrpc"))}, not "2.0"'))
    has_result, has_error = "result" in response, "error" in response
    if has_result and has_error:
        found.append(Finding("jsonrpc", "(response)", "the response carries both result and error"))
    elif not has_result and not has_error:
        found.append(Finding("jsonrpc", "(response)", "the response carries neither result nor error"))
    if has_result and not isinstance(response["result"], dict):
        found.append(
            Finding("jsonrpc", "result", f"the result is {_kind(response['result'])}, not an object (MCP results are)")
        )
    if has_error:
        error = response["error"]
        if not isinstance(error, dict):
            found.append(Finding("jsonrpc", "error", f"the error is {_kind(error)}, not an object"))
        else:
            code, message = error.get("code"), error.get("message")
            if not isinstance(code, int) or isinstance(code, bool):
                found.append(Finding("jsonrpc", "error.code", f"the error code is {_kind(code)}, not an integer"))
            if not isinstance(message, str):
                found.append(
                    Finding("jsonrpc", "error.message", f"the error message is {_kind(message)}, not a string")
                )
    return found


KIND_NAMES = {
    bool: "a boolean",
    int: "a number",
    float: "a number",
    str: "a string",
    list: "an array",
    dict: "an object",
}


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return KIND_NAMES.get(type(value), type(value).__name__)


def _brief(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)[:60] if value is not None else "missing"


#: What a revision asks a server to put in every result's `_meta`: a proxy adding it where the
#: upstream left it out does as the revision asks, and no host's view changes.
ASKED_META = {R.V2026_07_28: ("io.modelcontextprotocol/serverInfo",)}


def asked_additions(revision: str, sent: Any, got: Any) -> tuple[Any, list[str]]:
    """(`got` with the `_meta` keys the revision asks for set as `sent` has them, the paths of those
    the proxy added or put its own value in)."""
    keys = ASKED_META.get(revision, ())
    result = got.get("result") if isinstance(got, dict) else None
    meta = result.get("_meta") if isinstance(result, dict) else None
    if not keys or not isinstance(meta, dict):
        return got, []
    sent_result = sent.get("result") if isinstance(sent, dict) else None
    sent_meta = sent_result.get("_meta") if isinstance(sent_result, dict) else None
    sent_meta = sent_meta if isinstance(sent_meta, dict) else {}
    touched = [key for key in keys if key in meta and sent_meta.get(key, None) != meta[key]]
    if not touched:
        return got, []
    kept_meta = {key: value for key, value in meta.items() if key not in touched or key in sent_meta}
    kept_meta.update({key: sent_meta[key] for key in touched if key in sent_meta})
    kept_result = {key: value for key, value in result.items() if key != "_meta"}
    if kept_meta or "_meta" in (sent_result or {}):
        kept_result["_meta"] = kept_meta
    return {**got, "result": kept_result}, [f"result._meta.{key}" for key in touched]
