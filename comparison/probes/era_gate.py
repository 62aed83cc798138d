"""An upstream pinned to some revisions: what a server that speaks only those answers to each
message a client sends, decided before the fixture's dual-era SDK sees it. Pure: JSON-RPC dicts
in, the message to pass on (maybe rewritten) or the answer to give instead out. No SDK, no Django.

The rules are the revisions' own (comparison/probes/era_rules.py cites them):
- `initialize` is answered with the version asked for when the server speaks it, else with the
  newest handshake version it speaks (lifecycle, "Version Negotiation"); a server that speaks only
  2026-07-28 refuses it with UnsupportedProtocolVersion naming what it speaks (versioning,
  "Backward Compatibility").
- A 2026-07-28 request (the `_meta` envelope, or `server/discover`) to a server that speaks no
  modern revision gets what a legacy server gives: Method not found for `server/discover`, an
  invalid request for anything else before `initialize`.
- A method newer than the session's revision is not found, as on a server that predates it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from registers.core.vocabulary import REVISIONS
from registers.core.vocabulary import Revision as R

HANDSHAKE = (R.V2024_11_05, R.V2025_03_26, R.V2025_06_18, R.V2025_11_25)
MODERN = (R.V2026_07_28,)
ENVELOPE_VERSION = "io.modelcontextprotocol/protocolVersion"
UNSUPPORTED_VERSION = -32022
METHOD_NOT_FOUND = -32601
INVALID_REQUEST = -32600
#: Server methods a revision added: a server pinned before it does not know them.
METHODS_FROM = {
    "server/discover": R.V2026_07_28,
    "subscriptions/listen": R.V2026_07_28,
}


class BadPin(ValueError):
    """A pin that names no revision, or one that is not a revision."""


@dataclass(frozen=True)
class Pin:
    """The revisions a pinned upstream speaks, oldest first."""

    revisions: tuple[str, ...]

    @property
    def handshake(self) -> tuple[str, ...]:
        return tuple(r for r in self.revisions if r in HANDSHAKE)

    @property
    def modern(self) -> tuple[str, ...]:
        return tuple(r for r in self.revisions if r in MODERN)

    @property
    def only_http_sse(self) -> bool:
        """Over HTTP, a server of 2024-11-05 alone serves the HTTP+SSE transport and nothing else."""
        return self.revisions == (R.V2024_11_05,)

    def counter_offer(self, requested: Any) -> str:
        """What `initialize` asking for `requested` is answered with (the server has a handshake era)."""
        return requested if requested in self.handshake else self.handshake[-1]

    def text(self) -> str:
        return ",".join(self.revisions)


def parse_pin(text: str | None) -> Pin | None:
    """ "2024-11-05" or "2025-06-18,2026-07-28" → a Pin; "", "all" or None → no pin (every revision)."""
    if text is None or text.strip().lower() in ("", "all"):
        return None
    named = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [part for part in named if part not in REVISIONS]
    if unknown:
        raise BadPin(f"not a revision: {', '.join(unknown)} (the revisions are {', '.join(REVISIONS)})")
    return Pin(tuple(r for r in REVISIONS if r in named))


def _error(message_id: Any, code: int, text: str, data: dict | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": text}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": message_id, "error": error}


def _enveloped(message: dict[str, Any]) -> bool:
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and ENVELOPE_VERSION in meta


class RevisionGate:
    """One connection's gate (a stdio process, or one HTTP request with its session's revision)."""

    def __init__(self, pin: Pin):
        self.pin = pin
        #: The handshake revision agreed on this connection, once `initialize` passed.
        self.session_revision = ""

    def inbound(self, message: Any) -> tuple[Any | None, dict[str, Any] | None]:
        """(the message to pass on, or None; the answer to send instead, or None)."""
        if not isinstance(message, dict) or not isinstance(message.get("method"), str):
            return message, None  # answers, batches, garbage: the SDK's to judge
        method, message_id = message["method"], message.get("id")
        is_request = "id" in message
        if method == "initialize" and is_request:
            return self._initialize(message)
        modern = method == "server/discover" or (_enveloped(message) and not self.session_revision)
        if modern and not self.pin.modern:
            if not is_request:
                return None, None
            if method == "server/discover" or method in METHODS_FROM:
                return None, _error(message_id, METHOD_NOT_FOUND, f"Method not found: {method}")
            return None, _error(message_id, INVALID_REQUEST, "Invalid request: the session is not initialized")
        if modern and self.pin.modern:
            return message, None
        at = self.session_revision
        first = METHODS_FROM.get(method)
        if is_request and at and first and REVISIONS.index(at) < REVISIONS.index(first):
            return None, _error(message_id, METHOD_NOT_FOUND, f"Method not found: {method}")
        return message, None

    def _initialize(self, message: dict[str, Any]) -> tuple[Any | None, dict[str, Any] | None]:
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        requested = params.get("protocolVersion")
        if not self.pin.handshake:
            supported = list(self.pin.revisions)
            return None, _error(
                message.get("id"),
                UNSUPPORTED_VERSION,
                f"Unsupported protocol version: this server speaks only {', '.join(supported)}, "
                "which has no initialize handshake",
                {"supported": supported, "requested": requested if isinstance(requested, str) else None},
            )
        agreed = self.pin.counter_offer(requested)
        self.session_revision = agreed
        return {**message, "params": {**params, "protocolVersion": agreed}}, None


def http_refusal(pin: Pin, method: str, headers: dict[str, str], message: Any) -> tuple[int, dict | None] | None:
    """What a Streamable HTTP server of the pin answers a POST with before any session logic, or
    None to go on: a legacy-only server refuses a modern request with 400 (no session); one that
    speaks no handshake revision refuses `initialize` (versioning, "Compatibility Matrix")."""
    if method != "POST" or not isinstance(message, dict):
        return None
    message_id = message.get("id")
    header_version = headers.get("mcp-protocol-version", "")
    has_session = bool(headers.get("mcp-session-id"))
    if message.get("method") == "initialize":
        if not pin.handshake:
            _, answer = RevisionGate(pin)._initialize(message)
            return 400, answer
        return None
    if not pin.modern and not has_session:
        return 400, _error(message_id, INVALID_REQUEST, "Bad Request: No valid session ID provided")
    if has_session and header_version and header_version not in pin.revisions:
        return 400, _error(message_id, INVALID_REQUEST, f"Bad Request: Unsupported protocol version: {header_version}")
    return None
