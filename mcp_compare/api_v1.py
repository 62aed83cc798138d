"""The JSON API, version 1, as one django-ninja API: the OpenAPI 3.1 document at
`/api/v1/openapi.json` is generated from these operations and their typed shapes (`api_schemas`
in common, registers and comparison), and the interactive docs at `/api/v1/docs/` are served
from the project's own static files.

Reads are the pages' data, each declared beside its page (the routers of registers.api,
evidence.api, comparison.api.reads and comparison.api.lab, cached like the pages); this module
holds the document, its errors and the index. Writes (comparison.api.writes) take a per-user API token
(`Authorization: Bearer mcpc_…`) or a logged-in session with its CSRF token, and the permissions
the pages ask for."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.views.decorators.http import require_safe
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser

from common import api_schemas as out
from common.http import api_json
from comparison.api import lab as lab_api
from comparison.api import reads as probe_api
from comparison.api import writes as api_writes
from comparison.probes.run.upload_check import strict_json
from evidence import api as evidence_api
from registers import api as register_api


class PublishedOperationIds(NinjaAPI):
    """Operation ids are part of the published document (client generators name methods after
    them): the reads keep the ids they were published under, from when this module was
    comparison.api_v1 (named after their URLs), now that each app holds its own."""

    def get_openapi_operation_id(self, operation) -> str:
        if operation.methods == ["GET"]:
            return f"comparison_api_v1_{operation.url_name}"
        return super().get_openapi_operation_id(operation)

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


#: The index's list of endpoints, reads and writes.
ENDPOINTS = {
    "registers": "/api/v1/registers/",
    "register": "/api/v1/registers/<slug>/",
    "rows": "/api/v1/rows/?<the row list's filters>&page=N",
    "row": "/api/v1/rows/<row id>/",
    "disagreements": "/api/v1/disagreements/?page=N",
    "targets": "/api/v1/targets/",
    "target": "/api/v1/targets/<id>/",
    "runs": "/api/v1/runs/?target=<id>&page=N",
    "run": "/api/v1/runs/<id>/",
    "result": "/api/v1/results/<id>/",
    "compare": "/api/v1/compare/?run=A&run=B",
    "hosts": "/api/v1/hosts/?host=<key>&chip=<chip>",
    "lab_host": "/api/v1/hosts/<key>/",
    "lab_feature": "/api/v1/hosts/features/<feature>/",
    "compare_hosts": "/api/v1/hosts/compare/?a=<key>&b=<key>",
    "lab_observation": "/api/v1/hosts/observations/<id>/",
    "openapi": "/api/v1/openapi.json",
    "docs": "/api/v1/docs/",
    "create_target": "POST /api/v1/targets/",
    "edit_target": "PATCH /api/v1/targets/<id>/",
    "start_run": "POST /api/v1/runs/",
    "cancel_run": "POST /api/v1/runs/<id>/cancel/",
    "upload_run": "POST /api/v1/runs/upload/?target=<name>",
}


@api.get("/", response=out.Index, url_name="index", tags=["index"], summary="The endpoints")
@require_safe
def index(request):
    return api_json({"version": 1, "read_only": False, "endpoints": ENDPOINTS})


# Each app's reads beside their pages, the writes on the probe reads' router (they share paths);
# this order is the document's.
api_writes.register(probe_api.router)
api.add_router("", register_api.router)
api.add_router("", evidence_api.router)
api.add_router("", probe_api.router)
api.add_router("", lab_api.router)
