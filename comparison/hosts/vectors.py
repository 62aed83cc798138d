"""The normalised form of `vectors.json` (one expectation per host path) and the comparison.

The form, per host path key:
  opencode-v1            {model_text, attachments, error}
  opencode-*-codemode    {script_value, throws, attachments}
  opencode-v2            {model_parts, output, error}
  lootbox                {script_value, throws}
  cloudflare             {script_value, throws, host_text, host_is_error}
`error` / `throws` are null or {exact: text} | {match: substring, also: substring};
`host_text` is a string or {startswith: prefix}; attachments are [{mime, bytes, filename?}].
"""

from __future__ import annotations

from typing import Any

from comparison.hosts.view import ABSENT, FAILED, HostView, Media


def _media(media: Media) -> dict:
    item: dict[str, Any] = {"mime": media.mime, "bytes": media.bytes}
    if media.filename is not None:
        item["filename"] = media.filename
    return item


def _value(value: Any) -> Any:
    return None if value is ABSENT else value


def normal_form(key: str, view: HostView) -> dict:
    failed = view.outcome == FAILED
    if key == "opencode-v1":
        return {
            "model_text": None if failed else view.parts[0].text if view.parts else "",
            "attachments": [] if failed else [_media(m) for m in view.attachments],
            "error": view.error,
        }
    if key == "opencode-v2":
        return {
            "model_parts": None
            if failed
            else [
                {"text": p.text} if p.media is None else {"file": {"mime": p.media.mime, "bytes": p.media.bytes}}
                for p in view.parts
            ],
            "output": None if failed else _value(view.output),
            "error": view.error,
        }
    if key.endswith("-codemode"):
        return {
            "script_value": None if failed else _value(view.script_value),
            "throws": view.error,
            "attachments": []
            if failed
            else [
                {"mime": m.mime, "bytes": m.bytes} if key.startswith("opencode-v2") else _media(m)
                for m in view.attachments
            ],
        }
    if key == "lootbox":
        return {"script_value": None if failed else _value(view.script_value), "throws": view.error}
    if key == "cloudflare":
        return {
            "script_value": None if failed else _value(view.script_value),
            "throws": view.error,
            "host_text": view.host_text,
            "host_is_error": view.host_is_error,
        }
    return {"text": view.text(), "error": view.error}


def _matches(expected: Any, actual: Any) -> bool:
    if isinstance(expected, dict) and set(expected) <= {"exact", "match", "also"} and expected:
        if not isinstance(actual, str):
            return False
        if "exact" in expected:
            return actual == expected["exact"]
        return expected["match"] in actual and expected.get("also", "") in actual
    if isinstance(expected, dict) and set(expected) == {"startswith"}:
        return isinstance(actual, str) and actual.startswith(expected["startswith"])
    return expected == actual


def differences(expected: dict, actual: dict) -> list[str]:
    """Fields where the model's normal form disagrees with the expectation ('unwrap_only' is
    informational and skipped)."""
    found = []
    for field, want in expected.items():
        if field == "unwrap_only":
            continue
        got = actual.get(field)
        if not _matches(want, got):
            found.append(f"{field}: expected {want!r}, got {got!r}")
    return found
