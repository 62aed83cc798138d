"""Compare a host model's view with what the real host produced for the same result."""

from __future__ import annotations

import json
from typing import Any

ISSUE_PREFIXES = (
    "MCP error -32602: MCP error -32602: Invalid tools/call result: ",
    "Invalid tools/call result: ",
    "",  # the bare issue list (SDK 1.22.0, and opencode 1.18.33 as measured)
)


def error_signature(message: str | None) -> Any:
    """SDK validation errors differ in the detail of the nested issue list between zod versions;
    what must agree is the wrapper text and, per top-level issue, its code and path."""
    if message is None:
        return None
    for prefix in ISSUE_PREFIXES:
        if message.startswith(prefix) and message[len(prefix) :].startswith("["):
            try:
                issues = json.loads(message[len(prefix) :])
            except ValueError:
                return message
            if isinstance(issues, list) and all(isinstance(issue, dict) for issue in issues):
                return (prefix, [(issue.get("code"), issue.get("path")) for issue in issues])
            return message
    return message
