"""The real host lane of a probe run: hand the results a proxy returned to the real opencode
binary and record what it gave the model, next to the models' views. No Django."""

from __future__ import annotations

from typing import Any

from comparison.hostlab.install import missing
from comparison.hostlab.opencode_serve import OpencodeHost

LABEL = "opencode v1 (real binary 1.18.33)"


def available() -> bool:
    return not missing()


def capture_view(capture) -> dict[str, Any]:
    """A capture in the shape of the host views shown beside it."""
    parts: list[dict[str, Any]] = [{"text": capture.tool_text if capture.tool_text is not None else ""}]
    parts += [
        {"file": {"mime": a["mime"], "bytes": a["bytes"], "filename": a.get("filename")}} for a in capture.attachments
    ]
    return {
        "key": "opencode-v1-real",
        "host": "opencode-v1",
        "path": "direct",
        "label": LABEL,
        "outcome": "delivered" if capture.tool_text is not None else "failed",
        "error": None if capture.tool_text is not None else "no tool result reached the model",
        "parts": parts,
        "attachments": capture.attachments,
        "changes": [],
        "notes": [
            "captured from the real opencode binary over an OpenAI-compatible API; the tool message and "
            "the media it attached in a separate user message"
        ],
    }


def capture_results(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """{case name: CallToolResult} -> {case name: view}, one opencode serve for all of them."""
    if not results:
        return {}
    with OpencodeHost(results) as host:
        return {name: capture_view(host.capture(name)) for name in results}
