"""What the upstream was told: an echo tool reports the protocol version, the client's capabilities
and identity, the request's `_meta` and the HTTP headers as the upstream received them; the probe
compares each with what it sent. A proxy that speaks another version upstream, claims capabilities
the client never offered, or drops `_meta`, changes what the upstream does for the client."""

from __future__ import annotations

import time
from typing import Any

from comparison.hosts import change_kinds
from comparison.probes.families.base import Family, Finding, Played, Scenario, Tool, Upstream
from comparison.probes.families.playing import add, no_report, report, report_of, tool_call
from comparison.probes.transport.wire import CLIENT_INFO
from language.vocabulary import ProbeVerdict as V
from language.vocabulary import Revision

NAME = "upstream-told"
TOOL = "echo-context"
META_KEY = "mcp-compare.dev/probe"
STATELESS = Revision.V2026_07_28
#: The revision that added the MCP-Protocol-Version header to every request after the opening.
VERSION_HEADER_FROM = Revision.V2025_06_18
HEADERS = ("mcp-protocol-version", "mcp-session-id", "mcp-method", "mcp-name")
#: The arguments the probe calls the echo with: each must reach the upstream as sent, and no other.
ARGUMENTS = {"note": "as sent"}
#: How long before the call's own session opened another opening counts as the proxy's doing: a
#: proxy that opens a session of its own for a client does so just before (or after) passing the
#: client's on; the probe's previous revision opened its sessions seconds earlier.
LOOKBACK = 1.0
#: The sessions this fixture process saw opened, newest last, bounded (the fixture's side):
#: {"session", "client", "version", "opened" (time.time()), "get" (a GET stream was opened)}.
OPENED: list[dict[str, Any]] = []
MAX_OPENED = 50


def session_opened(session: str, client: str, version: str, run: str = "") -> None:
    """The fixture's side of an `initialize` (`run`: the run its `_meta` names, if any)."""
    entry = {"session": session, "client": client[:200], "version": version, "opened": time.time(), "get": False}
    OPENED.append({**entry, "run": run[:80]})
    del OPENED[:-MAX_OPENED]


def stream_opened(session: str) -> None:
    """The fixture's side of a GET stream opened for a session."""
    for entry in reversed(OPENED):
        if entry["session"] == session:
            entry["get"] = True
            return


def run_of(key: Any) -> str:
    """The run a probe key names (its first part: `<run>-<revision>-<scenario>`)."""
    return str(key or "").split("-")[0]


def _sessions_seen(own_session: str, own_client: str, run: str = "") -> list[dict[str, Any]]:
    """The openings around the call's own session, each with how long before the call it came
    ("at", seconds: volatile by nature), whether it is the call's own, its client and GET stream."""
    now = time.time()
    own = next(
        (e for e in reversed(OPENED) if e["session"] == own_session and e["client"] == own_client),
        next((e for e in reversed(OPENED) if e["session"] == own_session), None),
    )
    since = (own["opened"] if own else now) - LOOKBACK
    return [
        {
            "own": entry is own,
            "client": entry["client"],
            "version": entry["version"],
            "get": entry["get"],
            "at": round(now - entry["opened"], 3),
        }
        for entry in OPENED
        # The client's own earlier sessions (another revision, a second caller) are not the proxy's,
        # nor is a session another run opened on a shared upstream (its opening names that run).
        if entry["opened"] >= since
        and (entry is own or own is None or entry["client"] != own["client"])
        and not (run and entry.get("run") and entry["run"] != run)
    ]


async def _echo(up: Upstream, arguments: dict[str, Any]) -> dict[str, Any]:
    headers = (
        {name: value for name, value in (up.headers or {}).items() if name.lower() in HEADERS}
        if up.headers is not None
        else None
    )
    return report(
        {
            "protocolVersion": up.protocol_version,
            "clientCapabilities": up.client_capabilities,
            "clientInfo": up.client_info,
            "meta": {k: v for k, v in up.meta.items() if not k.startswith("io.modelcontextprotocol/")},
            "headers": headers,
            "arguments": arguments,
            "sessions": _sessions_seen(
                up.session_id, str((up.client_info or {}).get("name", "")), run_of(up.meta.get(META_KEY))
            ),
        }
    )


def play(client: Any, scenario: Scenario, revision: str, key: str) -> Played:
    played = Played()
    add(played, tool_call(client, TOOL, dict(ARGUMENTS), {META_KEY: key}))
    played.upstream = report_of(played.exchanges[0])
    session = client.session
    played.notes.update(
        negotiated=session.negotiated if session else revision,
        capabilities=client.capabilities,
        client_info=dict(CLIENT_INFO),
        key=key,
        session=bool(getattr(client.transport, "session_headers", {}).get("Mcp-Session-Id")),
    )
    return played


def assess(scenario: Scenario, played: Played, revision: str) -> list[Finding]:
    upstream = played.upstream
    if upstream is None:
        return no_report(f"tools/call {TOOL}", played)
    return ASSESS[scenario.key](upstream, played.notes, revision)


def _version(upstream: dict, notes: dict, revision: str) -> list[Finding]:
    told = upstream.get("protocolVersion")
    if told != notes["negotiated"]:
        return [
            Finding(
                V.CHANGED,
                "protocolVersion",
                f"the client negotiated {notes['negotiated']}, the upstream was told {told}",
            )
        ]
    return []


def _capabilities(upstream: dict, notes: dict, revision: str) -> list[Finding]:
    told = upstream.get("clientCapabilities") or {}
    declared = notes["capabilities"]
    findings = []
    lost = sorted(set(declared) - set(told))
    if lost:
        findings.append(Finding(V.LOST, "clientCapabilities", f"the client offers {lost}, the upstream was not told"))
    claimed = sorted(set(told) - set(declared))
    if claimed:
        findings.append(
            Finding(V.CHANGED, "clientCapabilities", f"the upstream was told the client offers {claimed}; it never did")
        )
    altered = sorted(name for name in set(told) & set(declared) if told[name] != declared[name])
    if altered and not findings:
        findings.append(Finding(V.CHANGED, "clientCapabilities", f"{altered} reached the upstream with other settings"))
    return findings


def _client_info(upstream: dict, notes: dict, revision: str) -> list[Finding]:
    told = upstream.get("clientInfo") or {}
    if told.get("name") != notes["client_info"]["name"]:
        return [
            Finding(
                V.CHANGED,
                "clientInfo",
                f"the upstream was told it talks to {str(told.get('name'))[:80]!r}, "
                f"not {notes['client_info']['name']!r}",
            )
        ]
    return []


def _meta(upstream: dict, notes: dict, revision: str) -> list[Finding]:
    meta = upstream.get("meta") if isinstance(upstream.get("meta"), dict) else {}
    got = meta.get(META_KEY)
    findings = [
        Finding(
            V.CHANGED,
            f"params._meta.{key}",
            f"the upstream got `_meta.{key}` = {str(value)[:80]!r}; the client never sent it",
            change_kinds.INJECTED_PARAMETER,
        )
        for key, value in sorted(meta.items())
        if key != META_KEY
    ]
    arguments = upstream.get("arguments") if isinstance(upstream.get("arguments"), dict) else None
    if arguments is not None:
        findings += [
            Finding(
                V.CHANGED,
                f"params.arguments.{name}",
                f"the upstream got argument `{name}` = {str(value)[:80]!r}; the client never sent it",
                change_kinds.INJECTED_PARAMETER,
            )
            for name, value in sorted(arguments.items())
            if name not in ARGUMENTS
        ]
        findings += [
            Finding(
                V.LOST if name not in arguments else V.CHANGED,
                f"params.arguments.{name}",
                f"the client sent argument `{name}` = {value!r}, the upstream got {arguments.get(name)!r}",
            )
            for name, value in ARGUMENTS.items()
            if arguments.get(name) != value
        ]
    if got is None:
        findings.append(Finding(V.LOST, f"params._meta.{META_KEY}", "the request's _meta did not reach the upstream"))
    elif got != notes["key"]:
        findings.append(
            Finding(V.CHANGED, f"params._meta.{META_KEY}", "the request's _meta reached the upstream altered")
        )
    return findings


def _sessions(upstream: dict, notes: dict, revision: str) -> list[Finding]:
    seen = [entry for entry in upstream.get("sessions") or [] if isinstance(entry, dict)]
    own = next((entry for entry in seen if entry.get("own")), None)
    if own is None:
        return [
            Finding(
                V.NOT_TESTABLE,
                "initialize",
                "the upstream saw no session opened for this call (a proxy that keeps one upstream session "
                "for every client opened it earlier)",
            )
        ]
    others = [entry for entry in seen if not entry.get("own") and entry.get("client") != own.get("client")]
    if not others:
        return []
    clients = sorted({str(entry.get("client"))[:80] for entry in others})
    versions = sorted({str(entry.get("version")) for entry in others})
    streams = sum(1 for entry in others if entry.get("get"))
    return [
        Finding(
            V.CHANGED,
            "initialize",
            f"the upstream saw {len(others)} session{'s' if len(others) > 1 else ''} of the proxy's own opened "
            f"beside the client's: clientInfo {', '.join(repr(c) for c in clients)}, version "
            f"{', '.join(versions)}" + (f", {streams} with a GET stream" if streams else ""),
            change_kinds.EXTRA_UPSTREAM_SESSION,
        )
    ]


def _headers(upstream: dict, notes: dict, revision: str) -> list[Finding]:
    headers = upstream.get("headers")
    if headers is None:
        return [Finding(V.NOT_TESTABLE, "HTTP headers", "the upstream is reached over stdio: no headers arrive there")]
    headers = {name.lower(): value for name, value in headers.items()}
    findings = []
    # Each header only where its revision has it: MCP-Protocol-Version from 2025-06-18.
    want = {"mcp-protocol-version": notes["negotiated"]} if revision >= VERSION_HEADER_FROM else {}
    if revision >= STATELESS:
        want.update({"mcp-method": "tools/call", "mcp-name": TOOL})
    for name, value in want.items():
        if headers.get(name) != value:
            verdict = V.LOST if name not in headers else V.CHANGED
            findings.append(
                Finding(verdict, name, f"the client sent {value!r}, the upstream got {headers.get(name)!r}")
            )
    if notes["session"] and "mcp-session-id" not in headers:
        findings.append(Finding(V.LOST, "mcp-session-id", "the upstream got no session id"))
    return findings


ASSESS = {
    "told-version": _version,
    "told-capabilities": _capabilities,
    "told-client-info": _client_info,
    "told-meta": _meta,
    "told-headers": _headers,
    "told-sessions": _sessions,
}
TITLES = {
    "told-version": "the protocol version the upstream was told",
    "told-capabilities": "the client capabilities the upstream was told",
    "told-client-info": "the clientInfo the upstream was told",
    "told-meta": "the request _meta the upstream got",
    "told-headers": "the HTTP headers the upstream got",
    "told-sessions": "the sessions the upstream saw opened",
}

FAMILY = Family(
    NAME,
    "What the upstream was told",
    tuple(
        Scenario(
            key,
            TITLES[key],
            "tools/call",
            {"name": TOOL},
            (),
            family=NAME,
            transports=("http",) if key == "told-headers" else ("http", "stdio"),
            removed=STATELESS if key == "told-sessions" else "",
        )
        for key in ASSESS
    ),
    play=play,
    assess=assess,
    tools=(Tool(TOOL, "reports what the upstream was told: version, capabilities, clientInfo, _meta, headers", _echo),),
)

#: What every scenario of the family exercises (comparison.anchors), beside its own.
ANCHORS: tuple[str, ...] = ()
#: What each scenario exercises beyond the family.
SCENARIO_ANCHORS: dict[str, tuple[str, ...]] = {
    "told-version": ("field:InitializeRequestParams.protocolVersion", "header:MCP-Protocol-Version", "page:lifecycle"),
    "told-capabilities": ("field:InitializeRequestParams.capabilities", "type:ClientCapabilities", "page:lifecycle"),
    "told-client-info": ("field:InitializeRequestParams.clientInfo", "meta:io.modelcontextprotocol/clientInfo"),
    "told-meta": ("field:RequestParams._meta", "prop:progressToken"),
    "told-headers": ("header:MCP-Protocol-Version", "header:Mcp-Session-Id", "page:transports", "page:streamable-http"),
    "told-sessions": ("header:Mcp-Session-Id", "http:GET", "method:initialize", "page:transports", "page:lifecycle"),
}
