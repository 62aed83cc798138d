"""What a scenario family is: its scenarios (with the revisions and transports they exist in),
how a scenario is played against a target, how what came back is assessed, and what each host
makes of a loss. Pure, no Django, no SDK: the fixture's side of a family is written against the
small `Upstream` protocol that `comparison.probes.fixture.fixture_server` adapts to the SDK.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from language.vocabulary import REVISIONS, ProbeVerdict

TRANSPORTS = ("http", "stdio")


@dataclass(frozen=True)
class Scenario:
    key: str
    title: str
    method: str
    params: dict[str, Any]
    #: What the scenario exercises (comparison.anchors): how checks meet register rows.
    anchors: tuple[str, ...] = ()
    failure: bool = False  # a scenario that induces a failure (the failure-gap audit reads these)
    family: str = ""
    #: The first revision the scenario exists in, and the first it no longer exists in ("" = none),
    #: as the official conformance suite tags its scenarios.
    introduced: str = REVISIONS[0]
    removed: str = ""
    transports: tuple[str, ...] = TRANSPORTS

    def exists_at(self, revision: str) -> bool:
        order = {str(r): i for i, r in enumerate(REVISIONS)}
        if revision not in order:
            return True  # a revision this version does not know: every scenario is tried
        if order[revision] < order.get(self.introduced, 0):
            return False
        return not self.removed or order[revision] < order.get(self.removed, len(order))

    def applies(self, revision: str, transport: str) -> bool:
        return self.exists_at(revision) and transport in self.transports

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "method": self.method,
            "params": self.params,
            "anchors": list(self.anchors),
            "failure": self.failure,
            "family": self.family,
            "introduced": self.introduced,
            "removed": self.removed,
            "transports": list(self.transports),
        }


@dataclass
class Step:
    """One message of a played scenario, in the order it happened, seen from the probe."""

    direction: str  # "sent" (probe → target) or "received" (target → probe)
    message: dict[str, Any]
    #: Where it travelled: "request" (a request and its own answer stream), "get" (the session's
    #: GET stream), "reply" (the probe's answer to a server request), "later" (sent mid-call).
    channel: str = "request"

    def as_dict(self) -> dict[str, Any]:
        return {"direction": self.direction, "channel": self.channel, "message": self.message}


@dataclass
class Played:
    """What a family scenario brought back: its exchanges (stored as today), the messages in order,
    and what the upstream reported having received, when it could tell."""

    exchanges: list[Any] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    upstream: dict[str, Any] | None = None
    #: Why the scenario could not be played at all (the target failed), else "".
    failure: str = ""
    #: Why its check could not be made (a prerequisite failed), else "".
    untestable: str = ""
    #: Every exchange used up its whole time limit (a target that holds calls open).
    timed_out: bool = False
    #: What a family's play noted for its assessment (an earlier step's answer, a key).
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failure


@dataclass
class Finding:
    """What the assessment of a family scenario found: which message or parameter, and what became of it."""

    verdict: str
    message: str  # the message or parameter ("notifications/progress", "params.cursor")
    detail: str
    #: What kind of change it is (comparison.probes.change_kinds: "merged-pages", "moved-to-get-stream"
    #: …), so a page can say what it changes for each host; "" for a plain loss or change.
    kind: str = ""

    def as_dict(self) -> dict[str, str]:
        found = {"verdict": self.verdict, "rule": self.message, "path": self.message, "message": self.detail, "row": ""}
        if self.kind:
            found["kind"] = self.kind
        return found


#: How bad a finding is, to pick a cell's verdict from several: the worst wins.
SEVERITY = {
    ProbeVerdict.AS_EXPECTED: 0,
    ProbeVerdict.NOT_COMPARED: 1,
    ProbeVerdict.INVALID: 2,
    ProbeVerdict.CHANGED: 3,
    ProbeVerdict.INTERMITTENT: 4,
    ProbeVerdict.REFUSED: 5,
    ProbeVerdict.LOST: 6,
    ProbeVerdict.NOT_TESTABLE: 7,
    ProbeVerdict.FAILED: 8,
}


def worst(findings: list[Finding]) -> str:
    if not findings:
        return ProbeVerdict.AS_EXPECTED
    return max((finding.verdict for finding in findings), key=lambda verdict: SEVERITY.get(verdict, 0))


class Upstream(Protocol):
    """The fixture's side of one request, as a family's fixture behaviour sees it."""

    request_id: Any
    protocol_version: str
    meta: dict[str, Any]
    client_capabilities: dict[str, Any]
    client_info: dict[str, Any]
    headers: dict[str, str]
    session_id: str

    async def notify(self, method: str, params: dict[str, Any]) -> None: ...
    async def announce(self, method: str, params: dict[str, Any]) -> None: ...
    async def publish(self, kind: str, uri: str) -> None: ...
    async def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]: ...
    async def sleep(self, seconds: float) -> None: ...
    def record(self, key: str, event: dict[str, Any]) -> None: ...
    def journal(self, key: str) -> list[dict[str, Any]]: ...


#: A fixture tool of a family: (upstream, arguments) → the tools/call result, as a dict.
FixtureTool = Callable[[Upstream, dict[str, Any]], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    run: FixtureTool
    input_schema: dict[str, Any] = field(default_factory=lambda: {"type": "object"})


@dataclass(frozen=True)
class Family:
    name: str
    title: str
    scenarios: tuple[Scenario, ...]
    #: (client, scenario, revision, run key) → Played; None for a family of single requests whose
    #: answer the runner assesses as a result (content, prompts, failures).
    play: Callable[..., Played] | None = None
    #: (scenario, played, revision) → findings; None with `play`.
    assess: Callable[..., list[Finding]] | None = None
    tools: tuple[Tool, ...] = ()
    #: The client capabilities the family needs declared, per revision (merged across families).
    capabilities: Callable[[str], dict[str, Any]] = field(default=lambda revision: {})
    #: Its outcome can depend on timing (notifications, progress, cancellation, streams): each cell
    #: is played several times and the tries are weighed together (probes.tries).
    timing: bool = False
    #: What every scenario of the family exercises, beside its own anchors.
    anchors: tuple[str, ...] = ()
    #: Its assessment compares with the same scenario played against the upstream directly (the
    #: fixture when the target fronts it): `Played.notes["reference"]` holds that play.
    compared: bool = False


def call_scenario(
    family: str, key: str, tool: str, title: str, anchors: tuple[str, ...], failure: bool = False, **extra: Any
) -> Scenario:
    """A `tools/call` of a fixture tool without arguments."""
    return Scenario(key, title, "tools/call", {"name": tool, "arguments": {}}, anchors, failure, family, **extra)
