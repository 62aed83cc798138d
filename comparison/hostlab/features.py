"""Each part of what the upstream sent, set against what reached the model: one chip per feature.

Chips: kept (it reached the model as itself), changed (it reached, but in another form: wrapped,
as text, as JSON), dropped (nothing of it reached), not measured (no run, or the run never got the
tool's result to the model). A failure's flag is "kept" only when the model gets a machine-readable
failure marker, "changed" when only words say so, "dropped" when the result looks like a success.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

KEPT, CHANGED, DROPPED, NOT_SUPPORTED, NOT_MEASURED = "kept", "changed", "dropped", "not supported", "not measured"
CHIPS = (KEPT, CHANGED, DROPPED, NOT_SUPPORTED, NOT_MEASURED)
#: The features of the hosts matrix, in column order, with their titles.
FEATURES: dict[str, str] = {
    "text": "text block",
    "image": "image block",
    "audio": "audio block",
    "resource-text": "embedded text resource",
    "resource-blob": "embedded blob resource",
    "resource-link": "resource_link",
    "structured": "structuredContent alone",
    "structured-beside": "structuredContent beside text",
    "annotations": "annotations",
    "unknown-type": "unknown block type",
    "error-flag": "isError: true",
    "rpc-error": "JSON-RPC error",
}
FAILURE_WORDS = re.compile(r"\b(error|failed|failure)\b", re.IGNORECASE)
#: Words of a host (or its SDK) refusing a result it will not accept.
REFUSAL_WORDS = re.compile(r"\b(error|failed|failure|invalid|invalid_union|invalid_type)\b", re.IGNORECASE)


def _size(data: str) -> int:
    try:
        return len(base64.b64decode(data, validate=False))
    except (binascii.Error, ValueError):
        return -1


def _cell(feature: str, chip: str, detail: str) -> dict[str, str]:
    return {"feature": feature, "chip": chip, "detail": detail}


def _text_cell(feature: str, text: str, reached: dict[str, Any]) -> dict[str, str]:
    texts = [part["text"] for part in reached["parts"] if part["kind"] == "text"]
    if text in texts:
        return _cell(feature, KEPT, "as its own text part")
    if any(text in t for t in texts):
        return _cell(feature, CHANGED, "inside a longer text")
    if any(json.dumps(text)[1:-1] in t for t in texts):
        return _cell(feature, CHANGED, "escaped inside JSON text")
    sent = _json_value(text)
    if sent is not None and any(found == sent for t in texts for found in json_values_in(t)):
        # A host that parses a JSON text and writes it out again (Copilot CLI) keeps its value.
        return _cell(feature, CHANGED, "its JSON value, written out again")
    return _cell(feature, DROPPED, "the text is not in anything the model got")


def _json_value(text: str) -> Any:
    """The JSON object or array a text is, whole; None when it is anything else."""
    if not text.lstrip().startswith(("{", "[")):
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _media_cell(feature: str, mime: str, data: str, reached: dict[str, Any], used: set[int]) -> dict[str, str]:
    """Media parts are matched once each: in a result with an image and a blob of the same image,
    each block needs its own part to count as kept."""
    size = _size(data)
    kind = mime.split("/")[0]
    media = [(i, part) for i, part in enumerate(reached["parts"]) if part["kind"] != "text" and i not in used]
    for index, part in media:
        if part.get("mime") == mime and part.get("bytes") == size:
            used.add(index)
            return _cell(feature, KEPT, f"as {mime} media ({part.get('via', '')})")
    alike = [(i, part) for i, part in media if str(part.get("mime", "")).split("/")[0] == kind]
    if alike:
        used.add(alike[0][0])
        part = alike[0][1]
        return _cell(feature, CHANGED, f"as other media: {part.get('mime')}, {part.get('bytes')} bytes")
    if data and data in reached["text"]:
        return _cell(feature, CHANGED, "as base64 inside text")
    if mime and mime in reached["text"]:
        return _cell(feature, DROPPED, f"only a placeholder naming {mime}")
    if kind and re.search(rf"\b{re.escape(kind)}\b", reached["text"], re.IGNORECASE):
        return _cell(feature, DROPPED, f"only a placeholder naming the {kind}")
    return _cell(feature, DROPPED, "nothing of it reached the model")


def _block_cells(block: dict[str, Any], reached: dict[str, Any], used: set[int]) -> list[dict[str, str]]:
    kind = block.get("type")
    cells = []
    if kind == "text":
        cells.append(_text_cell("text", block.get("text", ""), reached))
        if block.get("annotations"):
            shown = any(word in reached["text"] for word in ("audience", "priority"))
            cells.append(_cell("annotations", CHANGED if shown else DROPPED, "named in text" if shown else "not shown"))
    elif kind in ("image", "audio"):
        cells.append(_media_cell(kind, block.get("mimeType", ""), block.get("data", ""), reached, used))
    elif kind == "resource":
        resource = block.get("resource") or {}
        if "text" in resource:
            cells.append(_text_cell("resource-text", resource.get("text", ""), reached))
        else:
            cells.append(
                _media_cell("resource-blob", resource.get("mimeType", ""), resource.get("blob", ""), reached, used)
            )
    elif kind == "resource_link":
        uri = block.get("uri", "")
        chip = CHANGED if uri and uri in reached["text"] else DROPPED
        cells.append(
            _cell("resource-link", chip, "its URI in text" if chip == CHANGED else "the URI never reached the model")
        )
    else:
        data = block.get("data", "")
        chip = CHANGED if (data and data in reached["text"]) or str(kind) in reached["text"] else DROPPED
        cells.append(_cell("unknown-type", chip, "named or copied into text" if chip == CHANGED else "left out"))
    return cells


def _structured_cell(value: Any, reached: dict[str, Any]) -> dict[str, str]:
    for part in reached["parts"]:
        if part["kind"] != "text":
            continue
        try:
            parsed = json.loads(part["text"])
        except ValueError:
            parsed = None
        if parsed == value:
            return _cell("structured", KEPT, "as JSON text equal to it")
        if isinstance(parsed, dict) and parsed.get("structuredContent") == value:
            return _cell("structured", CHANGED, "inside the whole result as JSON")
    if any(found == value for found in json_values_in(reached["text"])):
        return _cell("structured", CHANGED, "inside a longer text")
    return _cell("structured", DROPPED, "not in anything the model got")


#: How many JSON values a text is searched for at most (a long capture stays cheap to read).
MAX_JSON_STARTS = 2000


def json_values_in(text: str) -> list[Any]:
    """Every JSON object or array that a text holds, parsed where it starts: a value is found by
    what it is, however the host spaced, indented or escaped around it."""
    decoder = json.JSONDecoder()
    found = []
    starts = [index for index, char in enumerate(text) if char in "{["][:MAX_JSON_STARTS]
    for start in starts:
        try:
            value, _ = decoder.raw_decode(text, start)
        except ValueError:
            continue
        found.append(value)
    return found


#: The flag itself, shown in what the model reads (a host passing the result on as JSON text).
FLAG_IN_TEXT = re.compile(r"""["']?isError["']?\s*[:=]\s*true\b""")


def _failure_cell(feature: str, sent_words: str, reached: dict[str, Any]) -> dict[str, str]:
    if reached["error_flag"] is True:
        return _cell(feature, KEPT, "a machine-readable failure flag")
    if feature == "error-flag" and FLAG_IN_TEXT.search(reached["text"]):
        return _cell(feature, CHANGED, "the flag shown in the text, not as the dialect's own failure flag")
    said = FAILURE_WORDS.findall(reached["text"] + " " + " ".join(reached["glue"]))
    own = FAILURE_WORDS.findall(sent_words)
    if len(said) > len(own):
        return _cell(feature, CHANGED, "said in words only, no flag")
    return _cell(feature, DROPPED, "nothing tells the model it failed: it reads like a success")


NEVER_CALLED = "the host never called the tool"


def judge(
    reply: dict[str, Any] | None, reached: dict[str, Any], not_called: str = NEVER_CALLED
) -> list[dict[str, str]]:
    """The chips of one run: `reply` is the upstream's JSON-RPC reply to the host's `tools/call`;
    `not_called` says why there is none (see `not_called_reason`)."""
    if reply is None:
        return [_cell("call", NOT_MEASURED, not_called)]
    if not reached["reached"]:
        return [_cell("call", NOT_MEASURED, "no tool result reached the model")]
    if isinstance(reply.get("error"), dict):
        error = reply["error"]
        cells = [_failure_cell("rpc-error", str(error.get("message", "")), reached)]
        message = str(error.get("message", ""))
        cells.append(
            _text_cell("rpc-error-message", message, reached) if message else _cell("rpc-error-message", DROPPED, "")
        )
        return cells
    result = reply.get("result") if isinstance(reply.get("result"), dict) else {}
    sent_words = " ".join(b.get("text", "") for b in result.get("content") or [] if isinstance(b, dict))
    cells: list[dict[str, str]] = []
    used: set[int] = set()
    for block in result.get("content") or []:
        if isinstance(block, dict):
            cells += _block_cells(block, reached, used)
    if "structuredContent" in result:
        # Beside text, a host may pass the text and leave the value out: a feature of its own.
        beside = any(isinstance(b, dict) and b.get("type") == "text" for b in result.get("content") or [])
        cell = _structured_cell(result["structuredContent"], reached)
        cells.append({**cell, "feature": "structured-beside"} if beside else cell)
    if result.get("isError"):
        cells.append(_failure_cell("error-flag", sent_words, reached))
    elif _refused(sent_words, reached):
        first = next((line for line in reached["text"].splitlines() if REFUSAL_WORDS.search(line)), "")
        detail = f"the host refused the result: {first.strip()[:200]}"
        cells = [_cell(cell["feature"], NOT_SUPPORTED, detail) for cell in cells]
    return cells


def _refused(sent_words: str, reached: dict[str, Any]) -> bool:
    """A success the host turned into a failure (a result its SDK would not accept)."""
    if reached["error_flag"] is True:
        return True
    return len(REFUSAL_WORDS.findall(reached["text"])) > len(REFUSAL_WORDS.findall(sent_words))


def not_called_reason(lines: list[dict[str, Any]], tool: str) -> str:
    """Why a run has no reply to a call of `tool`, from the recorder's lines: the host never
    started the server, the server never answered `initialize`, it lists no such tool, or the host
    had the tool and never called it."""
    sent: dict[str, str] = {}
    answered: set[str] = set()
    listed: list[set[str]] = []
    for direction, message in _messages(lines):
        if direction == "host->up" and isinstance(message.get("method"), str) and "id" in message:
            sent[json.dumps(message["id"])] = message["method"]
        elif direction == "up->host" and "id" in message and "method" not in message:
            answered.add(json.dumps(message["id"]))
            tools = (message.get("result") or {}).get("tools") if isinstance(message.get("result"), dict) else None
            if isinstance(tools, list):
                listed.append({str(t.get("name")) for t in tools if isinstance(t, dict)})
    opened = [key for key, method in sent.items() if method in ("initialize", "server/discover")]
    if not lines or not sent:
        return "the host never started the server (nothing reached it)"
    if opened and not any(key in answered for key in opened):
        return "the server never answered initialize"
    if listed and not any(tool in names for names in listed):
        return f"no such tool: the server lists no tool named {tool!r}"
    return NEVER_CALLED


def call_reply(lines: list[dict[str, Any]], tool: str) -> dict[str, Any] | None:
    """The upstream's reply to the host's first `tools/call` of `tool`, from the recorder's lines."""
    sent, replies = {}, {}
    for direction, message in _messages(lines):
        if direction == "host->up" and message.get("method") == "tools/call":
            if (message.get("params") or {}).get("name") == tool:
                sent.setdefault("id", message.get("id"))
        elif direction == "up->host" and "method" not in message and "id" in message:
            replies.setdefault(json.dumps(message["id"]), message)
    if "id" not in sent:
        return None
    return replies.get(json.dumps(sent["id"]))


def _messages(lines: list[dict[str, Any]]):
    """(direction, JSON-RPC object) of each recorder line that holds one, in order."""
    for line in lines:
        try:
            message = json.loads(line.get("line", ""))
        except ValueError:
            continue
        if isinstance(message, dict):
            yield line.get("dir"), message
