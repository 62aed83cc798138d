"""Server→client requests: sampling, elicitation (form; URL mode from 2025-11-25) and roots, sent by
the upstream during a call. The probe declares the capabilities, answers each request with a
recorded answer, and the fixture reports what answer it got. At 2026-07-28 the same requests ride
the result instead (MRTR): an `input_required` result, then the retry with `inputResponses`."""

from __future__ import annotations

import copy
from typing import Any

from comparison.probes.families.base import Family, Finding, Played, Scenario, Tool, Upstream
from comparison.probes.families.playing import (
    add,
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

NAME = "server-requests"
TOOL = "ask"
MRTR = Revision.V2026_07_28
#: How long the fixture waits for the client's answer before it reports none.
ANSWER_SECONDS = 3.0
INPUT_KEY = "ask"

#: kind → (method, params the upstream sends, the answer the probe gives, first revision).
REQUESTS: dict[str, tuple[str, dict[str, Any], dict[str, Any], str]] = {
    "sampling": (
        "sampling/createMessage",
        {"messages": [{"role": "user", "content": {"type": "text", "text": "Say hello."}}], "maxTokens": 16},
        {
            "role": "assistant",
            "content": {"type": "text", "text": "hello from the probe"},
            "model": "mcp-compare-probe",
            "stopReason": "endTurn",
        },
        Revision.V2024_11_05,
    ),
    "elicit-form": (
        "elicitation/create",
        {
            "message": "Proceed?",
            "requestedSchema": {
                "type": "object",
                "properties": {"confirm": {"type": "boolean"}},
                "required": ["confirm"],
            },
        },
        {"action": "accept", "content": {"confirm": True}},
        Revision.V2025_06_18,
    ),
    "elicit-url": (
        "elicitation/create",
        {
            "mode": "url",
            "message": "Sign in to continue.",
            "url": "https://consent.example.invalid/start",
            "elicitationId": "probe-consent",
        },
        {"action": "accept"},
        Revision.V2025_11_25,
    ),
    "roots": (
        "roots/list",
        {},
        {"roots": [{"uri": "file:///probe/workspace", "name": "probe workspace"}]},
        Revision.V2024_11_05,
    ),
}


def capabilities(revision: str) -> dict[str, Any]:
    declared: dict[str, Any] = {"sampling": {}, "roots": {"listChanged": True}}
    if revision >= Revision.V2025_11_25:
        declared["elicitation"] = {"form": {}, "url": {}}
    elif revision >= Revision.V2025_06_18:
        declared["elicitation"] = {}
    return declared


def _sent_params(kind: str, revision: str) -> dict[str, Any]:
    params = copy.deepcopy(REQUESTS[kind][1])
    if kind == "elicit-url" and revision >= MRTR:
        params.pop("elicitationId")  # removed at 2026-07-28: a retry carries its own state
    return params


async def _ask(up: Upstream, arguments: dict[str, Any]) -> dict[str, Any]:
    kind = arguments.get("kind")
    if kind not in REQUESTS:
        return report({"error": f"unknown kind {kind!r}"})
    method = REQUESTS[kind][0]
    params = _sent_params(kind, up.protocol_version)
    if up.protocol_version >= MRTR:
        responses = up.params.get("inputResponses")
        if responses is None:
            return {
                "resultType": "input_required",
                "inputRequests": {INPUT_KEY: {"method": method, "params": params}},
                "requestState": f"fixture-{kind}",
            }
        answer = responses.get(INPUT_KEY) if isinstance(responses, dict) else None
        return report({"asked": method, "answer": {"result": answer}, "requestState": up.params.get("requestState")})
    answer = await up.request(method, params, ANSWER_SECONDS)
    return report({"asked": method, "answer": answer})


def _answerer(kind: str):
    method, _, answer, _ = REQUESTS[kind]

    def answer_request(request: dict[str, Any]) -> dict[str, Any]:
        if request.get("method") == method:
            return {"jsonrpc": "2.0", "id": request.get("id"), "result": copy.deepcopy(answer)}
        return {"jsonrpc": "2.0", "id": request.get("id"), "error": {"code": -32601, "message": "Method not found"}}

    return answer_request


def play(client: Any, scenario: Scenario, revision: str, key: str) -> Played:
    kind = scenario.params["arguments"]["kind"]
    played = Played()
    first = add(played, tool_call(client, TOOL, {"kind": kind}, None, Call(answer=_answerer(kind))))
    if revision >= MRTR and not first.failure:
        result = (first.response or {}).get("result")
        played.notes["first"] = result
        if isinstance(result, dict) and result.get("resultType") == "input_required":
            retry = {
                "name": TOOL,
                "arguments": {"kind": kind},
                "inputResponses": {INPUT_KEY: copy.deepcopy(REQUESTS[kind][2])},
            }
            if "requestState" in result:
                retry["requestState"] = result["requestState"]
            add(played, client.request("tools/call", retry))
    played.upstream = report_of(played.exchanges[-1])
    return played


def assess(scenario: Scenario, played: Played, revision: str) -> list[Finding]:
    kind = scenario.params["arguments"]["kind"]
    method, _, answer, _ = REQUESTS[kind]
    return _assess_mrtr(kind, played, revision) if revision >= MRTR else _assess_request(kind, method, answer, played)


def _assess_request(kind: str, method: str, answer: dict[str, Any], played: Played) -> list[Finding]:
    upstream = played.upstream
    if upstream is None:
        return no_report(f"tools/call {TOOL}", played)
    arrived = received(played, method)
    got = upstream.get("answer") or {}
    if not arrived:
        if isinstance(got.get("error"), dict):
            error = got["error"]
            return [
                Finding(
                    V.REFUSED,
                    method,
                    f"the client never saw it; the upstream got error {error.get('code')}: "
                    f"{str(error.get('message'))[:160]}",
                )
            ]
        return [Finding(V.LOST, method, "the request never reached the client, and the upstream got no answer")]
    findings = []
    params = arrived[0].get("params") or {}
    expected = _sent_params(kind, "")
    if isinstance(params, dict):
        params = {k: v for k, v in params.items() if k != "_meta"}
    if params != expected:
        findings.append(
            Finding(
                V.CHANGED, f"{method} params", "the request reached the client with other params than the upstream sent"
            )
        )
    if "result" not in got:
        findings.append(
            Finding(V.LOST, f"{method} answer", f"the client answered, the upstream got {str(got)[:160] or 'nothing'}")
        )
    elif got["result"] != answer:
        findings.append(Finding(V.CHANGED, f"{method} answer", "the upstream got another answer than the client gave"))
    # Sent on the session's GET stream instead of the call's own: answered there all the same (a
    # conformant client keeps both), lost only to a host that opens no GET stream.
    return findings + moved_to_get_stream(played, method)


def _assess_mrtr(kind: str, played: Played, revision: str) -> list[Finding]:
    method, _, answer, _ = REQUESTS[kind]
    first = played.notes.get("first")
    if not isinstance(first, dict) or first.get("resultType") != "input_required":
        refused = _answered_by_proxy(method, played)
        if refused:
            return [Finding(V.REFUSED, "resultType input_required", refused)]
        what = first.get("resultType") if isinstance(first, dict) else error_of(played.exchanges[0]) or "no result"
        return [
            Finding(
                V.LOST, "resultType input_required", f"the upstream asked for input; the client got {str(what)[:160]!r}"
            )
        ]
    findings = []
    asked = (first.get("inputRequests") or {}).get(INPUT_KEY) if isinstance(first.get("inputRequests"), dict) else None
    if not isinstance(asked, dict) or asked.get("method") != method:
        findings.append(
            Finding(V.LOST, "inputRequests", f"the input request for {method} did not reach the client intact")
        )
    elif asked.get("params") != _sent_params(kind, revision):
        findings.append(Finding(V.CHANGED, "inputRequests", f"{method} reached the client with other params"))
    if "requestState" not in first:
        findings.append(Finding(V.LOST, "requestState", "the result reached the client without its requestState"))
    upstream = played.upstream
    retried = (played.exchanges[-1].response or {}).get("result") if len(played.exchanges) > 1 else None
    if upstream is None and isinstance(retried, dict) and retried.get("resultType") == "input_required":
        findings.append(
            Finding(
                V.LOST, "inputResponses", "the retry reached the upstream without the client's answer: it asked again"
            )
        )
        return findings
    if upstream is None:
        findings.append(
            Finding(
                V.NOT_TESTABLE,
                "tools/call retry",
                f"no report from the upstream on the retry: {error_of(played.exchanges[-1]) or 'another answer'}",
            )
        )
        return findings
    findings += _retry_as_the_upstream_saw_it(kind, upstream, first, answer)
    return findings


def _retry_as_the_upstream_saw_it(kind: str, upstream: dict, first: dict, answer) -> list[Finding]:
    """The retry as it reached the upstream: the client's answer, and the requestState it gave."""
    found: list[Finding] = []
    got = (upstream.get("answer") or {}).get("result")
    if got is None:
        found.append(
            Finding(V.LOST, "inputResponses", "the retry reached the upstream without the client's inputResponses")
        )
    elif got != answer:
        found.append(Finding(V.CHANGED, "inputResponses", "the upstream got another answer than the client gave"))
    # requestState is opaque to the client: a proxy may wrap its own around it, so long as the
    # upstream gets back exactly the state it gave.
    given = f"fixture-{kind}"
    if upstream.get("requestState") != given:
        told = upstream.get("requestState")
        found.append(
            Finding(
                V.LOST,
                "requestState",
                f"the retry reached the upstream with requestState {str(told)[:60]!r}, not the {given!r} it gave",
            )
        )
    elif first.get("requestState") != given:
        found.append(
            Finding(
                V.AS_EXPECTED,
                "requestState",
                "the proxy gave the client a state of its own and the upstream got its own back: opaque, as allowed",
            )
        )
    return found


def _answered_by_proxy(method: str, played: Played) -> str:
    """Why the upstream's input request counts as answered by the proxy (refused, as the same
    request is before 2026-07-28 when the proxy answers it), or "": the upstream reports an answer
    the client never gave, or the client got an error in place of the request."""
    upstream = played.upstream
    if upstream is not None and "answer" in upstream:
        return (
            f"the client never saw the upstream's {method}; the proxy answered it itself: "
            f"the upstream got {str(upstream.get('answer'))[:160]}"
        )
    error = (played.exchanges[0].response or {}).get("error") if played.exchanges else None
    if isinstance(error, dict):
        return (
            f"the client never saw the upstream's {method}; the proxy answered the call with error "
            f"{error.get('code')}: {str(error.get('message'))[:160]}"
        )
    return ""


def _scenario(kind: str, title: str, introduced: str, mrtr: bool) -> Scenario:
    return Scenario(
        f"mrtr-{kind}" if mrtr else f"ask-{kind}",
        f"{title} (input_required, then the retry)" if mrtr else f"{title} during a call",
        "tools/call",
        {"name": TOOL, "arguments": {"kind": kind}},
        (),
        family=NAME,
        introduced=MRTR if mrtr else introduced,
        removed="" if mrtr else MRTR,
    )


TITLES = {
    "sampling": "sampling/createMessage",
    "elicit-form": "elicitation/create, form",
    "elicit-url": "elicitation/create, URL mode",
    "roots": "roots/list",
}

FAMILY = Family(
    NAME,
    "Server→client requests",
    tuple(_scenario(kind, TITLES[kind], REQUESTS[kind][3], False) for kind in REQUESTS)
    + tuple(_scenario(kind, TITLES[kind], MRTR, True) for kind in REQUESTS),
    play=play,
    assess=assess,
    tools=(
        Tool(
            TOOL,
            "asks the client (sampling, elicitation, roots) during the call and reports the answer",
            _ask,
            {"type": "object", "properties": {"kind": {"type": "string"}}},
        ),
    ),
    capabilities=capabilities,
)

#: What every scenario of the family exercises (comparison.anchors), beside its own.
ANCHORS: tuple[str, ...] = ()
#: What each scenario exercises beyond the family.
SCENARIO_ANCHORS: dict[str, tuple[str, ...]] = {
    "ask-sampling": ("method:sampling/createMessage", "capability:sampling", "page:sampling"),
    "ask-elicit-form": ("method:elicitation/create", "capability:elicitation", "page:elicitation"),
    "ask-elicit-url": ("method:elicitation/create", "capability:elicitation", "page:elicitation"),
    "ask-roots": ("method:roots/list", "capability:roots", "page:roots"),
    **{
        f"mrtr-{kind}": ("type:InputRequiredResult", "prop:inputResponses", "prop:requestState", "page:mrtr")
        for kind in ("sampling", "elicit-form", "elicit-url", "roots")
    },
}
