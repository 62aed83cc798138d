"""Cancellation: a slow tool; the probe cancels it mid-call with `notifications/cancelled` for its
own request id. A proxy must pass the cancel on with the id *the upstream* knows the call by (it
may have given the call another id). The fixture records, in its journal, the call it started and
every cancel it received; a second call reads the journal back. Every revision has it."""

from __future__ import annotations

import time
from typing import Any

from comparison.probes.families.base import Family, Finding, Played, Scenario, Tool, Upstream
from comparison.probes.families.playing import add, error_of, report, report_of, tool_call
from comparison.probes.transport.exchange import Call
from language.vocabulary import ProbeVerdict as V
from language.vocabulary import Revision

NAME = "cancellation"
TOOL = "slow"
JOURNAL_TOOL = "journal"
CANCEL_AFTER = 0.15
#: How long the probe waits for an answer after sending the call (a cancelled call gets none).
WAIT = 0.8
#: How long the slow tool runs when nothing cancels it.
RUNS_FOR = 1.5
REASON = "mcp-compare probe "
#: From 2026-07-28 an HTTP client cancels by closing the response stream (no notification).
CLOSE_STREAM_FROM = Revision.V2026_07_28
#: How long the upstream gets to notice a closed stream before its journal is read.
SETTLE = 0.3

#: {request id: journal key} of the calls this fixture process started (a cancel names the id only).
STARTED: dict[str, str] = {}


async def _slow(up: Upstream, arguments: dict[str, Any]) -> dict[str, Any]:
    key = str(arguments.get("key", ""))
    STARTED[str(up.request_id)] = key
    up.record(key, {"event": "started", "request_id": up.request_id, "session": up.session_id})
    finished = False
    try:
        await up.sleep(min(float(arguments.get("seconds", RUNS_FOR)), 5.0))
        finished = True
        return report({"finished": True})
    finally:
        up.record(key, {"event": "finished" if finished else "stopped", "request_id": up.request_id})


def cancel_received(up: Upstream, params: dict[str, Any]) -> None:
    """The fixture's side of a `notifications/cancelled`: journal it under the call it names."""
    reason = str(params.get("reason", ""))
    key = reason[len(REASON) :] if reason.startswith(REASON) else STARTED.get(str(params.get("requestId")), "")
    up.record(key, {"event": "cancelled", "request_id": params.get("requestId"), "reason": reason[:200]})


async def _journal(up: Upstream, arguments: dict[str, Any]) -> dict[str, Any]:
    return report({"events": up.journal(str(arguments.get("key", "")))})


def play(client: Any, scenario: Scenario, revision: str, key: str) -> Played:
    played = Played()
    journal_key = f"{key}-cancel"
    if revision >= CLOSE_STREAM_FROM and hasattr(client.transport, "session_headers"):
        # 2026-07-28 over HTTP: a client cancels by closing the call's response stream.
        played.notes["form"] = "closed the response stream"
        add(played, tool_call(client, TOOL, {"key": journal_key, "seconds": RUNS_FOR}, None, Call(wait=CANCEL_AFTER)))
        time.sleep(SETTLE)
        add(played, tool_call(client, JOURNAL_TOOL, {"key": journal_key}))
        played.upstream = report_of(played.exchanges[-1])
        return played
    played.notes["form"] = "notifications/cancelled"
    cancel, headers = client.stamp(
        {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": client.next_request_id("tools/call"), "reason": REASON + journal_key},
        }
    )
    add(
        played,
        tool_call(
            client,
            TOOL,
            {"key": journal_key, "seconds": RUNS_FOR},
            None,
            Call(later=((CANCEL_AFTER, cancel, headers),), wait=WAIT),
        ),
    )
    journal = add(played, tool_call(client, JOURNAL_TOOL, {"key": journal_key}))
    played.upstream = report_of(journal)
    return played


def assess(scenario: Scenario, played: Played, revision: str) -> list[Finding]:
    if played.upstream is None:
        return [
            Finding(
                V.NOT_TESTABLE,
                "tools/call journal",
                f"the upstream's journal could not be read: {error_of(played.exchanges[-1]) or 'another answer'}",
            )
        ]
    events = [e for e in played.upstream.get("events") or [] if isinstance(e, dict)]
    started = next((e for e in events if e.get("event") == "started"), None)
    if started is None:
        return [Finding(V.NOT_TESTABLE, "tools/call slow", "the slow call never reached the upstream")]
    cancels = [e for e in events if e.get("event") == "cancelled"]
    if played.notes.get("form") == "closed the response stream":
        if any(e.get("event") == "stopped" for e in events):
            return []
        return [
            Finding(
                V.LOST, "closed response stream", "the client closed the call's stream; the upstream's call went on"
            )
        ]
    sent = [s.message for s in played.steps if s.channel == "later"]
    if sent and "not sent" in sent[0]:
        return [
            Finding(V.REFUSED, "notifications/cancelled", f"the proxy did not accept the cancel: {sent[0]['not sent']}")
        ]
    if not cancels:
        ended = (
            "the call ran to its end"
            if any(e.get("event") == "finished" for e in events)
            else "the call was not stopped by it"
        )
        return [Finding(V.LOST, "notifications/cancelled", f"the upstream never received the cancel; {ended}")]
    return _delivered(started, cancels, played.exchanges[0])


def _delivered(started: dict, cancels: list[dict], call) -> list[Finding]:
    """A cancel reached the upstream: for the call it started, in the process running it, and the
    call's result kept from the client."""
    matched = [e for e in cancels if str(e.get("request_id")) == str(started.get("request_id"))]
    if not matched:
        ids = sorted({str(e.get("request_id")) for e in cancels})
        return [
            Finding(
                V.CHANGED,
                "params.requestId",
                f"the cancel reached the upstream for request {ids}, its call was {started.get('request_id')!r}",
            )
        ]
    if not any(e.get("pid") == started.get("pid") for e in matched):
        # A proxy that starts an upstream process per message hands the cancel to a new one.
        return [
            Finding(
                V.LOST,
                "notifications/cancelled",
                "the cancel reached another upstream process than the one running the call; the call went on",
            )
        ]
    if call.response is not None and "result" in call.response and not error_of(call):
        return [
            Finding(
                V.CHANGED,
                "tools/call slow",
                "the upstream received the cancel, yet the call's full result reached the client",
            )
        ]
    return []


FAMILY = Family(
    NAME,
    "Cancellation",
    (Scenario("cancel", "notifications/cancelled for a running call", "tools/call", {"name": TOOL}, (), family=NAME),),
    play=play,
    assess=assess,
    tools=(
        Tool(
            TOOL,
            "runs for a while, journalling its start and end",
            _slow,
            {"type": "object", "properties": {"key": {"type": "string"}, "seconds": {"type": "number"}}},
        ),
        Tool(
            JOURNAL_TOOL,
            "what the upstream journalled for a key",
            _journal,
            {"type": "object", "properties": {"key": {"type": "string"}}},
        ),
    ),
    timing=True,
)

#: What every scenario of the family exercises (comparison.anchors), beside its own.
ANCHORS: tuple[str, ...] = (
    "notification:notifications/cancelled",
    "prop:requestId",
    "prop:reason",
    "page:cancellation",
)
