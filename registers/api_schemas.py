"""The typed shapes of the JSON API's register side (registers, rows, disagreements), from which
django-ninja writes their part of the OpenAPI document."""

from __future__ import annotations

from typing import Any

from ninja import Schema
from pydantic import Field, create_model

from common.api_schemas import Open, Paged
from registers.core.rowfilter import SINGLE_PARAMETERS

#: The row list's filters, one optional string per parameter the filter reads
#: (registers.core.rowfilter), so the document follows the filters; unknown values are dropped and
#: listed under `ignored`, never a 422.
RowFilterQuery = create_model(
    "RowFilterQuery",
    __base__=Schema,
    registers=(list[str], Field(default_factory=list, alias="register")),
    page=(str, ""),
    **{name: (str, "") for name in SINGLE_PARAMETERS},
)


class RegistersOut(Open):
    registers: list[dict[str, Any]]


class RegisterOut(Open):
    slug: str
    title: str


class ProposalsOut(Open):
    # `register` too (the register's slug), not named here as pydantic models own that name.
    counts: dict[str, int]
    edits: list[dict[str, Any]]
    needs_a_person: list[dict[str, Any]]
    patch: str


class RowStatusOut(Open):
    cell: str
    verdict: str


class RowOut(Open):
    # `register` too (the register's slug): not named here, as pydantic models own that name.
    row_id: str
    title: str
    difference: str
    status: RowStatusOut
    value: str
    effort: str
    risk: str
    introduced_in: str
    removed_in: str
    deprecated_in: str
    labels: list[str]
    revisions: dict[str, Any]
    hosts: dict[str, Any]
    citations: list[dict[str, Any]]
    fields: list[dict[str, str]]
    anchors: list[dict[str, Any]]
    probe_verdicts: dict[str, Any]
    evidence: Any
    url: str


class RowsOut(Paged):
    filter: dict[str, str]
    comparisons: list[dict[str, Any]]
    ignored: list[str]
    rows: list[RowOut]


class DisagreementsOut(Paged):
    items: list[dict[str, Any]] = Field(default_factory=list)
