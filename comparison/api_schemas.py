"""The typed shapes of the JSON API (`/api/v1/`), from which django-ninja writes the OpenAPI
document. Read answers name the fields every client relies on and allow more (the pages' data
grows); write bodies are closed: an unknown field is a 422 that names it."""

from __future__ import annotations

from typing import Any, Literal

from ninja import Schema
from pydantic import ConfigDict, Field


class Open(Schema):
    """An answer that may carry more fields than it names."""

    model_config = ConfigDict(extra="allow")


class Closed(Schema):
    model_config = ConfigDict(extra="forbid")


class Error(Open):
    error: str
    status: int


class Choices(Error):
    choices: list[dict[str, Any]]


class Index(Open):
    version: int
    endpoints: dict[str, str]


class Paged(Open):
    count: int
    page: int
    pages: int


class RegistersOut(Open):
    registers: list[dict[str, Any]]


class RegisterOut(Open):
    slug: str
    title: str


class RowOut(Open):
    # `register` too (the register's slug): not named here, as pydantic models own that name.
    row_id: str
    title: str
    labels: list[str]
    revisions: dict[str, Any]
    hosts: dict[str, Any]
    citations: list[dict[str, Any]]


class RowsOut(Paged):
    filter: dict[str, str]
    comparisons: list[dict[str, Any]]
    ignored: list[str]
    rows: list[RowOut]


class DisagreementsOut(Paged):
    items: list[dict[str, Any]] = Field(default_factory=list)


class TargetOut(Open):
    id: int
    name: str
    transport: str


class TargetsOut(Open):
    targets: list[TargetOut]


class RunOut(Open):
    id: int
    target: Any
    status: str


class RunsOut(Paged):
    runs: list[RunOut]


class ResultOut(Open):
    id: int
    run: int
    scenario: str
    verdict: str


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
    scenarios: list[str] = Field(default_factory=list, max_length=500, description="None: every scenario.")
    conformance: bool = False
    real_hosts: bool = False


class UploadIn(Open):
    """What `manage.py probe --json` prints."""

    target: str = Field("", description="The name the probe printed; `?target=` names the stored target instead.")
    results: list[dict[str, Any]]


class CancelOut(Open):
    run: int
    cancelled: bool
    status: str
