"""Logging: `notifications/message` sent during a call, at the level the client asked for. Before
2026-07-28 the client sets it for the session (`logging/setLevel`); from 2026-07-28 per request, in
`_meta` (`io.modelcontextprotocol/logLevel`), and a server must not log for a request without it.
The fixture logs at debug, info and warning; the client asks for info, so two must arrive."""

from __future__ import annotations

from typing import Any

from comparison.probes.families.base import Family, Finding, Played, Scenario, Tool, Upstream
from comparison.probes.families.playing import (
    add,
    all_reported,
    error_of,
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
NAME = "logging"
TOOL = "log"
PER_REQUEST = Revision.V2026_07_28
META_LEVEL = "io.modelcontextprotocol/logLevel"
ASKED = "info"
ORDER = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
LOGGED = ("debug", "info", "warning")

#: The level each session asked for with logging/setLevel, by session (the fixture's side).
SESSION_LEVELS: dict[str, str] = {}


def wanted(level: str | None, logged: tuple[str, ...] = LOGGED) -> list[str]:
    if level not in ORDER:
        return []
    return [name for name in logged if ORDER.index(name) >= ORDER.index(level)]


async def _log(up: Upstream, arguments: dict[str, Any]) -> dict[str, Any]:
    if up.protocol_version >= PER_REQUEST:
        level = up.meta.get(META_LEVEL)
    else:
        level = SESSION_LEVELS.get(up.session_id)
    # Before a level is set a server logs what it likes; the fixture then logs everything.
    levels = list(LOGGED) if level is None and up.protocol_version < PER_REQUEST else wanted(level)
    for name in levels:
        await up.notify("notifications/message", {"level": name, "logger": "fixture", "data": f"a {name} message"})
    return report({"level": level, "sent": levels})


def play(client: Any, scenario: Scenario, revision: str, key: str) -> Played:
    played = Played()
    if revision >= PER_REQUEST:
        add(
            played,
            tool_call(
                client, TOOL, {}, {META_LEVEL: ASKED}, Call(settle=SETTLE, until=all_reported("notifications/message"))
            ),
        )
    else:
        set_level = add(played, client.request("logging/setLevel", {"level": ASKED}))
        if (set_level.response or {}).get("error"):
            played.notes["setLevel"] = f"logging/setLevel was not accepted: {error_of(set_level)}"
        add(played, tool_call(client, TOOL, {}, None, Call(settle=SETTLE, until=all_reported("notifications/message"))))
    played.upstream = report_of(played.exchanges[-1])
    return played


def assess(scenario: Scenario, played: Played, revision: str) -> list[Finding]:
    upstream = played.upstream
    if upstream is None:
        return no_report("tools/call log", played)
    findings = []
    if played.notes.get("setLevel"):
        findings.append(Finding(V.REFUSED, "logging/setLevel", played.notes["setLevel"]))
    where = "params._meta." + META_LEVEL if revision >= PER_REQUEST else "logging/setLevel"
    if upstream.get("level") != ASKED:
        verdict = V.LOST if upstream.get("level") is None else V.CHANGED
        findings.append(
            Finding(verdict, where, f"the client asked for {ASKED!r}, the upstream has {upstream.get('level')!r}")
        )
    arrived = [
        m.get("params", {}).get("level")
        for m in received(played, "notifications/message")
        if isinstance(m.get("params"), dict)
    ]
    sent = upstream.get("sent") or []
    # A level below the one the client asked for is no loss: a proxy that filters for the client
    # (having not told the upstream) gives it what it asked for; that it did not tell is found above.
    missing = [level for level in sent if level not in arrived and level in wanted(ASKED)]
    if missing:
        findings.append(
            Finding(V.LOST, "notifications/message", f"the upstream logged {sent}, the client got {arrived}")
        )
    findings += moved_to_get_stream(played, "notifications/message")
    extra = [level for level in arrived if level not in wanted(ASKED)]
    if extra and not missing:
        findings.append(
            Finding(V.CHANGED, "notifications/message", f"the client asked for {ASKED!r} and up, and got {extra} too")
        )
    return findings


FAMILY = Family(
    NAME,
    "Logging",
    (Scenario("logging", f"log messages at level {ASKED}", "tools/call", {"name": TOOL}, (), family=NAME),),
    play=play,
    assess=assess,
    tools=(Tool(TOOL, "logs at debug, info and warning (as far as the client's level allows), then answers", _log),),
    timing=True,
)

#: What every scenario of the family exercises (comparison.anchors), beside its own.
ANCHORS: tuple[str, ...] = (
    "method:logging/setLevel",
    "notification:notifications/message",
    "meta:io.modelcontextprotocol/logLevel",
    "type:LoggingLevel",
    "capability:logging",
    "page:logging",
)
