"""What one cell of a run is: the target it was played against (`TargetSpec`, the built-in
fixture's), and its outcome (`ProbeOutcome`: the exchanges, findings, diff, host views and the
verdict they make). No Django."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from comparison.probes.fixture.forkserver import fixture_command
from comparison.probes.run.scenarios import Scenario
from language.anchors.travelled import travelled
from language.vocabulary import PROBE_VERDICTS, ProbeVerdict

AS_EXPECTED, CHANGED, INVALID, FAILED, NOT_COMPARED, LOST, REFUSED = (
    ProbeVerdict.AS_EXPECTED,
    ProbeVerdict.CHANGED,
    ProbeVerdict.INVALID,
    ProbeVerdict.FAILED,
    ProbeVerdict.NOT_COMPARED,
    ProbeVerdict.LOST,
    ProbeVerdict.REFUSED,
)
VERDICTS = PROBE_VERDICTS


@dataclass
class TargetSpec:
    name: str
    transport: str  # "http" or "stdio"
    url: str = ""
    command: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    suite: str = "fixture"
    #: "fixture" (answers known), an upstream URL to probe directly for the diff, or "" (no diff).
    upstream: str = ""
    #: A command serving `url`, started for the probe and stopped after it (see probes.launch).
    launch: list[str] = field(default_factory=list)
    #: Environment of the command and the launch command: credentials, never shown.
    env: dict[str, str] = field(default_factory=dict)


def builtin_fixture() -> TargetSpec:
    return TargetSpec(
        "built-in fixture (stdio)", "stdio", command=fixture_command(), suite="fixture", upstream="fixture"
    )


@dataclass
class ProbeOutcome:
    scenario: Scenario
    requested: str
    negotiated: str = ""
    exchanges: list[dict[str, Any]] = field(default_factory=list)
    response: dict[str, Any] | None = None
    findings: list[dict[str, str]] = field(default_factory=list)
    diff: list[dict[str, Any]] = field(default_factory=list)
    diff_against: str = ""
    host_views: list[dict[str, Any]] = field(default_factory=list)
    dpcter: list[dict[str, Any]] = field(default_factory=list)
    #: {host: whether it gets through the proxy what the upstream sends}; empty without a reference.
    interop: dict[str, bool] = field(default_factory=dict)
    #: What each host the lab measured would see of a tool result (comparison.hosts.measured).
    predictions: list[dict[str, Any]] = field(default_factory=list)
    failure: str = ""
    duration_ms: float = 0.0
    #: A family scenario's verdict from its assessment (the worst finding); "" for a result's cell.
    assessed: str = ""
    #: Each try of a timing-sensitive cell: {"try", "verdict", "findings", "exchanges"}; [] for one.
    tries: list[dict[str, Any]] = field(default_factory=list)
    #: The loss came with no proxy in between too (probes.same_shape): not the proxy's doing.
    lost_alone: bool = False
    #: The one revision the upstream was pinned to (the cross-era grid), "" when it spoke every one.
    upstream_revision: str = ""

    @property
    def verdict(self) -> str:
        if self.failure:
            return FAILED
        if self.lost_alone:
            return NOT_COMPARED
        if self.assessed:
            return self.assessed
        if self.diff:
            # A difference is a change, or worse where a finding says something was lost or refused.
            told = {f.get("verdict") for f in self.findings}
            return LOST if LOST in told else REFUSED if REFUSED in told else CHANGED
        if self.findings and any(f.get("verdict", INVALID) == INVALID for f in self.findings):
            return INVALID
        if not self.diff_against:
            return NOT_COMPARED  # nothing to compare the answer with: never green
        return AS_EXPECTED

    def as_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario.key,
            "family": self.scenario.family,
            "anchors": list(self.scenario.anchors),
            "seen": travelled(self.exchanges),
            "method": self.scenario.method,
            "requested_revision": self.requested,
            "upstream_revision": self.upstream_revision,
            "negotiated_revision": self.negotiated,
            "verdict": self.verdict,
            "failure": self.failure,
            "response": self.response,
            "findings": self.findings,
            "diff": self.diff,
            "diff_against": self.diff_against,
            "host_views": self.host_views,
            "dpcter": self.dpcter,
            "interop": self.interop,
            "predictions": self.predictions,
            "exchanges": self.exchanges,
            "tries": self.tries,
            "duration_ms": round(self.duration_ms, 2),
        }
