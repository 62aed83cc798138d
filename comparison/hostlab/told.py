"""What a host told its upstream, read from the recorder's lines: the first request, the protocol
version it asked for, its capabilities and clientInfo (in `initialize`, or in the `_meta` envelope
of 2026-07-28 requests), and what it did with the protocol's other directions."""

from __future__ import annotations

import json
from typing import Any

ENVELOPE = "io.modelcontextprotocol/"
LISTS = ("tools/list", "prompts/list", "resources/list", "resources/templates/list")


def _messages(lines: list[dict[str, Any]], direction: str) -> list[dict[str, Any]]:
    found = []
    for line in lines:
        if line.get("dir") != direction:
            continue
        try:
            message = json.loads(line.get("line", ""))
        except ValueError:
            continue
        if isinstance(message, dict):
            found.append(message)
    return found


def _params(message: dict[str, Any]) -> dict[str, Any]:
    params = message.get("params")
    return params if isinstance(params, dict) else {}


def _envelope(message: dict[str, Any]) -> dict[str, Any]:
    meta = _params(message).get("_meta")
    if not isinstance(meta, dict):
        return {}
    return {key.removeprefix(ENVELOPE): value for key, value in meta.items() if key.startswith(ENVELOPE)}


def _pagination(requests: list[dict[str, Any]], replies: dict[Any, dict[str, Any]]) -> dict[str, str]:
    """Per list method: followed every cursor, stopped at the first page, or never asked."""
    found = {}
    for method in LISTS:
        asked = [m for m in requests if m.get("method") == method]
        if not asked:
            continue
        offered = [
            replies.get(m.get("id"), {}).get("result", {}).get("nextCursor")
            for m in asked
            if isinstance(replies.get(m.get("id"), {}).get("result"), dict)
        ]
        cursors = {_params(m).get("cursor") for m in asked} - {None}
        missed = [cursor for cursor in offered if cursor and cursor not in cursors]
        found[method] = (
            "followed every cursor" if not missed else f"stopped after {len(asked)} page(s), a nextCursor unfollowed"
        )
    return found


def told(lines: list[dict[str, Any]]) -> dict[str, Any]:
    sent = _messages(lines, "host->up")
    replies = {m.get("id"): m for m in _messages(lines, "up->host") if "id" in m and "method" not in m}
    requests = [m for m in sent if "method" in m and "id" in m]
    notifications = [m.get("method") for m in sent if "method" in m and "id" not in m]
    first = requests[0] if requests else {}
    init = next((m for m in requests if m.get("method") == "initialize"), None)
    envelope = next((_envelope(m) for m in requests if _envelope(m)), {})
    if init is not None and not envelope:
        params = _params(init)
        version, capabilities, client = (
            params.get("protocolVersion"),
            params.get("capabilities"),
            params.get("clientInfo"),
        )
    else:
        version = envelope.get("protocolVersion")
        capabilities, client = envelope.get("clientCapabilities"), envelope.get("clientInfo")
    calls = [m for m in requests if m.get("method") == "tools/call"]
    call_meta = sorted({key for m in calls for key in (_params(m).get("_meta") or {}) if isinstance(key, str)})
    methods: list[str] = []
    for message in requests:
        if message.get("method") not in methods:
            methods.append(message.get("method"))
    return {
        "first_request": first.get("method"),
        "protocol_version": version,
        "fell_back_to_initialize": bool(envelope) and init is not None,
        "capabilities": capabilities if isinstance(capabilities, dict) else {},
        "client_info": client if isinstance(client, dict) else {},
        "methods": methods,
        "notifications": sorted(set(notifications)),
        "call_meta": call_meta,
        "progress_token": any("progressToken" in (_params(m).get("_meta") or {}) for m in calls),
        "pagination": _pagination(requests, replies),
        "called": [_params(m).get("name") for m in calls],
    }
