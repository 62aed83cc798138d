"""mcpx at 05c78b2 (the registers' status subject): `mcpx_call`, `downgrade()` and `renderPrompt`.

From the content-types and prompts registers: CT-13 (one text block, isError dropped), CT-06 and
CT-12 (what `downgrade()` rewrites per revision), PRM-07 (prompts flattened to one user message).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from comparison.hosts.view import HostView, Part, Rule, base64_size, describe_block
from language.vocabulary import REVISIONS
from language.vocabulary import Revision as R

RENDER_RULE = Rule("internal/cli/commands.go:385-415", ("CT-13", "FG-16"))
LINK_RULE = Rule("internal/mcpserver/revisions.go:260-273", ("CT-06",))
PROMPT_RULE = Rule("internal/cli/serve.go:640-669", ("PRM-07",))


def render_text(result: dict) -> str:
    """renderResult: structuredContent wins (pretty-printed), else text blocks joined, else raw JSON."""
    if "structuredContent" in result:
        return json.dumps(result["structuredContent"], indent=2, ensure_ascii=False)
    texts = [
        b["text"]
        for b in result.get("content") or []
        if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
    ]
    if texts:
        return "\n".join(texts)
    return json.dumps(result, separators=(",", ":"), ensure_ascii=False)


def call(result: Any) -> HostView:
    """What a host behind mcpx's MCP surface receives from `mcpx_call`: one text block."""
    view = HostView("mcpx", "call", "mcpx · mcpx_call")
    if not isinstance(result, dict):
        return view.fail("not a JSON object")
    content = result.get("content")
    if content is not None and not isinstance(content, list):
        # Modelled, not from the registers: Go's decoder refuses a non-array into []Content.
        view.notes.append("modelled: mcpx decodes results with Go's encoding/json")
        return view.fail(f"json: cannot unmarshal {type(content).__name__} into the result's content array")
    content = content or []
    text = render_text(result)
    view.parts.append(Part(text=text))
    view.script_value = {"content": [{"type": "text", "text": text}]}
    if result.get("isError"):
        view.drop("isError", "renderResult never uses it: the failure reaches the host as a success", RENDER_RULE)
    if "structuredContent" in result and content:
        view.drop("content", "structuredContent wins, pretty-printed", RENDER_RULE)
    for index, block in enumerate(content):
        if isinstance(block, dict) and block.get("type") != "text":
            size = ""
            if isinstance(block.get("data"), str):
                size = f", {base64_size(block['data'])} bytes"
            view.drop(describe_block(index, block), f"only text blocks are rendered{size}", RENDER_RULE)
        elif isinstance(block, dict):
            for key in ("annotations", "_meta"):
                if key in block:
                    view.drop(f"{describe_block(index, block)} {key}", "not rendered", RENDER_RULE)
    has_text = any(isinstance(b, dict) and b.get("type") == "text" for b in content)
    as_raw_json = "structuredContent" not in result and not has_text
    if "_meta" in result and not as_raw_json:
        # With no text to render, the whole result is the text: its `_meta` is in it.
        view.drop("result _meta", "not rendered", RENDER_RULE)
    if as_raw_json:
        view.change("result", "no text blocks: the raw result JSON becomes the text", RENDER_RULE)
    return view


def _before(revision: str, other: str) -> bool:
    return REVISIONS.index(revision) < REVISIONS.index(other)


def _link_as_resource(block: dict) -> dict:
    label = f"{block.get('name', '')} — {block.get('uri', '')}"
    return {
        "type": "resource",
        "resource": {"uri": block.get("uri", ""), "mimeType": block.get("mimeType") or "text/plain", "text": label},
    }


def downgrade(result: dict, revision: str) -> tuple[dict, list[str]]:
    """The result mcpx sends a client of `revision`, and what changed (CT-12)."""
    if revision == R.V2026_07_28:
        return result, []
    out = copy.deepcopy(result)
    changes: list[str] = []
    if "resultType" in out:
        del out["resultType"]
        changes.append("resultType removed (not defined before 2026-07-28)")
    if _before(revision, R.V2025_06_18):
        if out.get("content") is not None and not isinstance(out["content"], list):
            return out, ["content is not an array: passed on as it is"]
        if "structuredContent" in out:
            structured = out.pop("structuredContent")
            out["content"] = [*(out.get("content") or []), {"type": "text", "text": json.dumps(structured)}]
            changes.append("structuredContent moved into a text block")
        blocks = []
        for block in out.get("content") or []:
            if isinstance(block, dict) and block.get("type") == "resource_link":
                blocks.append(_link_as_resource(block))
                changes.append(
                    f"resource_link {block.get('uri')} rewritten as an embedded resource with mimeType "
                    f"{block.get('mimeType') or 'text/plain'} over a text label (CT-06)"
                )
            elif isinstance(block, dict) and block.get("type") == "audio" and _before(revision, R.V2025_03_26):
                blocks.append({"type": "text", "text": f"[audio {block.get('mimeType', '')}]"})
                changes.append("audio rendered as text (not defined before 2025-03-26)")
            else:
                blocks.append(block)
        if "content" in out:
            out["content"] = blocks
    return out, changes


def render_prompt(prompt_result: Any) -> HostView:
    """renderPrompt: the description and every message's text folded into one user text message,
    non-user roles as `[role] ` prefixes, non-text content dropped (PRM-07)."""
    view = HostView("mcpx", "prompt", "mcpx · prompts/get")
    if not isinstance(prompt_result, dict) or not isinstance(prompt_result.get("messages"), list):
        return view.fail("prompts/get result without messages")
    lines = []
    if prompt_result.get("description"):
        lines.append(str(prompt_result["description"]))
    for index, message in enumerate(prompt_result["messages"]):
        if not isinstance(message, dict):
            continue
        content = message.get("content") or {}
        role = message.get("role", "user")
        prefix = "" if role == "user" else f"[{role}] "
        if role != "user":
            view.change(f"messages[{index}] role", f"{role} turn becomes user text with a [{role}] prefix", PROMPT_RULE)
        if not isinstance(role, str) or (isinstance(content, dict) and not isinstance(content.get("text", ""), str)):
            # Modelled, not from the registers: Go's decoder refuses a non-string role or text.
            view.notes.append("modelled: mcpx decodes prompts with Go's encoding/json")
            return view.fail(f"json: cannot unmarshal messages[{index}] into the prompt message")
        if isinstance(content, dict) and content.get("type") == "text":
            lines.append(prefix + content.get("text", ""))
        else:
            kind = content.get("type") if isinstance(content, dict) else "content"
            view.drop(f"messages[{index}] ({kind})", "renderPrompt reads only content.text", PROMPT_RULE)
    text = "\n\n".join(lines)
    view.parts.append(Part(text=text))
    view.script_value = {"messages": [{"role": "user", "content": {"type": "text", "text": text}}]}
    view.notes.append("the exact separators of renderPrompt are not in the register; modelled as blank lines")
    return view
