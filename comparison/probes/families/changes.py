"""List changes and subscriptions: a tool announces that the tool list changed, and a subscribed
resource is bumped. Before 2026-07-28 the announcements are `notifications/tools/list_changed`
(on the GET stream over HTTP) and `notifications/resources/updated` after `resources/subscribe`;
from 2026-07-28 both ride a `subscriptions/listen` stream the client opened, tagged with its
subscription id. A lost `list_changed` leaves a host offering a stale list of tools.
(The fixture announces without changing its lists, so the other scenarios see the same lists.)"""

from __future__ import annotations

import json
import time
from typing import Any

from comparison.probes.families.base import Family, Finding, Played, Scenario, Step, Tool, Upstream
from comparison.probes.families.playing import (
    add,
    all_reported,
    error_of,
    no_report,
    received,
    report,
    report_of,
    tool_call,
)
from comparison.probes.transport.exchange import Call
from language.vocabulary import ProbeVerdict as V
from language.vocabulary import Revision

NAME = "changes"
LISTEN_FROM = Revision.V2026_07_28
URI = "fixture://notes/readme.md"
SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId"
SETTLE = 0.2
TOOLS_CHANGED = "notifications/tools/list_changed"
UPDATED = "notifications/resources/updated"
#: {session: subscribed URIs} of the fixture (resources/subscribe before 2026-07-28).
SUBSCRIBED: dict[str, set[str]] = {}


async def _mutate(up: Upstream, arguments: dict[str, Any]) -> dict[str, Any]:
    if up.protocol_version >= LISTEN_FROM:
        await up.publish("tools", "")
    else:
        await up.announce(TOOLS_CHANGED, {})
    return report({"sent": TOOLS_CHANGED})


async def _bump(up: Upstream, arguments: dict[str, Any]) -> dict[str, Any]:
    uri = str(arguments.get("uri", URI))
    if up.protocol_version >= LISTEN_FROM:
        await up.publish("resource", uri)
        return report({"sent": UPDATED, "uri": uri})
    subscribed = uri in SUBSCRIBED.get(up.session_id, set())
    if subscribed:
        await up.announce(UPDATED, {"uri": uri})
    return report({"subscribed": subscribed, "sent": UPDATED if subscribed else "", "uri": uri})


def subscribe(session_id: str, uri: str) -> None:
    """The fixture's side of `resources/subscribe`."""
    SUBSCRIBED.setdefault(session_id, set()).add(uri)


def play(client: Any, scenario: Scenario, revision: str, key: str) -> Played:
    if revision >= LISTEN_FROM:
        return _play_listen(client, scenario)
    played = Played()
    if scenario.key == "resource-updated":
        answer = add(played, client.request("resources/subscribe", {"uri": URI}))
        if answer.failure:
            played.untestable = f"resources/subscribe got no answer: {answer.failure}"
            return played
        if (answer.response or {}).get("error"):
            # The fixture accepts every subscription: an error is the proxy's refusal.
            played.notes["refused"] = f"the upstream accepts resources/subscribe; the client got {error_of(answer)}"
            return played
        add(played, tool_call(client, "bump", {"uri": URI}, None, Call(settle=SETTLE, until=all_reported(UPDATED))))
    else:
        add(played, tool_call(client, "mutate", {}, None, Call(settle=SETTLE, until=all_reported(TOOLS_CHANGED))))
    played.upstream = report_of(played.exchanges[-1])
    return played


def _play_listen(client: Any, scenario: Scenario) -> Played:
    played = Played()
    listen_id = client.new_id()
    notifications = (
        {"toolsListChanged": True} if scenario.key != "resource-updated" else {"resourceSubscriptions": [URI]}
    )
    message, headers = client.stamp(
        {
            "jsonrpc": "2.0",
            "id": listen_id,
            "method": "subscriptions/listen",
            "params": {"notifications": notifications},
        }
    )
    played.notes["listen_id"] = listen_id
    played.steps.append(Step("sent", message, "listen"))
    tool, arguments = ("bump", {"uri": URI}) if scenario.key == "resource-updated" else ("mutate", {})
    transport = client.transport
    if hasattr(transport, "open_stream"):
        _listen_on_stream(client, played, message, headers, (tool, arguments))
        if "listen_closed" in played.notes:
            return played
    else:
        failure = transport.send(message)
        if failure:
            played.untestable = f"subscriptions/listen could not be sent: {failure}"
            return played
        transport.unanswered.add(listen_id)  # the stream's end (its response) comes whenever
        add(
            played,
            tool_call(
                client,
                tool,
                arguments,
                None,
                Call(settle=SETTLE, until=all_reported(UPDATED if tool == "bump" else TOOLS_CHANGED)),
            ),
        )
        transport.send(
            client.stamp({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": listen_id}})[0]
        )
    played.upstream = report_of(played.exchanges[-1]) if played.exchanges else None
    return played


def _listen_on_stream(client: Any, played: Played, message: dict, headers: dict, call: tuple[str, dict]) -> None:
    """subscriptions/listen over HTTP: its stream held open while the tool call that changes the
    list is made; what arrived on it recorded. A stream that did not stay open says why in the
    played's notes (`listen_closed`)."""
    tool, arguments = call
    stream = client.transport.open_stream(message, headers)
    try:
        if not stream.open:
            acknowledged = [m for m in stream.messages if isinstance(m, dict)]
            if acknowledged:
                played.steps += [Step("received", m, "listen") for m in acknowledged]
                played.notes["listen_closed"] = (
                    f"subscriptions/listen was acknowledged ({json.dumps(acknowledged[0])[:160]}), then its "
                    f"stream closed ({stream.ended or 'ended'}): no event can reach the client"
                )
                return
            # The fixture serves subscriptions/listen at every revision that has it.
            played.notes["listen_closed"] = (
                f"subscriptions/listen, which the upstream serves, opened no stream through the proxy: "
                f"{stream.ended or 'no answer'}"
            )
            return
        time.sleep(0.05)  # the acknowledgement is the stream's first frame
        stream.mark()
        add(played, tool_call(client, tool, arguments))
        time.sleep(SETTLE)
        arrived = stream.messages[:]  # the acknowledgement and what followed
    finally:
        stream.stop()
    played.steps += [Step("received", m, "listen") for m in arrived if isinstance(m, dict)]


def assess(scenario: Scenario, played: Played, revision: str) -> list[Finding]:
    if played.untestable:
        return [Finding(V.NOT_TESTABLE, scenario.key, played.untestable)]
    if played.notes.get("refused"):
        return [Finding(V.REFUSED, "resources/subscribe", played.notes["refused"])]
    if played.notes.get("listen_closed"):
        return [Finding(V.LOST, "subscriptions/listen", played.notes["listen_closed"])]
    upstream = played.upstream
    if upstream is None:
        return no_report("tools/call", played)
    method = UPDATED if scenario.key == "resource-updated" else TOOLS_CHANGED
    if scenario.key == "resource-updated" and revision < LISTEN_FROM and not upstream.get("subscribed"):
        return [
            Finding(
                V.LOST,
                "resources/subscribe",
                "the subscription never reached the upstream that was bumped, so it sent no update",
            )
        ]
    arrived = received(played, method)
    if not arrived:
        return [Finding(V.LOST, method, "the upstream sent it; it never reached the client")]
    findings = []
    if method == UPDATED and not any(
        isinstance(m.get("params"), dict) and m["params"].get("uri") == URI for m in arrived
    ):
        findings.append(
            Finding(V.CHANGED, "params.uri", f"the update reached the client for another resource than {URI}")
        )
    if revision >= LISTEN_FROM:
        listen_id = played.notes.get("listen_id")
        tagged = [
            m
            for m in arrived
            if isinstance(m.get("params"), dict) and (m["params"].get("_meta") or {}).get(SUBSCRIPTION_ID) == listen_id
        ]
        if not tagged:
            findings.append(Finding(V.CHANGED, f"_meta.{SUBSCRIPTION_ID}", _untagged(arrived, listen_id)))
    return findings


def _untagged(arrived: list[dict[str, Any]], listen_id: Any) -> str:
    """Why no notification carried this listen stream's id, in the words the ids support: ids of
    the client's earlier (cancelled) listen streams mean the proxy left those open upstream."""
    ids = [(m.get("params", {}).get("_meta") or {}).get(SUBSCRIPTION_ID) for m in arrived if isinstance(m, dict)]
    earlier = sorted({i for i in ids if isinstance(i, int) and isinstance(listen_id, int) and i < listen_id})
    if earlier:
        return (
            f"it came only for listen stream(s) {earlier} the client had cancelled, none for its current one "
            f"({listen_id}): the proxy leaves earlier listen streams open upstream"
        )
    if any(i is not None for i in ids):
        used = sorted(map(str, ids))
        return f"it came with subscription id(s) {used} the client never used (its listen is {listen_id})"
    return "the notification reached the client without its listen stream's subscription id"


def _scenario(key: str, title: str, tool: str) -> Scenario:
    return Scenario(key, title, "tools/call", {"name": tool}, (), family=NAME)


FAMILY = Family(
    NAME,
    "List changes and subscriptions",
    (
        _scenario("list-changed", "notifications/tools/list_changed (subscriptions/listen at 2026-07-28)", "mutate"),
        _scenario("resource-updated", "a subscribed resource's update (subscriptions/listen at 2026-07-28)", "bump"),
    ),
    play=play,
    assess=assess,
    tools=(
        Tool("mutate", "announces that the tool list changed", _mutate),
        Tool(
            "bump",
            "announces an update of a resource to its subscribers",
            _bump,
            {"type": "object", "properties": {"uri": {"type": "string"}}},
        ),
    ),
    timing=True,
)

#: What every scenario of the family exercises (comparison.anchors), beside its own.
ANCHORS: tuple[str, ...] = (
    "notification:notifications/tools/list_changed",
    "notification:notifications/resources/updated",
    "method:resources/subscribe",
    "method:subscriptions/listen",
    "capability:tools.listChanged",
    "capability:resources.subscribe",
    "meta:io.modelcontextprotocol/subscriptionId",
    "page:subscriptions",
)
