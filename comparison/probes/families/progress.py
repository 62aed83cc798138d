"""Progress: a tool that sends N `notifications/progress` for the request's token before its result.
The token must reach the upstream (or be mapped back), every notification must reach the client
with the token it sent, tied to its request, before the result (an SDK client drops progress that
comes after the result). Every revision has it; `message` exists from 2025-03-26."""

from __future__ import annotations

from typing import Any

from comparison.probes.families.base import Family, Finding, Played, Scenario, Tool, Upstream
from comparison.probes.families.playing import (
    add,
    all_reported,
    answered_first,
    moved_to_get_stream,
    no_report,
    received,
    report,
    report_of,
    tool_call,
)
from comparison.probes.transport.exchange import Call
from language.vocabulary import ProbeVerdict as V
from language.vocabulary import Revision

#: The longest a call waits after its answer for its notifications (it stops once all arrived).
SETTLE = 0.2
NAME = "progress"
TOOL = "progress"
STEPS = 3
MESSAGE_FROM = Revision.V2025_03_26


async def _progress(up: Upstream, arguments: dict[str, Any]) -> dict[str, Any]:
    token = up.meta.get("progressToken")
    steps = arguments.get("steps") if isinstance(arguments.get("steps"), int) else STEPS
    steps = max(0, min(steps, 10))
    sent = 0
    if token is not None:
        for step in range(1, steps + 1):
            params: dict[str, Any] = {"progressToken": token, "progress": step, "total": steps}
            if up.protocol_version >= MESSAGE_FROM:
                params["message"] = f"step {step} of {steps}"
            await up.notify("notifications/progress", params)
            sent += 1
    return report({"progressToken": token, "sent": sent})


def play(client: Any, scenario: Scenario, revision: str, key: str) -> Played:
    played = Played()
    token = f"{key}-progress"
    add(
        played,
        tool_call(
            client,
            TOOL,
            {"steps": STEPS},
            {"progressToken": token},
            Call(settle=SETTLE, until=all_reported("notifications/progress")),
        ),
    )
    played.upstream = report_of(played.exchanges[0])
    return played


def assess(scenario: Scenario, played: Played, revision: str) -> list[Finding]:
    exchange = played.exchanges[0]
    upstream = played.upstream
    if upstream is None:
        return no_report("tools/call progress", played)
    sent_token = exchange.request["params"]["_meta"]["progressToken"]
    findings = []
    if upstream.get("progressToken") is None:
        return [
            Finding(
                V.LOST,
                "params._meta.progressToken",
                "the upstream received the call without the progress token, so it sent no progress",
            )
        ]
    arrived = received(played, "notifications/progress")
    sent = upstream.get("sent", 0)
    if len(arrived) < sent:
        findings.append(
            Finding(V.LOST, "notifications/progress", f"the upstream sent {sent}, {len(arrived)} reached the client")
        )
    if len(arrived) > sent:
        findings.append(
            Finding(V.CHANGED, "notifications/progress", f"{len(arrived)} reached the client, the upstream sent {sent}")
        )
    malformed = [m for m in arrived if not isinstance(m.get("params"), dict)]
    tokens = {str(m["params"].get("progressToken")) for m in arrived if m not in malformed}
    if malformed:
        findings.append(
            Finding(V.CHANGED, "notifications/progress", f"{len(malformed)} arrived malformed (params not an object)")
        )
    elif arrived and tokens != {sent_token}:
        findings.append(
            Finding(
                V.CHANGED,
                "params.progressToken",
                f"the client sent {sent_token!r}, its progress came with {sorted(tokens)!r}",
            )
        )
    findings += moved_to_get_stream(played, "notifications/progress")
    if answered_first(played, "notifications/progress"):
        findings.append(
            Finding(V.CHANGED, "notifications/progress", "progress came after the result: an SDK client drops it")
        )
    return findings


FAMILY = Family(
    NAME,
    "Progress notifications",
    (
        Scenario(
            "progress",
            f"{STEPS} progress notifications before the result",
            "tools/call",
            {"name": TOOL},
            (),
            family=NAME,
        ),
    ),
    play=play,
    assess=assess,
    tools=(
        Tool(
            TOOL,
            "sends notifications/progress for the request's token, then its result",
            _progress,
            {"type": "object", "properties": {"steps": {"type": "integer"}}},
        ),
    ),
    timing=True,
)

#: What every scenario of the family exercises (comparison.anchors), beside its own.
ANCHORS: tuple[str, ...] = (
    "notification:notifications/progress",
    "prop:progressToken",
    "prop:progress",
    "prop:total",
    "page:progress",
)
