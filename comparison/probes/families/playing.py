"""What the families that play more than one message share: a call's exchange turned into a
Played, the fixture's report read out of a result, the messages of one kind that reached the
probe. Pure, no Django."""

from __future__ import annotations

import json
from typing import Any

from comparison.hosts import change_kinds
from comparison.probes.families.base import Finding, Played, Step
from comparison.probes.transport.exchange import Call
from language.vocabulary import ProbeVerdict

#: The text block of a fixture report starts with this, so a report is never mistaken for content.
REPORT_MARK = "mcp-compare fixture report"


def report(reported: dict[str, Any]) -> dict[str, Any]:
    """A fixture tool's result that tells the probe what the upstream sent and received."""
    return {"content": [{"type": "text", "text": json.dumps({REPORT_MARK: reported})}]}


def report_of(exchange: Any) -> dict[str, Any] | None:
    """The fixture's report in an exchange's answer, or None (an error, another shape, a proxy's rewrite)."""
    return report_in(exchange.response if exchange is not None else None)


def report_in(response: Any) -> dict[str, Any] | None:
    """The fixture's report in a JSON-RPC answer of any shape (a stored one too), or None."""
    result = response.get("result") if isinstance(response, dict) else None
    if not isinstance(result, dict) or not isinstance(result.get("content"), list):
        return None
    for block in result["content"]:
        if isinstance(block, dict) and block.get("type") == "text" and REPORT_MARK in str(block.get("text", ""))[:64]:
            try:
                value = json.loads(block["text"]).get(REPORT_MARK)
            except (ValueError, AttributeError):
                return None
            return value if isinstance(value, dict) else None
    return None


def all_reported(method: str) -> Any:
    """A `Call.until` for a fixture tool that reports what it `sent`: done once as many messages of
    `method` have arrived as the report says (a count, a list of them, or one named)."""

    def arrived_all(response: dict[str, Any] | None, messages: list[dict[str, Any]]) -> bool:
        reported = report_in(response)
        if reported is None:
            return False
        sent = reported.get("sent")
        wanted = sent if isinstance(sent, int) else len(sent) if isinstance(sent, list) else int(bool(sent))
        return sum(1 for m in messages if m.get("method") == method) >= wanted

    return arrived_all


def error_of(exchange: Any) -> str:
    """A JSON-RPC error answer or an isError result, in one line; "" when the call succeeded."""
    response = exchange.response or {} if exchange is not None else {}
    if isinstance(response.get("error"), dict):
        error = response["error"]
        return f"JSON-RPC error {error.get('code')}: {str(error.get('message', ''))[:200]}"
    result = response.get("result")
    if isinstance(result, dict) and result.get("isError") is True:
        texts = [str(b.get("text", "")) for b in result.get("content") or [] if isinstance(b, dict)]
        return "isError: " + " ".join(texts)[:200]
    return ""


def no_report(what: str, played: Played) -> list[Finding]:
    """The finding when the upstream's report did not come back. The fixture reports every call it
    gets, so an error in its place is the proxy's refusal; no call made leaves nothing to judge."""
    last = played.exchanges[-1] if played.exchanges else None
    if last is None:
        return [Finding(ProbeVerdict.NOT_TESTABLE, what, "no report from the upstream: no call was made")]
    refused = error_of(last)
    if refused:
        return [Finding(ProbeVerdict.REFUSED, what, f"the call was refused where the upstream answers it: {refused}")]
    return [Finding(ProbeVerdict.NOT_TESTABLE, what, "no report from the upstream: another answer")]


def add(played: Played, exchange: Any) -> Any:
    """Keep an exchange and its messages on the Played, and note a failure of the target."""
    played.exchanges.append(exchange)
    played.steps += [Step(s["direction"], s["message"], s["channel"]) for s in exchange.sequence]
    if exchange.failure and not played.failure:
        played.failure = exchange.failure
    return exchange


def tool_call(
    client: Any, tool: str, arguments: dict[str, Any], meta: dict[str, Any] | None = None, call: Call | None = None
) -> Any:
    params: dict[str, Any] = {"name": tool, "arguments": arguments}
    if meta:
        params["_meta"] = meta
    return client.request("tools/call", params, call)


def second_client(client: Any) -> Any:
    """A client of its own on the same target (a second connection and session over HTTP), to
    act as another caller or to end a session without ending the probe's."""
    transport = client.transport
    return type(client)(type(transport)(transport.url, headers=transport.base_headers, limits=transport.limits))


def received(played: Played, method: str) -> list[dict[str, Any]]:
    """The messages of `method` that reached the probe, on any channel, in order."""
    return [
        step.message
        for step in played.steps
        if step.direction == "received" and isinstance(step.message, dict) and step.message.get("method") == method
    ]


def moved_to_get_stream(played: Played, method: str) -> list[Finding]:
    """The finding when messages of a call (`method`) came on the session's GET stream instead of
    the call's own: only a host that opens no GET stream loses them (change_kinds)."""
    moved = [s for s in played.steps if s.channel == "get" and s.message.get("method") == method]
    if not moved:
        return []
    arrived = len(received(played, method))
    return [
        Finding(
            ProbeVerdict.CHANGED,
            method,
            f"{len(moved)} of {arrived} came on the GET stream, not on the call's own stream",
            change_kinds.MOVED_TO_GET_STREAM,
        )
    ]


def answered_first(played: Played, method: str) -> bool:
    """Whether a call's answer reached the probe before every message of `method` did."""
    seen_answer = False
    for step in played.steps:
        message = step.message if isinstance(step.message, dict) else {}
        if step.direction != "received":
            continue
        if "result" in message or "error" in message:
            seen_answer = True
        elif message.get("method") == method and seen_answer:
            return True
    return False
