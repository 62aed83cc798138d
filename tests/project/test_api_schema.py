"""The API's OpenAPI 3.1 document, generated from the code (django-ninja), validated with
openapi-spec-validator and fuzzed from itself with schemathesis: no 500 and no answer outside
the schema, on the shipped registers and a real run. Writes: per-user tokens made in the admin,
stored hashed, permissions as on the pages, CSRF exempt only for token requests."""

from __future__ import annotations

import json
import re
from datetime import date, timedelta
from io import StringIO
from pathlib import Path

import pytest
import schemathesis
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, given, settings
from openapi_spec_validator import validate
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from comparison.models import ProbeRun, ProbeTarget
from comparison.models.tokens import SCOPES, ApiToken, digest
from comparison.services.probing import ensure_builtin_target
from comparison.tasks import start_run

pytestmark = pytest.mark.django_db
#: No 500, and every answer inside the schema: its status, its content type, its body.
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def test_the_openapi_document_is_generated_valid_and_names_every_endpoint(client):
    document = client.get("/api/v1/openapi.json").json()
    validate(document)
    assert document["openapi"].startswith("3.1")
    paths = document["paths"]
    for path in ("/api/v1/rows/", "/api/v1/rows/{row_id}/", "/api/v1/runs/upload/", "/api/v1/targets/{pk}/"):
        assert path in paths, path
    assert set(paths["/api/v1/targets/"]) == {"get", "post"}
    assert "bearer" in json.dumps(document["components"]["securitySchemes"]).lower()


def test_the_published_operation_ids_stay_as_published(client):
    """Clients generate method names from operation ids: moving a module must not rename them (the
    list is the document's of 0.x, when the reads lived in comparison.api_v1)."""
    published = json.loads((Path(__file__).parents[1] / "data" / "openapi_operation_ids.json").read_text())
    document = client.get("/api/v1/openapi.json").json()
    ids = sorted(op["operationId"] for methods in document["paths"].values() for op in methods.values())
    assert ids == published


def test_the_interactive_docs_come_from_the_dashboards_own_static_files(client):
    html = client.get("/api/v1/docs/").content.decode()
    # Hashed (swagger-ui-bundle.<hash>.js) once scripts/start.sh has collected static files.
    assert re.search(r'src="/static/ninja/swagger-ui-bundle(\.[0-9a-f]+)?\.js"', html)
    assert "cdn" not in html.lower()
    assert "<script>" not in html, "no inline script under the pages' CSP"


def test_fuzzing_every_operation_from_its_schema_finds_no_500_and_no_answer_outside_it(loaded):
    """Reads on the shipped registers and a real run; writes without credentials (every one a 401)."""
    from django.core.wsgi import get_wsgi_application

    start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text", "rpc-error"])
    # The WSGI handler closes "old" connections when a request starts and ends; on PostgreSQL that
    # closes the test's own connection inside its transaction (Django's test Client unhooks it too).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())
        problems = _fuzz_every_operation(schema)
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    assert problems == {}


def _fuzz_every_operation(schema) -> dict[str, str]:
    problems: dict[str, str] = {}
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 20

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def fuzz(case):
            case.validate_response(case.call(headers={"Accept-Encoding": "identity"}), checks=CHECKS)

        try:
            fuzz()
        except BaseException as error:  # every operation is tried; the failures are listed together
            problems[f"{operation.method.upper()} {operation.path}"] = str(error)[:600]
    return problems


def _token(username: str, *perms: str) -> str:
    user = User.objects.create_user(username, password=f"pw-{username}-12345")
    for codename in perms:
        user.user_permissions.add(Permission.objects.get(codename=codename))
    return ApiToken.issue(user, f"{username} CI", scopes=[code for code, _ in SCOPES])[1]


def _bearer(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def test_a_token_is_stored_hashed_shown_once_and_stops_working_when_revoked(client):
    token = _token("ci", "run_probe")
    stored = ApiToken.objects.get()
    assert stored.digest == digest(token)
    assert token not in json.dumps(list(ApiToken.objects.values()), default=str)
    target = ensure_builtin_target()
    body = {"target": target.pk, "revisions": ["2025-06-18"], "scenarios": ["text"]}
    started = client.post("/api/v1/runs/", body, content_type="application/json", **_bearer(token))
    assert started.status_code == 201, started.content
    assert ProbeRun.objects.get(pk=started.json()["id"]).started_by.username == "ci"
    ApiToken.objects.update(revoked="2026-12-01T00:00:00Z")
    refused = client.post("/api/v1/runs/", body, content_type="application/json", **_bearer(token))
    assert refused.status_code == 401
    assert refused.json()["error"].startswith("Send an API token")


def test_the_admin_makes_a_token_and_shows_its_secret_once(admin_client):
    admin = User.objects.get(username="admin")
    form = {"user": admin.pk, "name": "myproxy CI", "scopes": ["upload"], "expires_1": "00:00"}
    form["expires_0"] = (date.today() + timedelta(days=30)).isoformat()
    page = admin_client.post("/admin/comparison/apitoken/add/", form)
    html = page.content.decode()
    secret = re.search(r'<code id="token-secret">(mcpc_[^<]+)</code>', html).group(1)
    assert ApiToken.objects.get().digest == digest(secret)
    assert "no-store" in page["Cache-Control"]
    assert all(secret not in str(morsel) for morsel in page.cookies.values()), "never in a cookie"
    listing = admin_client.get("/admin/comparison/apitoken/").content.decode()
    assert secret not in listing
    assert secret[:12] in listing, "the hint tells tokens apart"


def test_writes_need_the_pages_permissions_and_csrf_only_without_a_token(client):
    target = ensure_builtin_target()
    body = {"target": target.pk}
    nobody = _token("nobody")
    assert client.post("/api/v1/runs/", body, content_type="application/json", **_bearer(nobody)).status_code == 403
    assert client.post("/api/v1/runs/", body, content_type="application/json").status_code == 401
    User.objects.create_user("alice", password="pw-alice-12345").user_permissions.add(
        Permission.objects.get(codename="run_probe")
    )
    session = Client(enforce_csrf_checks=True)
    session.login(username="alice", password="pw-alice-12345")
    no_csrf = session.post("/api/v1/runs/", body, content_type="application/json")
    assert no_csrf.status_code == 403
    assert "CSRF" in no_csrf.json()["error"]
    token_client = Client(enforce_csrf_checks=True)
    admin_token = _token("ops", "add_probetarget", "change_probetarget")
    made = token_client.post(
        "/api/v1/targets/",
        {"name": "myproxy", "transport": "http", "url": "http://127.0.0.1:3301/mcp", "headers": {"X-Key": "s3cret"}},
        content_type="application/json",
        **_bearer(admin_token),
    )
    assert made.status_code == 201, made.content
    assert "s3cret" not in made.content.decode()
    assert made.json()["header_names"] == ["X-Key"]
    edited = token_client.patch(
        f"/api/v1/targets/{made.json()['id']}/", {"upstream_description": "the fixture"},
        content_type="application/json", **_bearer(admin_token),
    )  # fmt: skip
    assert edited.status_code == 200
    bad = token_client.post(
        "/api/v1/targets/", {"name": "x", "transport": "http", "url": "http://user:pw@127.0.0.1/"},
        content_type="application/json", **_bearer(admin_token),
    )  # fmt: skip
    assert bad.status_code == 400
    assert bad.json()["error"].startswith("url:")
    unknown = token_client.post(
        "/api/v1/targets/", {"name": "y", "transport": "http", "colour": "red"},
        content_type="application/json", **_bearer(admin_token),
    )  # fmt: skip
    assert unknown.status_code == 422
    assert "colour" in unknown.json()["error"]


def test_a_run_starts_and_is_cancelled_through_the_api(client, settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}  # queued, not run at once
    token = _token("ci", "run_probe")
    target = ensure_builtin_target()
    started = client.post("/api/v1/runs/", {"target": target.pk}, content_type="application/json", **_bearer(token))
    assert started.status_code == 201
    run_id = started.json()["id"]
    again = client.post("/api/v1/runs/", {"target": target.pk}, content_type="application/json", **_bearer(token))
    assert again.status_code == 409, "one target runs one probe at a time"
    cancelled = client.post(f"/api/v1/runs/{run_id}/cancel/", **_bearer(token)).json()
    assert cancelled == {"run": run_id, "cancelled": True, "status": "cancelled"}


def test_a_run_made_elsewhere_with_probe_json_is_uploaded_and_shown(client):
    """The done-when: `probe --json` on another machine, sent with a token, on this one's pages."""
    out = StringIO()
    try:
        call_command(
            "probe", "--builtin", "--revisions", "2025-06-18", "--scenarios", "text", "audio", "--json", stdout=out
        )
    except SystemExit:
        pass
    report = json.loads(out.getvalue())
    ProbeRun.objects.all().delete()
    myproxy = ProbeTarget.objects.create(name="myproxy", transport="http", url="http://127.0.0.1:3301/mcp")
    token = _token("ci", "run_probe")
    myproxy.uploaders.add(User.objects.get(username="ci"))
    uploaded = client.post(
        "/api/v1/runs/upload/?target=myproxy", report, content_type="application/json", **_bearer(token)
    )
    assert uploaded.status_code == 201, uploaded.content
    run = ProbeRun.objects.get(pk=uploaded.json()["id"])
    assert (run.uploaded, run.status, run.results.count()) == (True, "done", len(report["results"]))
    assert run.server_identity == "mcp-compare-fixture 1.0.0"
    page = client.get(run.target.get_absolute_url()).content.decode()
    assert f"/probes/runs/{run.pk}/" in page
    assert 'ci <span class="muted">(uploaded)</span>' in page
    assert "uploaded through the API by ci" in client.get(run.get_absolute_url()).content.decode()
    broken = {"results": [{**report["results"][0], "verdict": "splendid"}]}
    refused = client.post(
        "/api/v1/runs/upload/?target=myproxy", broken, content_type="application/json", **_bearer(token)
    )
    assert refused.status_code == 400
    assert refused.json()["error"].startswith("results[0].verdict: Input should be 'as expected'")
    assert refused.json()["error"].endswith('(got "splendid")')
    assert ProbeRun.objects.count() == 1, "a refused upload stores nothing"
    nowhere = client.post("/api/v1/runs/upload/?target=gone", report, content_type="application/json", **_bearer(token))
    assert nowhere.status_code == 404


def test_a_primary_key_past_what_the_database_holds_is_a_404(client):
    """Found by the fuzzing on PostgreSQL: /hosts/observations/<huge>/ was a 503 (out of range)."""
    for path in ("targets", "runs", "results", "hosts/observations"):
        response = client.get(f"/api/v1/{path}/9223372036854775808/")
        assert response.status_code == 404, path
        assert response.json()["status"] == 404
    for page in ("probes/targets", "probes/runs", "probes/results", "hosts/observations"):
        assert client.get(f"/{page}/2147483648/").status_code == 404, page
        assert client.get(f"/{page}/0/").status_code == 404, page
    for name in ("registers/pro%00mpts", "rows/CT-%0001", "hosts/features/x%00", "hosts/x%00"):
        assert client.get(f"/api/v1/{name}/").status_code == 404, name
