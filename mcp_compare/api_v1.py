"""The JSON API, version 1, as one django-ninja API: the OpenAPI 3.1 document at
`/api/v1/openapi.json` is generated from these operations and their typed shapes (`api_schemas`
in common, registers and comparison), and the interactive docs at `/api/v1/docs/` are served
from the project's own static files.

Reads are the pages' data (the views in registers.api, comparison.api.reads and comparison.api.lab
answer them, cached like the pages). Writes (api_writes) take a per-user API token
(`Authorization: Bearer mcpc_…`) or a logged-in session with its CSRF token, and the permissions
the pages ask for."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from ninja import NinjaAPI, Query, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser
from pydantic import Field, create_model

from common import api_schemas as out
from common.http import api_json
from common.path_ids import known_text
from comparison.api import lab as lab_api
from comparison.api import reads as probe_api
from comparison.api import schemas as probe_out
from comparison.api import writes as api_writes
from comparison.probes.run.upload_check import strict_json
from evidence import api as evidence_api
from registers import api as register_api
from registers import api_schemas as register_out
from registers.core.rowfilter import SINGLE_PARAMETERS


class PublishedOperationIds(NinjaAPI):
    """Operation ids are part of the published document (client generators name methods after
    them): the reads keep the ids they were published under, from when this module was
    comparison.api_v1, now that it lives in the project."""

    def get_openapi_operation_id(self, operation) -> str:
        operation_id = super().get_openapi_operation_id(operation)
        return operation_id.replace("mcp_compare_api_v1_", "comparison_api_v1_", 1)

    def get_openapi_schema(self, *args, **kwargs):
        """The upload's body is validated by the code that stores it (so a departure is a 400 that
        names its place); its schema, published as the operation's, refers to these components."""
        document = super().get_openapi_schema(*args, **kwargs)
        document.setdefault("components", {}).setdefault("schemas", {}).update(api_writes.UPLOAD_DEFINITIONS)
        return document


class StrictJsonParser(Parser):
    """Write bodies as JSON every database stores (no NaN, no lone surrogate, no NUL): a 400, never
    a value the database refuses later."""

    def parse_body(self, request):
        return strict_json(request.body)


api = PublishedOperationIds(
    title="mcp-compare",
    version="1",
    description=(
        "How MCP differs across its revisions and hosts, row by row, and what a proxy does to it. "
        "Reads need no account; writes take `Authorization: Bearer <API token>` (made in the admin) "
        "or a logged-in session with its CSRF token."
    ),
    urls_namespace="api",
    openapi_url="/openapi.json",
    docs_url="/docs/",
    parser=StrictJsonParser(),
)
ERRORS = {404: out.Error}


def _error(request, message: str, status: int):
    return api_json({"error": message, "status": status}, status=status)


@api.exception_handler(Http404)
def _not_found(request, exc):
    return _error(request, str(exc) or "Not found.", 404)


@api.exception_handler(PermissionDenied)
def _denied(request, exc):
    return _error(request, str(exc) or "You do not have permission to do that.", 403)


@api.exception_handler(AuthenticationError)
def _unauthenticated(request, exc):
    return _error(request, "Send an API token (`Authorization: Bearer …`) or log in.", 401)


@api.exception_handler(HttpError)
def _refused(request, exc):
    return _error(request, str(exc), exc.status_code)


@api.exception_handler(ValidationError)
def _invalid(request, exc):
    where = "; ".join(
        f"{'.'.join(str(part) for part in item.get('loc', ()))}: {item.get('msg', 'invalid')}" for item in exc.errors
    )
    return _error(request, f"invalid request: {where}"[:2000], 422)


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


@api.get("/", response=out.Index, url_name="index", tags=["index"], summary="The endpoints")
def index(request):
    return register_api.index(request)


@api.get("/registers/", response=register_out.RegistersOut, url_name="registers", tags=["registers"])
def registers(request):
    return register_api.registers(request)


@api.get(
    "/registers/{slug}/", response={200: register_out.RegisterOut, **ERRORS}, url_name="register", tags=["registers"]
)
def register(request, slug: str):
    return register_api.register(request, known_text(slug))


@api.get(
    "/registers/{slug}/proposals/",
    response={200: register_out.ProposalsOut, 409: out.Open, **ERRORS},
    url_name="register_proposals",
    tags=["registers"],
)
def register_proposals(request, slug: str):
    return register_api.proposals(request, known_text(slug))


@api.get("/rows/", response={200: register_out.RowsOut, **ERRORS}, url_name="rows", tags=["registers"])
def rows(request, filters: Query[RowFilterQuery]):
    return register_api.rows(request)


@api.get(
    "/rows/{row_id}/",
    response={200: register_out.RowOut, 300: out.Choices, **ERRORS},
    url_name="row",
    tags=["registers"],
)
def row(request, row_id: str):
    return register_api.row(request, known_text(row_id))


@api.get("/disagreements/", response={200: out.Paged, **ERRORS}, url_name="disagreements", tags=["registers"])
def disagreements(request, page: str = ""):
    return evidence_api.disagreements(request)


@api.get("/targets/", response=probe_out.TargetsOut, url_name="targets", tags=["probes"])
def targets(request):
    return probe_api.targets(request)


@api.get("/targets/{pk:pk}/", response={200: probe_out.TargetOut, **ERRORS}, url_name="target", tags=["probes"])
def target(request, pk: int):
    return probe_api.target(request, pk)


@api.get("/runs/", response={200: probe_out.RunsOut, **ERRORS}, url_name="runs", tags=["probes"])
def runs(request, target: str = "", page: str = ""):
    return probe_api.runs(request)


@api.get("/runs/{pk:pk}/", response={200: probe_out.RunOut, **ERRORS}, url_name="run", tags=["probes"])
def run(request, pk: int):
    return probe_api.run(request, pk)


@api.get("/runs/{pk:pk}/grid/", response={200: probe_out.GridOut, **ERRORS}, url_name="run_grid", tags=["probes"])
def run_grid(request, pk: int, pair: str = "", against: str = ""):
    return probe_api.run_grid(request, pk)


@api.get("/results/{pk:pk}/", response={200: probe_out.ResultOut, **ERRORS}, url_name="result", tags=["probes"])
def result(request, pk: int):
    return probe_api.result(request, pk)


@api.get("/compare/", response={200: probe_out.CompareOut, **ERRORS}, url_name="compare", tags=["probes"])
def compare(request, run: Query[list[str]] = None):
    return probe_api.compare(request)


@api.get("/hosts/", response=probe_out.LabOut, url_name="hosts", tags=["hosts"])
def hosts(request, host: str = "", chip: str = ""):
    return lab_api.hosts(request)


@api.get(
    "/hosts/compare/",
    response={200: probe_out.LabOut, 400: out.Open, **ERRORS},
    url_name="compare_hosts",
    tags=["hosts"],
)
def compare_hosts(request, a: str = "", b: str = ""):
    return lab_api.compare(request)


@api.get(
    "/hosts/features/{feature}/", response={200: probe_out.LabOut, **ERRORS}, url_name="lab_feature", tags=["hosts"]
)
def lab_feature(request, feature: str):
    return lab_api.feature(request, known_text(feature))


@api.get(
    "/hosts/observations/{pk:pk}/",
    response={200: probe_out.LabOut, **ERRORS},
    url_name="lab_observation",
    tags=["hosts"],
)
def lab_observation(request, pk: int):
    return lab_api.observation(request, pk)


@api.get("/hosts/{key}/", response={200: probe_out.LabOut, **ERRORS}, url_name="lab_host", tags=["hosts"])
def lab_host(request, key: str):
    return lab_api.host(request, known_text(key))


api_writes.register(api)
