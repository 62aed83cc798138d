"""Hostile round four, what an upload may do: a replay is the run already made, an uploaded run is
the uploader's word until accepted, what is sent is stored as sent (no secret oracle), a body that
departs from the published schema is a 400 naming the place, a malformed result stored before the
checks leaves every page whole, and a server killed after the commit leaves a whole run."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import Permission, User
from django.test import Client

from comparison.models import ProbeResult, ProbeRun, ProbeTarget
from comparison.models.tokens import ApiToken
from comparison.probes.assessment.result_shape import Result, repaired
from comparison.services.probing import ensure_builtin_target
from comparison.tasks import start_run
from evidence.probe_findings import latest_probe_verdicts
from evidence.row_evidence import latest_probe_cells
from tests.support.processes import PROJECT, manage
from tests.support.upload_reports import probe_report

pytestmark = pytest.mark.django_db
UPLOAD = "/api/v1/runs/upload/?target=myproxy"


@pytest.fixture
def proxy(db):
    target = ProbeTarget.objects.create(
        name="myproxy", transport="http", url="http://127.0.0.1:3301/mcp", headers={"X-Key": "4821"}
    )
    ci = User.objects.create_user("ci", password="pw-ci-0123456789")
    target.uploaders.add(ci)
    return target


@pytest.fixture
def bearer(proxy) -> dict[str, str]:
    secret = ApiToken.issue(User.objects.get(username="ci"), "CI")[1]
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def _send(body, bearer, **headers):
    raw = body if isinstance(body, str | bytes) else json.dumps(body)
    return Client().post(UPLOAD, raw, content_type="application/json", **bearer, **headers)


# --- 2. replays, and uploads that are not the dashboard's own measurements -----------------------


def test_the_same_upload_twice_is_answered_with_the_run_it_made(bearer):
    report = probe_report()
    first, again = _send(report, bearer), _send(report, bearer)
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["id"] == again.json()["id"]
    keyed = _send(dict(report, note="a retry"), bearer, HTTP_IDEMPOTENCY_KEY="ci-build-77")
    retried = _send(dict(report, note="the same retry"), bearer, HTTP_IDEMPOTENCY_KEY="ci-build-77")
    assert (keyed.status_code, retried.status_code) == (201, 200)
    assert keyed.json()["id"] == retried.json()["id"] != first.json()["id"]
    assert ProbeRun.objects.filter(uploaded=True).count() == 2


def test_an_uploaded_run_counts_as_a_measurement_only_once_accepted(bearer, proxy):
    start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text"])
    report = probe_report()
    report["results"][0]["verdict"] = "lost by proxy"
    uploaded = ProbeRun.objects.get(pk=_send(report, bearer).json()["id"])
    assert "myproxy" not in latest_probe_verdicts().targets
    assert {cell.target for cell in latest_probe_cells()} == {ensure_builtin_target().name}
    # The target's own pages show it: it is the uploader's run of their target.
    assert f"/probes/runs/{uploaded.pk}/" in Client().get(proxy.get_absolute_url()).content.decode()
    assert "not yet accepted" in Client().get(uploaded.get_absolute_url()).content.decode()
    assert Client().get(f"/api/v1/runs/{uploaded.pk}/").json()["accepted"] is None
    reviewer = User.objects.create_user("reviewer", password="pw-reviewer-0123", is_staff=True)
    for codename in ("view_proberun", "change_proberun"):
        reviewer.user_permissions.add(Permission.objects.get(codename=codename))
    admin = Client()
    admin.force_login(reviewer)
    action = {"action": "accept", "_selected_action": [uploaded.pk]}
    admin.post("/admin/comparison/proberun/", action)
    uploaded.refresh_from_db()
    assert uploaded.accepted_at is None, "accepting needs its own permission"
    reviewer.user_permissions.add(Permission.objects.get(codename="accept_upload"))
    admin.post("/admin/comparison/proberun/", action)
    uploaded.refresh_from_db()
    assert uploaded.accepted_by == reviewer
    assert Client().get(f"/api/v1/runs/{uploaded.pk}/").json()["accepted"].startswith("20")
    assert "myproxy" in latest_probe_verdicts().targets
    assert "myproxy" in {cell.target for cell in latest_probe_cells()}


# --- 3. no oracle ----------------------------------------------------------------------------------


def test_what_is_sent_is_stored_as_sent_whether_or_not_it_guessed_a_secret(bearer):
    guesses = ["4820", "4821", "4822", django_settings.SECRET_KEY, "not-the-key"]
    report = probe_report()
    report["results"] = [dict(report["results"][0], failure=guess, duration_ms=i) for i, guess in enumerate(guesses)]
    run = _send(report, bearer).json()["id"]
    stored = list(ProbeResult.objects.filter(run_id=run).order_by("duration_ms").values_list("failure", flat=True))
    assert stored == guesses, "a right guess is stored exactly like a wrong one"


# --- 6. the published schema, all the way down ------------------------------------------------------

ODD = [
    ({"exchanges": ["x"]}, "results[0].exchanges[0]: "),
    ({"dpcter": ["x"]}, "results[0].dpcter[0]: "),
    ({"dpcter": [{}]}, "results[0].dpcter[0].consumer: Field required"),
    ({"findings": [{"message": "m", "row": "CT/01"}]}, "results[0].findings[0].row: "),
    ({"anchors": [1]}, "results[0].anchors[0]: Input should be a valid string"),
    ({"host_views": [{"key": "x"}]}, "results[0].host_views[0].host: Field required"),
    ({"tries": [{"verdict": "great"}]}, "results[0].tries[0].verdict: "),
    ({"interop": {"codex": "yes"}}, "results[0].interop.codex: "),
    ({"colour": "red"}, "results[0].colour: Extra inputs are not permitted"),
]


@pytest.mark.parametrize(("change", "says"), ODD, ids=[says.split(":")[0] for _, says in ODD])
def test_an_odd_but_typed_upload_is_a_400_naming_the_place(bearer, change, says):
    report = probe_report()
    report["results"][0].update(change)
    answer = _send(report, bearer)
    assert answer.status_code == 400, answer.content[:300]
    assert answer.json()["error"].startswith(says), answer.json()["error"]
    assert not ProbeRun.objects.exists(), "a refused upload stores nothing"


def test_what_no_database_stores_is_a_400_and_too_big_a_413_in_json(bearer, settings):
    text = json.dumps(probe_report())
    for raw, says in (
        (text.replace('"failure": ""', '"failure": "\\ud800"', 1), "lone surrogate"),
        (text.replace('"duration_ms": ', '"duration_ms": NaN, "x": ', 1), "NaN"),
        (text.replace('"failure": ""', '"failure": "a\\u0000b"', 1), "NUL"),
        ('{"results": [', "not JSON"),
    ):
        answer = _send(raw, bearer)
        assert answer.status_code == 400, (says, answer.content[:200])
        assert says in answer.json()["error"], answer.json()["error"]
    assert not ProbeRun.objects.exists()
    settings.MAX_BODY_ANONYMOUS, settings.MAX_BODY_AUTHENTICATED = 500, 1000
    big = _send(text, bearer)
    assert big.status_code == 413
    assert big["Content-Type"].startswith("application/json")
    assert big.json()["status"] == 413


def test_the_published_upload_schema_is_the_one_the_upload_is_checked_against(client):
    document = client.get("/api/v1/openapi.json").json()
    body = document["paths"]["/api/v1/runs/upload/"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body["properties"]["results"]["items"] == {"$ref": "#/components/schemas/Result"}
    published = document["components"]["schemas"]["Result"]
    assert set(published["required"]) == {n for n, f in Result.model_fields.items() if f.is_required()}
    assert "Exchange" in document["components"]["schemas"]


# --- 6. a malformed result stored before the checks ------------------------------------------------


def test_pages_that_read_a_malformed_stored_result_stay_whole_and_say_so(bearer, proxy):
    report = probe_report()
    first = _send(report, bearer).json()["id"]
    second = _send(dict(report, note="second"), bearer).json()["id"]
    start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text"])
    # As an upload before this round could store them (written past the checks).
    ProbeResult.objects.filter(run_id=second).update(
        exchanges=["x"], dpcter=["x", {}], anchors=[1, "method:tools/call"], interop="no",
        findings=[{"message": "m", "row": "CT/01"}], host_views=[{}], tries=["x"], diff=[7],
    )  # fmt: skip
    result = ProbeResult.objects.filter(run_id=second).first()
    latest = ",".join(str(pk) for pk in ProbeRun.objects.values_list("pk", flat=True))
    pages = [
        f"/probes/results/{result.pk}/", f"/api/v1/results/{result.pk}/", f"/probes/runs/{second}/",
        f"/probes/runs/{second}/audit/", f"/probes/runs/{second}/audit/?format=csv",
        f"/probes/runs/{second}/audit/?format=json", f"/probes/compare/?a={first}&b={second}",
        f"/probes/compare/?run={first}&run={second}", "/probes/compare/?" + "&".join(f"run={pk}" for pk in latest.split(",")),
        f"/api/v1/compare/?run={first}&run={second}", f"/api/v1/runs/{second}/", proxy.get_absolute_url(), "/probes/",
    ]  # fmt: skip
    for path in pages:
        answer = Client().get(path)
        assert answer.status_code == 200, (path, answer.status_code)
    shown = Client().get(f"/probes/results/{result.pk}/").content.decode()
    assert "left out as malformed" in shown


def test_the_repair_takes_out_malformed_parts_and_keeps_a_whole_result_as_it_was():
    whole = probe_report()["results"][0]
    fields = {name: whole[name] for name in ("anchors", "findings", "exchanges", "dpcter", "host_views", "interop")}
    assert repaired(fields) == (fields, [])
    broken, problems = repaired(dict(fields, exchanges=[*fields["exchanges"], "x"], interop=[1]))
    assert broken["exchanges"] == fields["exchanges"]
    assert broken["interop"] == {}
    assert len(problems) == 2
    assert broken["findings"][-1]["message"].startswith("left out as malformed: interop")


# --- 7. a server killed right after the commit -------------------------------------------------------

KILLED_AFTER_RUN = """
import os, sys, django
django.setup()
from django.contrib.auth.models import User
from comparison.services import run_upload
from comparison.models import ProbeTarget
target = ProbeTarget.objects.get(name="myproxy")
def killed(run):
    os._exit(9)  # the server dies between the run's rows and its changes
run_upload.record_changes = killed
run_upload.store_uploaded_run(target=target, report={report}, user=User.objects.get(username="ci"), key="k")
"""


def test_a_server_killed_while_storing_an_upload_leaves_no_run_without_its_changes(lane_database):
    env = {"DATABASE_URL": lane_database, "DJANGO_SETTINGS_MODULE": "mcp_compare.settings"}
    script = "from comparison.models import ProbeTarget; from django.contrib.auth.models import User; "
    script += "t = ProbeTarget.objects.create(name='myproxy', transport='http', url='http://127.0.0.1:3301/mcp'); "
    script += "t.uploaders.add(User.objects.create_user('ci'))"
    manage("shell", "-c", script, env=env)
    report = probe_report()
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_AFTER_RUN.replace("{report}", repr(report))],
        cwd=PROJECT, env={**os.environ, **env}, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert killed.returncode == 9, killed.stderr[-2000:]
    count = "from comparison.models import ProbeRun; print(ProbeRun.objects.filter(uploaded=True).count())"
    assert manage("shell", "-c", count, env=env).strip().splitlines()[-1] == "0", "nothing half-made is kept"
