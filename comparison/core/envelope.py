"""The `mcp-error/1` envelope: a failure's typed next step, found as an object or as JSON written
inside a text. Pure, no Django."""

from __future__ import annotations

import json
from typing import Any

ENVELOPE_SCHEMA = "mcp-error/1"
#: Envelopes are looked for in the first 256 KiB of a text (a multi-megabyte answer costs the same
#: as a short one), and in at most this many objects that start at a `{`.
MAX_ENVELOPE_SCAN = 256 * 1024
MAX_ENVELOPE_ATTEMPTS = 200
_DECODER = json.JSONDecoder()


def find_envelope(*values: Any) -> dict[str, Any] | None:
    """An `mcp-error/1` envelope given as an object, or as JSON text, anywhere in `values`."""
    for value in values:
        if isinstance(value, str):
            value = value[:MAX_ENVELOPE_SCAN]
        if isinstance(value, dict):
            candidate = value.get("error") if "error" in value else value
            if isinstance(candidate, dict) and candidate.get("schema") == ENVELOPE_SCHEMA:
                return candidate
        if isinstance(value, str) and ENVELOPE_SCHEMA in value:
            found = _envelope_in_text(value)
            if found:
                return found
    return None


def _envelope_in_text(text: str) -> dict[str, Any] | None:
    """The first envelope written as JSON inside prose: tries the objects that start at each `{`."""
    start = text.find("{")
    for _ in range(MAX_ENVELOPE_ATTEMPTS):
        if start == -1:
            return None
        try:
            parsed, _ = _DECODER.raw_decode(text, start)
        except (ValueError, RecursionError):
            start = text.find("{", start + 1)
            continue
        if isinstance(parsed, dict):
            candidate = parsed.get("error") if "error" in parsed else parsed
            if isinstance(candidate, dict) and candidate.get("schema") == ENVELOPE_SCHEMA:
                return candidate
        start = text.find("{", start + 1)
    return None
