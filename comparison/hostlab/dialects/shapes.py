"""The one shape every dialect reads a request into (`Turn`, its `ToolOutput`s) and the answer it
writes (`Reply`), with the SSE and JSON encoders the dialects share."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ToolOutput:
    """One tool result as the host handed it to the model, in the dialect's own form."""

    name: str  # the tool name the model called (as offered), "" when the dialect does not say
    call_id: str
    raw: Any  # the dialect's own value: a string, a list of parts, an object
    error_flag: bool | None  # the dialect's own "this failed" field, None when it has none
    siblings: tuple[Any, ...] = ()  # parts the host put beside the result (images in a later message)


@dataclass(frozen=True)
class Turn:
    offered: tuple[str, ...]  # every tool name the model is offered, namespaces flattened
    user_text: str  # every user text, joined: the prompt names the case
    outputs: tuple[ToolOutput, ...] = ()
    streamed: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Reply:
    status: int
    content_type: str
    body: bytes


def sse(events: list[tuple[str | None, Any]], done: bool = False) -> bytes:
    lines = []
    for name, data in events:
        if name:
            lines.append(f"event: {name}")
        lines.append(f"data: {data if isinstance(data, str) else _json(data)}")
        lines.append("")
    if done:
        lines += ["data: [DONE]", ""]
    return ("\n".join(lines) + "\n").encode()


def json_reply(value: Any, status: int = 200) -> Reply:
    return Reply(status, "application/json", _json(value).encode())


def _json(value: Any) -> str:
    return json.dumps(value)
