"""A played scenario's messages as the result page shows them: one line per message in the order
the probe saw it, who sent it to whom, on which channel, what kind of message it is; and what the
upstream reported having sent and received. Pure, no Django; works on stored exchanges (dicts)."""

from __future__ import annotations

import json
from typing import Any

from comparison.probes.families.playing import report_in

CHANNELS = {
    "request": "the call's own stream",
    "get": "the session's GET stream",
    "reply": "the probe's answer",
    "later": "sent mid-call",
    "late": "after the probe gave up waiting",
    "stray": "an answer to no request of this call",
}
MAX_LINES = 200


def _kind(message: dict[str, Any]) -> str:
    if "method" in message:
        return "request" if "id" in message else "notification"
    if "error" in message:
        return "error"
    return "answer" if "result" in message else "message"


def _summary(message: dict[str, Any]) -> str:
    params = message.get("params")
    if isinstance(params, dict):
        shown = {k: v for k, v in params.items() if k != "_meta"}
        meta = params.get("_meta")
        if isinstance(meta, dict):
            shown["_meta"] = sorted(k for k in meta if not k.startswith("io.modelcontextprotocol/"))
        return json.dumps(shown, ensure_ascii=False)[:160]
    if "params" in message:
        return f"params: {json.dumps(params, ensure_ascii=False)[:120]} (not an object)"
    if isinstance(message.get("error"), dict):
        return f"{message['error'].get('code')}: {str(message['error'].get('message', ''))[:140]}"
    result = message.get("result")
    if isinstance(result, dict):
        return ", ".join(sorted(result))[:160] or "{}"
    return ""


def lines(exchanges: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every message of every exchange of a cell, in order (the opening handshake included)."""
    found: list[dict[str, Any]] = []
    for exchange in exchanges if isinstance(exchanges, list) else []:
        steps = exchange.get("sequence") if isinstance(exchange, dict) else None
        for step in steps if isinstance(steps, list) else []:
            message = step.get("message") if isinstance(step, dict) else None
            if not isinstance(message, dict) or len(found) >= MAX_LINES:
                continue
            sent = step.get("direction") == "sent"
            found.append(
                {
                    "n": len(found) + 1,
                    "who": "probe → target" if sent else "target → probe",
                    "sent": sent,
                    "channel": CHANNELS.get(step.get("channel"), str(step.get("channel", ""))),
                    "kind": _kind(message),
                    "method": str(message.get("method", ""))[:80],
                    "id": message.get("id", ""),
                    "summary": _summary(message),
                    "not_sent": str(message.get("not sent", "")),
                }
            )
    return found


def upstream_report(exchanges: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What the fixture upstream reported, from the last answer that carries its report."""
    for exchange in reversed(exchanges if isinstance(exchanges, list) else []):
        report = report_in(exchange.get("response") if isinstance(exchange, dict) else None)
        if report is not None:
            return report
    return None
