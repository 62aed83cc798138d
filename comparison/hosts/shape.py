"""Is a pasted value shaped like a result the host models can be shown? Pure.

Only the containers are checked (an object; `content` an array of objects; `messages` an array
of objects): what a host does with a wrong block or field inside them is exactly what the
playground is for, so that is left to the host models.
"""

from __future__ import annotations

from typing import Any


def kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def shape_problem(value: Any) -> tuple[str, str]:
    """(field, what was expected and what came) for the first container of the wrong shape, or ("", "")."""
    if not isinstance(value, dict):
        return "(input)", f"expected a JSON object (a CallToolResult or GetPromptResult), got {kind(value)}"
    if "messages" in value and "content" not in value:
        messages = value["messages"]
        if not isinstance(messages, list):
            return "messages", f"expected an array of prompt messages, got {kind(messages)}"
        for index, message in enumerate(messages):
            if not isinstance(message, dict):
                return f"messages[{index}]", f"expected a message object with role and content, got {kind(message)}"
        return "", ""
    if "content" in value:
        content = value["content"]
        if not isinstance(content, list):
            return "content", f"expected an array of content blocks, got {kind(content)}"
        for index, block in enumerate(content):
            if not isinstance(block, dict):
                return f"content[{index}]", f"expected a content block object (with a type), got {kind(block)}"
    return "", ""
