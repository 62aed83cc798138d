"""The text opencode keeps of a `prompts/get` result: one line per message. Pure."""

from __future__ import annotations

from typing import Any

from comparison.hosts.view import HostView, Rule, js_string


def message_lines(view: HostView, messages: list[Any], rule: Rule, *, bare_strings: bool) -> list[str]:
    """Each message's text if its content is a text block (or, where accepted, a bare string),
    else ""; non-text content and assistant roles are recorded as dropped."""
    lines = []
    for index, message in enumerate(messages):
        content = message.get("content") if isinstance(message, dict) else None
        if bare_strings and isinstance(content, str):
            lines.append(content)
        elif isinstance(content, dict) and content.get("type") == "text":
            lines.append(js_string(content.get("text")))
        else:
            lines.append("")
            kind = content.get("type") if isinstance(content, dict) else "content"
            view.drop(f"messages[{index}] ({kind})", "only text is kept; an empty line stands in its place", rule)
        if isinstance(message, dict) and message.get("role") == "assistant":
            view.drop(f"messages[{index}] role", "roles are ignored: everything becomes the user's prompt", rule)
    return lines
