"""The JSON API's shared shapes (`/api/v1/`): read answers name the fields every client relies on
and allow more (the pages' data grows); write bodies are closed, so an unknown field is a 422 that
names it. Each app's own shapes build on these: registers.api_schemas, comparison.api.schemas."""

from __future__ import annotations

from typing import Any

from ninja import Schema
from pydantic import ConfigDict


class Open(Schema):
    """An answer that may carry more fields than it names."""

    model_config = ConfigDict(extra="allow")


class Closed(Schema):
    model_config = ConfigDict(extra="forbid")


class Error(Open):
    error: str
    status: int


#: What every read that names one thing may answer besides its own shape.
NOT_FOUND = {404: Error}


class Choices(Error):
    choices: list[dict[str, Any]]


class Index(Open):
    version: int
    endpoints: dict[str, str]


class Paged(Open):
    count: int
    page: int
    pages: int
