"""Tool parameters mirrored into `Mcp-Param-{name}` headers (2026-07-28, Streamable HTTP): which
tools a client must refuse for a bad `x-mcp-header`, and the header a call's argument becomes.
The rules are the 2026-07-28 tools page's "x-mcp-header" section; a value that is not plain
visible ASCII without edge spaces goes as `=?base64?…?=`, as the conformance suite checks.
No Django."""

from __future__ import annotations

import base64
from typing import Any

ANNOTATION = "x-mcp-header"
#: RFC 9110 tchar, the characters a header's name may hold.
TOKEN_CHARACTERS = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
PRIMITIVE_TYPES = {"string", "integer", "boolean"}
SAFE_INTEGER = 2**53 - 1


def _annotated(schema: Any) -> list[tuple[str, dict[str, Any]]]:
    """(property, its schema) for each property of the root that carries the annotation: only
    those are statically reachable."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return []
    return [(name, field) for name, field in properties.items() if isinstance(field, dict) and ANNOTATION in field]


def header_problem(tool: Any) -> str:
    """Why a client must leave this tool out of its list (an invalid `x-mcp-header`), or ""."""
    seen: set[str] = set()
    for name, field in _annotated(tool.get("inputSchema") if isinstance(tool, dict) else None):
        value = field[ANNOTATION]
        if not isinstance(value, str) or not value:
            return f"{name}: x-mcp-header is empty or not a string"
        if not set(value) <= TOKEN_CHARACTERS:
            return f"{name}: x-mcp-header {value!r} is not an HTTP token"
        if field.get("type") not in PRIMITIVE_TYPES:
            return f"{name}: x-mcp-header on a {field.get('type')!r} parameter (only string, integer, boolean)"
        if value.lower() in seen:
            return f"{name}: x-mcp-header {value!r} is used twice"
        seen.add(value.lower())
    return ""


def _needs_base64(text: str) -> bool:
    return text != text.strip() or any(not 32 <= ord(char) <= 126 for char in text)


def header_value(value: Any) -> str | None:
    """The header text of one argument; None when it is not sent (null, or not a primitive)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) <= SAFE_INTEGER:
        return str(value)
    if isinstance(value, str):
        if _needs_base64(value):
            return "=?base64?" + base64.b64encode(value.encode()).decode() + "?="
        return value
    return None


def param_headers(schema: Any, arguments: Any) -> dict[str, str]:
    """The `Mcp-Param-*` headers a call with `arguments` carries for a tool of this input schema."""
    if not isinstance(arguments, dict):
        return {}
    headers = {}
    for name, field in _annotated(schema):
        text = header_value(arguments.get(name))
        if text is not None and isinstance(field[ANNOTATION], str):
            headers[f"Mcp-Param-{field[ANNOTATION]}"] = text
    return headers
