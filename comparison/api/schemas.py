"""The typed shapes of the JSON API's probe side (targets, runs, results, the host lab) and of its
writes, from which django-ninja writes their part of the OpenAPI document."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from common.api_schemas import Closed, Open, Paged


class TargetOut(Open):
    id: int
    name: str
    transport: str
    url: str
    command: str
    launch: str
    header_names: list[str]
    upstream: str
    upstream_description: str
    suite: str
    builtin: bool
    enabled: bool
    page: str
    badge: str


class TargetsOut(Open):
    targets: list[TargetOut]


class RunTargetOut(Open):
    id: int
    name: str


class ScoreOut(Open):
    same: int
    scored: int
    percent: float | None


class InteropOut(Open):
    overall: ScoreOut
    hosts: dict[str, ScoreOut]
    valid: ScoreOut
    differing: dict[str, list[list[str]]]


class ConformancePassOut(Open):
    suite: str
    status: str
    summary: str
    through: int
    directly: int
    total: int
    rows: list[dict[str, Any]]


class RunOut(Open):
    id: int
    target: RunTargetOut
    status: str
    revisions: list[str]
    upstream_revisions: list[str]
    grid: str | None
    scenarios: list[str]
    tries: int
    done: int
    total: int
    error: str
    created: str
    started_at: str | None
    finished_at: str | None
    scheduled: bool
    previous_run: int | None
    changes_since_previous: list[dict[str, Any]]
    counts: dict[str, int]
    interop: InteropOut
    conformance: ConformancePassOut | None
    real_hosts: dict[str, Any] | None
    server_identity: str
    uploaded: bool
    accepted: str | None
    page: str


class RunsOut(Paged):
    runs: list[RunOut]


class GridOut(Open):
    run: int
    client_revisions: list[str]
    upstream_revisions: list[str]
    pairs: list[dict[str, Any]]


class ResultOut(Open):
    id: int
    run: int
    target: str
    scenario: str
    family: str
    anchors: list[Any]
    method: str
    requested_revision: str
    upstream_revision: str
    negotiated_revision: str
    verdict: str
    failure: str
    response: Any
    findings: list[Any]
    diff: Any
    diff_against: str
    host_views: Any
    dpcter: Any
    interop: Any
    predictions: Any
    exchanges: list[Any]
    tries: Any
    duration_ms: float
    host_outcomes: list[dict[str, Any]]
    page: str


class CompareOut(Open):
    runs: list[dict[str, Any]]


class LabOut(Open):
    pass


# --- writes --------------------------------------------------------------------------------------


class TargetIn(Closed):
    name: str = Field(min_length=1, max_length=100)
    transport: Literal["stdio", "http"]
    url: str = Field("", max_length=2000, description="For http: the MCP endpoint.")
    command: list[str] = Field(default_factory=list, max_length=100, description="For stdio: the argument list.")
    headers: dict[str, str] = Field(default_factory=dict, description="Sent to the target; stored, never shown.")
    upstream_description: str = Field("", max_length=2000)
    suite: Literal["fixture", "everything"] = "fixture"
    enabled: bool = True


class TargetPatch(Closed):
    name: str | None = Field(None, min_length=1, max_length=100)
    url: str | None = Field(None, max_length=2000)
    command: list[str] | None = Field(None, max_length=100)
    headers: dict[str, str] | None = None
    upstream_description: str | None = Field(None, max_length=2000)
    enabled: bool | None = None


class RunIn(Closed):
    target: int
    revisions: list[str] = Field(default_factory=list, max_length=5, description="None: every revision.")
    upstream_revisions: list[str] = Field(
        default_factory=list,
        max_length=5,
        description="The cross-era grid: pin the upstream to each of these and probe every client revision through "
        "it. None: no grid.",
    )
    scenarios: list[str] = Field(default_factory=list, max_length=500, description="None: every scenario.")
    conformance: bool = False
    real_hosts: bool = False


class CancelOut(Open):
    run: int
    cancelled: bool
    status: str
