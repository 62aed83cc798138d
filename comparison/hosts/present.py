"""HostView -> plain JSON-ready data, with long strings (base64) shortened for display. Pure."""

from __future__ import annotations

from typing import Any

from . import checked_against
from .view import ABSENT, HostView

MAX_STRING = 160


def shorten(value: Any, limit: int = MAX_STRING) -> Any:
    """The value with every long string cut, saying how long it was (10 MB of base64 stays small)."""
    if isinstance(value, str):
        if len(value) <= limit:
            return value
        return f"{value[:limit]}… [{len(value):,} characters]"
    if isinstance(value, list):
        return [shorten(item, limit) for item in value]
    if isinstance(value, dict):
        return {key: shorten(item, limit) for key, item in value.items()}
    return value


def view_data(view: HostView, *, limit: int | None = MAX_STRING) -> dict[str, Any]:
    cut = (lambda v: shorten(v, limit)) if limit else (lambda v: v)
    data: dict[str, Any] = {
        "key": view.key,
        "host": view.host,
        "path": view.path,
        "label": view.label,
        "outcome": view.outcome,
        "error": cut(view.error),
        "parts": [
            {"text": cut(part.text)}
            if part.media is None
            else {"file": {"mime": part.media.mime, "bytes": part.media.bytes, "filename": part.media.filename}}
            for part in view.parts
        ],
        "attachments": [{"mime": m.mime, "bytes": m.bytes, "filename": m.filename} for m in view.attachments],
        "changes": [
            {
                "subject": c.subject,
                "action": c.action,
                "reason": c.reason,
                "source": c.rule.source,
                "rows": list(c.rule.rows),
            }
            for c in view.changes
        ],
        "notes": view.notes,
        "checked_against": checked_against(view.key),
    }
    if view.script_value is not ABSENT:
        data["script_value"] = cut(view.script_value)
    if view.output is not ABSENT:
        data["output"] = cut(view.output)
    if view.host_text is not None:
        data["host_text"] = cut(view.host_text)
        data["host_is_error"] = view.host_is_error
    return data
