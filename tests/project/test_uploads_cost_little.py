"""Issue 53, item 2: a stored run or upload costs the pages only what it changed. A write of runs
alone keeps what reads no run (the data version's second token); the listings are keyed by what
the runs decide in them, so an upload that changes no row's evidence leaves their cached copies
good, and one that does is seen by the next request; a target page scores an ended run once."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from common.pagecache import bump_data_version, bump_runs_version, data_versions
from comparison.models import ProbeRun, ProbeTarget
from comparison.models.tokens import ApiToken
from comparison.services.probing import ensure_builtin_target
from comparison.tasks import start_run
from registers.loader import load_registers
from registers.models import Row
from tests.conftest import TEST_DATA
from tests.support.upload_reports import probe_report

pytestmark = pytest.mark.django_db
LISTINGS = ("/", "/matrix/?revision=2025-06-18", "/disagreements/")


def test_a_write_of_runs_alone_keeps_the_token_of_everything_else(db):
    target = ensure_builtin_target()
    everything, beside_runs = data_versions()
    start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    after_run = data_versions()
    assert after_run[0] != everything
    assert after_run[1] == beside_runs, "a run is a change of runs alone"
    bump_data_version()
    assert data_versions()[1] != beside_runs, "any other write changes both"


def test_a_row_saved_is_seen_by_the_listings_at_once(loaded):
    Client().get("/")
    row = Row.objects.get(register__slug="tools", row_id="TOOL-14")
    row.lead_html = row.lead_html.replace("</td>", " A fragment changed by hand</td>", 1)
    row.save()
    assert "A fragment changed by hand" in Client().get("/?register=tools").content.decode()


def _upload(target: ProbeTarget) -> ProbeRun:
    ci = User.objects.create_user("ci", password="pw-ci-0123456789")
    target.uploaders.add(ci)
    secret = ApiToken.issue(ci, "CI")[1]
    report = probe_report()
    report["results"][0]["verdict"] = "lost by proxy"
    answer = Client().post(
        "/api/v1/runs/upload/?target=myproxy", report, content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )  # fmt: skip
    assert answer.status_code == 201, answer.content
    return ProbeRun.objects.get(pk=answer.json()["id"])


def test_an_upload_that_changes_no_evidence_keeps_the_listings_and_one_that_does_is_seen(db):
    load_registers([TEST_DATA / "evidence.md"])
    proxy = ProbeTarget.objects.create(name="myproxy", transport="http", url="http://127.0.0.1:3301/mcp")
    visitor = Client()
    before = {url: visitor.get(url) for url in LISTINGS}
    assert "audio @ 2025-06-18" not in before["/disagreements/"].content.decode()
    _upload(proxy)  # not yet accepted: no row's evidence reads it
    for url, page in before.items():
        again = visitor.get(url, HTTP_IF_NONE_MATCH=page["ETag"])
        assert again.status_code == 304, f"{url}: an upload that changed no evidence kept its copy"
    start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["audio", "text"])
    changed = [url for url, page in before.items() if visitor.get(url)["ETag"] != page["ETag"]]
    assert changed == list(LISTINGS), "a run that changes the evidence changes every listing at once"
    assert "audio @ 2025-06-18" in visitor.get("/disagreements/").content.decode()


def test_a_target_page_scores_an_ended_run_once_and_a_new_run_at_once(db):
    target = ensure_builtin_target()
    first = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    page = Client().get(target.get_absolute_url()).content.decode()
    assert f"/probes/runs/{first.pk}/" in page
    bump_runs_version()
    with CaptureQueriesContext(connection) as again:
        Client().get(target.get_absolute_url())
    scored = [q["sql"] for q in again.captured_queries if '"comparison_proberesult"."interop"' in q["sql"]]
    assert scored == [], "an ended run's score is not read again"
    second = start_run(target=target, revisions=["2025-06-18", "2025-11-25"], scenarios=["text", "audio"])
    with CaptureQueriesContext(connection) as after:
        page = Client().get(target.get_absolute_url()).content.decode()
    scored = [q["sql"] for q in after.captured_queries if '"comparison_proberesult"."interop"' in q["sql"]]
    assert len(scored) == 1
    assert f"IN ({second.pk})" in scored[0], "only the new run's results are read"
    assert f"/probes/runs/{second.pk}/" in page


def test_an_export_of_ended_runs_is_kept_across_other_runs_and_an_active_run_is_not(db):
    target = ensure_builtin_target()
    a = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    b = start_run(target=target, revisions=["2025-06-18"], scenarios=["text", "audio"])
    other = ProbeTarget.objects.create(name="another", transport="http", url="http://127.0.0.1:3301/mcp")
    visitor = Client()
    urls = (f"/probes/compare/?run={a.pk}&run={b.pk}&format=json", f"/probes/runs/{b.pk}/audit/",
            f"/api/v1/compare/?run={a.pk}&run={b.pk}")  # fmt: skip
    first = {url: visitor.get(url) for url in urls}
    assert all(page.status_code == 200 for page in first.values())
    ProbeRun.objects.create(target=other, status=ProbeRun.DONE, revisions=["2025-06-18"])
    for url, page in first.items():
        assert visitor.get(url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304, url
    ProbeRun.objects.filter(pk=b.pk).update(status=ProbeRun.RUNNING)
    for url, page in first.items():
        assert visitor.get(url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 200, f"{url}: {b.pk} is active"


def test_pages_that_read_no_run_are_kept_across_runs_and_change_with_their_data(loaded):
    from django.core.management import call_command

    from tests.conftest import LAB_SNAPSHOT

    call_command("host_lab", "--load-snapshot", str(LAB_SNAPSHOT))
    target = ensure_builtin_target()
    urls = ("/registers/", "/registers/tools/", "/hosts/", "/hosts/codex/", "/hosts/compare/?a=codex&b=claude-code")
    visitor = Client()
    first = {url: visitor.get(url) for url in urls}
    start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    for url, page in first.items():
        assert visitor.get(url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304, url
    Row.objects.filter(register__slug="tools").first().save()
    for url, page in first.items():
        assert visitor.get(url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 200, f"{url}: a row saved is new data"


def test_the_pages_that_list_runs_to_choose_and_a_missing_run_are_never_kept_by_run(db):
    """The compare and grid pages list the latest runs to choose from: they are not cached by the
    runs they name; an export naming a run not there yet is keyed by the data version."""
    target = ensure_builtin_target()
    a = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    visitor = Client()
    assert visitor.get(f"/probes/compare/?run={a.pk}").status_code == 200
    b = start_run(target=target, revisions=["2025-06-18"], scenarios=["audio"])
    assert f"#{b.pk}" in visitor.get(f"/probes/compare/?run={a.pk}").content.decode(), "the picker shows the new run"
    from django.test import RequestFactory

    from comparison.selectors.stored_inputs import stored_runs_version

    named = RequestFactory().get("/", {"run": [a.pk, b.pk]})
    assert stored_runs_version(named), "two ended runs: keyed by them"
    assert stored_runs_version(RequestFactory().get("/", {"run": [a.pk, b.pk + 1000]})) is None, "one not there yet"
