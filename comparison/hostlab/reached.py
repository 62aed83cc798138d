"""What reached the model, read from a run's capture into one form for every host: an ordered list
of parts (text, image, audio, resource, file) and the error flag the dialect carries, if any.

Host glue (a sentence a host adds before the media it attaches) is kept apart from the tool's own
parts, so a comparison with what the upstream sent is not thrown by it.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

MEDIA_KINDS = {"image": "image", "audio": "audio"}


def _size(data: str) -> int:
    try:
        return len(base64.b64decode(data, validate=False))
    except (binascii.Error, ValueError):
        return -1


def _media(mime: str, data: str, via: str) -> dict[str, Any]:
    kind = MEDIA_KINDS.get(mime.split("/")[0], "file")
    return {"kind": kind, "mime": mime, "bytes": _size(data), "via": via}


def _data_url(url: str, via: str) -> dict[str, Any]:
    header, _, data = url.partition(",")
    return _media(header.removeprefix("data:").split(";")[0], data, via)


def _text(text: Any) -> dict[str, Any]:
    return {"kind": "text", "text": text if isinstance(text, str) else json.dumps(text)}


def _chat_part(part: Any) -> dict[str, Any] | None:
    if isinstance(part, str):
        return _text(part)
    if not isinstance(part, dict):
        return None
    kind = part.get("type")
    if kind in ("text", "input_text", "output_text"):
        return _text(part.get("text", ""))
    if kind == "image_url":
        return _data_url((part.get("image_url") or {}).get("url", ""), "image_url")
    if kind == "input_image":
        return _data_url(part.get("image_url", ""), "input_image")
    if kind == "input_audio":
        audio = part.get("input_audio") or {}
        return _media(f"audio/{audio.get('format', '')}", audio.get("data", ""), "input_audio")
    if kind == "file":
        return _data_url((part.get("file") or {}).get("file_data", ""), "file")
    if kind == "input_file":
        return _data_url(part.get("file_data", ""), "input_file")
    if kind in ("image", "document") and isinstance(part.get("source"), dict):
        source = part["source"]
        if source.get("type") == "base64":
            return _media(source.get("media_type", ""), source.get("data", ""), kind)
        return _text(source.get("data", source.get("text", "")))
    if "inlineData" in part:
        inline = part["inlineData"] or {}
        return _media(inline.get("mimeType", ""), inline.get("data", ""), "inlineData")
    if isinstance(part.get("text"), str):
        return _text(part["text"])
    return {"kind": "other", "type": str(kind), "raw": json.dumps(part)[:2000]}


def _parts(value: Any) -> list[dict[str, Any]]:
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    return [part for part in (_chat_part(item) for item in items) if part is not None]


def _gemini(raw: dict[str, Any]) -> tuple[list[dict[str, Any]], bool | None]:
    response = raw.get("response") if isinstance(raw.get("response"), dict) else {}
    parts: list[dict[str, Any]] = []
    if "output" in response:
        parts.append(_text(response["output"]))
    if "error" in response:
        parts.append(_text(response["error"]))
    parts += _parts(raw.get("parts"))
    return parts, True if "error" in response else None


def _siblings(siblings: list[Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """Media beside the result are parts; text beside it is the host's glue."""
    media, glue = [], []
    for sibling in siblings:
        for part in _parts(sibling):
            if part["kind"] == "text":
                glue.append(part["text"])
            else:
                media.append(part)
    return media, glue


def reached(capture: dict[str, Any] | None, called_as: str = "") -> dict[str, Any]:
    """{"reached": bool, "parts", "error_flag", "glue", "text"} from a run's capture."""
    if not capture:
        return {"reached": False, "parts": [], "error_flag": None, "glue": [], "text": ""}
    if "driver" in capture:
        driver = capture["driver"]
        parts = _parts(driver.get("content")) or [_text(driver.get("text", ""))]
        return _done(parts, bool(driver.get("isError")), [])
    outputs = capture.get("outputs") or []
    output = next((o for o in reversed(outputs) if o.get("call_id") == "call_target"), None)
    if output is None:
        output = next((o for o in reversed(outputs) if called_as and o.get("name") == called_as), None)
    if output is None:
        return {"reached": False, "parts": [], "error_flag": None, "glue": [], "text": ""}
    raw = output.get("raw")
    if isinstance(raw, dict) and "response" in raw:
        parts, flag = _gemini(raw)
    else:
        parts, flag = _parts(raw), output.get("error_flag")
    media, glue = _siblings(output.get("siblings") or [])
    return _done(parts + media, flag, glue)


def _done(parts: list[dict[str, Any]], flag: bool | None, glue: list[str]) -> dict[str, Any]:
    text = "\n".join(part["text"] for part in parts if part["kind"] == "text")
    return {"reached": True, "parts": parts, "error_flag": flag, "glue": glue, "text": text}
