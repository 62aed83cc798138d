"""Streamable HTTP sessions (HTTP targets, before 2026-07-28 removed sessions): the GET stream (a
stream, or 405: then nothing that is tied to no request, such as a list change, has a path to the
client), a DELETE and then reuse of the deleted session (404), and a request with a session id the
server never issued (404, so a client knows to start a new session; 400 leaves it stuck)."""

from __future__ import annotations

from typing import Any

from comparison.probes.families.base import Family, Finding, Played, Scenario
from comparison.probes.families.playing import second_client
from language.vocabulary import ProbeVerdict as V
from language.vocabulary import Revision

NAME = "sessions"
REMOVED = Revision.V2026_07_28
UNKNOWN_SESSION = "mcp-compare-no-such-session"


def _call(revision: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 9001, "method": "tools/call", "params": {"name": "text", "arguments": {}}}


def play(client: Any, scenario: Scenario, revision: str, key: str) -> Played:
    played = Played()
    transport = client.transport
    if not hasattr(transport, "plain"):
        played.untestable = "not an HTTP target"
        return played
    session_id = transport.session_headers.get("Mcp-Session-Id", "")
    version = {"MCP-Protocol-Version": revision}
    if scenario.key == "session-get":
        stream = transport.stream
        played.notes["get"] = "open" if stream is not None and stream.open else (stream.ended if stream else "")
    elif scenario.key == "session-unknown":
        if not session_id:
            played.untestable = "the target runs without sessions: it issued the probe no session id"
            return played
        played.notes["status"], played.notes["why"] = transport.plain(
            "POST", _call(revision), {**version, "Mcp-Session-Id": UNKNOWN_SESSION}
        )
    elif scenario.key == "session-delete":
        if not session_id:
            played.untestable = "the target runs without sessions: it issued the probe no session id"
            return played
        # A session of its own: deleting the probe's would end the rest of the run.
        fresh = second_client(client)
        try:
            opened = fresh.open(revision)
            own = fresh.transport.session_headers.get("Mcp-Session-Id", "")
            if opened.failure or not own:
                played.untestable = f"a second session did not open: {opened.failure or 'no session id'}"
                return played
            headers = {**version, "Mcp-Session-Id": own}
            played.notes["delete"], _ = fresh.transport.plain("DELETE", None, headers)
            played.notes["status"], played.notes["why"] = fresh.transport.plain("POST", _call(revision), headers)
            fresh.transport.session_headers.pop("Mcp-Session-Id", None)  # already deleted
        finally:
            fresh.close()
    return played


def assess(scenario: Scenario, played: Played, revision: str) -> list[Finding]:
    if played.untestable:
        return [Finding(V.NOT_TESTABLE, scenario.key, played.untestable)]
    notes = played.notes
    if scenario.key == "session-get":
        if notes.get("get") == "open":
            return []
        return [
            Finding(
                V.LOST,
                "GET stream",
                f"no GET stream ({notes.get('get') or 'not opened'}): messages tied to no request "
                "(list changes, resource updates) have no path to the client",
            )
        ]
    status = notes.get("status")
    if status is None:
        return [Finding(V.NOT_TESTABLE, scenario.key, f"no answer: {notes.get('why', '')}")]
    if scenario.key == "session-delete" and notes.get("delete") not in (200, 202, 204, 405):
        return [Finding(V.CHANGED, "DELETE", f"DELETE of the session answered HTTP {notes.get('delete')}")]
    if status == 404:
        return []
    what = "a deleted session" if scenario.key == "session-delete" else "a session id it never issued"
    verdict = V.CHANGED if status >= 400 else V.LOST
    return [
        Finding(
            verdict,
            "Mcp-Session-Id",
            f"a request with {what} got HTTP {status}, not 404: a client does not learn to start a new session",
        )
    ]


def _scenario(key: str, title: str) -> Scenario:
    return Scenario(key, title, "HTTP", {}, (), family=NAME, removed=REMOVED, transports=("http",))


FAMILY = Family(
    NAME,
    "Streamable HTTP sessions",
    (
        _scenario("session-get", "the session's GET stream"),
        _scenario("session-delete", "DELETE, then reuse the session (404)"),
        _scenario("session-unknown", "an unknown session id (404)"),
    ),
    play=play,
    assess=assess,
)

#: What every scenario of the family exercises (comparison.anchors), beside its own.
ANCHORS: tuple[str, ...] = ("header:Mcp-Session-Id", "page:transports", "page:streamable-http")
#: What each scenario exercises beyond the family.
SCENARIO_ANCHORS: dict[str, tuple[str, ...]] = {
    "session-get": ("http:GET",),
    "session-delete": ("http:DELETE", "status:404"),
    "session-unknown": ("status:404",),
}
