"""Caching hints (2026-07-28): `ttlMs` and `cacheScope` on list and read results must arrive as the
upstream set them, and a result the upstream marked `private` for one caller must never be
served to another. The probe reads a private resource as two callers (on two connections over
HTTP); the fixture answers each with who asked."""

from __future__ import annotations

from typing import Any

from comparison.probes.families.base import Family, Finding, Played, Scenario
from comparison.probes.families.playing import add, error_of, second_client
from language.vocabulary import ProbeVerdict as V
from language.vocabulary import Revision

NAME = "caching"
FROM = Revision.V2026_07_28
LIST_HINTS = {"ttlMs": 300_000, "cacheScope": "public"}
READ_HINTS = {"ttlMs": 60_000, "cacheScope": "public"}
PRIVATE_HINTS = {"ttlMs": 60_000, "cacheScope": "private"}
PRIVATE_URI = "fixture://private/caller"
CALLER = "mcp-compare.dev/caller"


def private_read(meta: dict[str, Any]) -> dict[str, Any]:
    """The fixture's answer to a read of the private resource: who asked, private to them."""
    caller = str(meta.get(CALLER, "unknown"))[:80]
    return {"contents": [{"uri": PRIVATE_URI, "mimeType": "text/plain", "text": f"caller: {caller}"}], **PRIVATE_HINTS}


def _read_private(client: Any, caller: str) -> Any:
    return client.request("resources/read", {"uri": PRIVATE_URI, "_meta": {CALLER: caller}})


def play(client: Any, scenario: Scenario, revision: str, key: str) -> Played:
    played = Played()
    if scenario.key == "cache-list":
        add(played, client.request("tools/list", {}))
    elif scenario.key == "cache-read":
        add(played, client.request("resources/read", {"uri": "fixture://notes/readme.md"}))
    else:
        first, second = f"{key}-a", f"{key}-b"
        played.notes["callers"] = [first, second]
        add(played, _read_private(client, first))
        other = client
        if hasattr(client.transport, "plain"):  # over HTTP the second caller has a connection of its own
            other = second_client(client)
            opened = other.open(revision)
            if opened.failure:
                other.close()
                played.untestable = f"the second caller's session did not open: {opened.failure}"
                return played
        try:
            add(played, _read_private(other, second))
        finally:
            if other is not client:
                other.close()
    return played


def _result(exchange: Any) -> dict[str, Any] | None:
    result = (exchange.response or {}).get("result")
    return result if isinstance(result, dict) else None


def _hints(result: dict[str, Any], want: dict[str, Any], what: str) -> list[Finding]:
    findings = []
    for name, value in want.items():
        if name not in result:
            findings.append(Finding(V.LOST, name, f"{what}: the upstream set {value!r}, the client got none"))
        elif result[name] != value:
            findings.append(
                Finding(V.CHANGED, name, f"{what}: the upstream set {value!r}, the client got {result[name]!r}")
            )
    return findings


def assess(scenario: Scenario, played: Played, revision: str) -> list[Finding]:
    if revision < FROM:
        return [
            Finding(V.NOT_TESTABLE, scenario.key, f"the target negotiated {revision}: no caching hints before {FROM}")
        ]
    if played.untestable:
        return [Finding(V.NOT_TESTABLE, scenario.key, played.untestable)]
    results = [_result(exchange) for exchange in played.exchanges]
    if any(result is None for result in results):
        broken = next(e for e, r in zip(played.exchanges, results, strict=True) if r is None)
        return [Finding(V.NOT_TESTABLE, scenario.method, f"no result: {error_of(broken) or 'another answer'}")]
    if scenario.key == "cache-list":
        return _hints(results[0], LIST_HINTS, "tools/list")
    if scenario.key == "cache-read":
        return _hints(results[0], READ_HINTS, "resources/read")
    first, second = played.notes["callers"]
    texts = [str(((r.get("contents") or [{}])[0] or {}).get("text", "")) for r in results]
    findings = _hints(results[0], PRIVATE_HINTS, "the private read")
    if texts[1] == f"caller: {first}":
        findings.append(
            Finding(V.CHANGED, "cacheScope private", "the second caller was served the first caller's private result")
        )
    elif texts != [f"caller: {first}", f"caller: {second}"]:
        findings.append(
            Finding(V.NOT_TESTABLE, f"_meta.{CALLER}", f"the upstream could not tell the callers apart: {texts}")
        )
    return findings


def _scenario(key: str, title: str, method: str) -> Scenario:
    return Scenario(key, title, method, {}, (), family=NAME, introduced=FROM)


FAMILY = Family(
    NAME,
    "Caching hints",
    (
        _scenario("cache-list", "ttlMs and cacheScope on tools/list", "tools/list"),
        _scenario("cache-read", "ttlMs and cacheScope on resources/read", "resources/read"),
        _scenario("cache-private", "a private result never served to another caller", "resources/read"),
    ),
    play=play,
    assess=assess,
)

#: What every scenario of the family exercises (comparison.anchors), beside its own.
ANCHORS: tuple[str, ...] = ("prop:ttlMs", "prop:cacheScope", "type:CacheableResult", "page:caching")
