"""What the upstream was told: an echo tool reports the protocol version, the client's capabilities
and identity, the request's `_meta` and the HTTP headers as the upstream received them; the probe
compares each with what it sent. A proxy that speaks another version upstream, claims capabilities
the client never offered, or drops `_meta`, changes what the upstream does for the client."""

from __future__ import annotations

from typing import Any

from registers.vocabulary import ProbeVerdict as V
from registers.vocabulary import Revision

from ..wire import CLIENT_INFO
from .base import Family, Finding, Played, Scenario, Tool, Upstream
from .playing import add, no_report, report, report_of, tool_call

NAME = "upstream-told"
TOOL = "echo-context"
META_KEY = "mcp-compare.dev/probe"
STATELESS = Revision.V2026_07_28
HEADERS = ("mcp-protocol-version", "mcp-session-id", "mcp-method", "mcp-name")


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
        }
    )


def play(client: Any, scenario: Scenario, revision: str, key: str) -> Played:
    played = Played()
    add(played, tool_call(client, TOOL, {}, {META_KEY: key}))
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
    got = (upstream.get("meta") or {}).get(META_KEY)
    if got is None:
        return [Finding(V.LOST, f"params._meta.{META_KEY}", "the request's _meta did not reach the upstream")]
    if got != notes["key"]:
        return [Finding(V.CHANGED, f"params._meta.{META_KEY}", "the request's _meta reached the upstream altered")]
    return []


def _headers(upstream: dict, notes: dict, revision: str) -> list[Finding]:
    headers = upstream.get("headers")
    if headers is None:
        return [Finding(V.NOT_TESTABLE, "HTTP headers", "the upstream is reached over stdio: no headers arrive there")]
    headers = {name.lower(): value for name, value in headers.items()}
    findings = []
    want = {"mcp-protocol-version": notes["negotiated"]}
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
}
TITLES = {
    "told-version": "the protocol version the upstream was told",
    "told-capabilities": "the client capabilities the upstream was told",
    "told-client-info": "the clientInfo the upstream was told",
    "told-meta": "the request _meta the upstream got",
    "told-headers": "the HTTP headers the upstream got",
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
        )
        for key in ASSESS
    ),
    play=play,
    assess=assess,
    tools=(Tool(TOOL, "reports what the upstream was told: version, capabilities, clientInfo, _meta, headers", _echo),),
)
