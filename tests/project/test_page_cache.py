"""Cached pages: a visitor's page comes from the cache until the data version changes; a reload
with the page's ETag is a 304; logged-in users are never served a visitor's page."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from common.pagecache import bump_data_version, data_version
from comparison.services.probing import ensure_builtin_target
from comparison.tasks import execute_run_task, start_run
from registers.loader import load_registers
from tests.conftest import TEST_DATA
from tests.support.register_text import register_text

pytestmark = pytest.mark.django_db
URL = "/?revision=2025-06-18&host=opencode-v1&host_mode=lacks"


def queries(client, url: str, **headers) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)
    return len(captured), response


def test_a_visitor_gets_the_cached_page_with_one_query(loaded, client):
    first_count, first = queries(client, URL)
    second_count, second = queries(client, URL)
    assert first.status_code == second.status_code == 200
    assert second.content == first.content
    assert second_count == 1, "only the data version is read"
    assert first_count > second_count
    assert second["ETag"] == first["ETag"]
    assert "HX-Request" in second["Vary"]


def test_fragments_and_pages_are_cached_apart(loaded, client):
    page = client.get(URL)
    fragment = client.get(URL, HTTP_HX_REQUEST="true")
    again = client.get(URL, HTTP_HX_REQUEST="true")
    assert b"<html" in page.content
    assert b"<html" not in fragment.content
    assert again.content == fragment.content
    assert again["HX-Push-Url"] == fragment["HX-Push-Url"]
    assert page["ETag"] != fragment["ETag"]


def test_a_reload_with_the_etag_is_a_304(loaded, client):
    etag = client.get(URL)["ETag"]
    count, response = queries(client, URL, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304
    assert response.content == b""
    assert count == 1


def test_every_kind_of_write_changes_the_version_and_the_page(client, tmp_path):
    path = tmp_path / "cached.md"
    path.write_text(register_text(2), encoding="utf-8")
    load_registers([path])
    before = client.get("/registers/cached/TT-01/")
    etag, version = before["ETag"], data_version()

    path.write_text(register_text(2).replace("a `text` thing", "a changed thing"), encoding="utf-8")
    load_registers([path])
    after_load = client.get("/registers/cached/TT-01/")
    assert "a changed thing" in after_load.content.decode()
    assert after_load["ETag"] != etag
    assert data_version() != version

    version = data_version()
    start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text"])
    assert data_version() != version, "a probe run changes what row pages show"

    version = data_version()
    load_registers([path])
    assert data_version() == version, "an unchanged reload writes nothing"


def test_logged_in_users_are_never_served_a_visitors_page(loaded, client, admin_client):
    client.get("/registers/content-types/")
    count, page = queries(admin_client, "/registers/content-types/")
    assert count > 1, "rendered for the user"
    assert "Log out admin" in page.content.decode()
    assert client.get("/registers/content-types/")["ETag"] != page["ETag"]


def test_a_page_after_a_bump_is_rendered_again(loaded, client):
    queries(client, "/matrix/")
    bump_data_version()
    count, _ = queries(client, "/matrix/")
    assert count > 2


def test_the_promises_register_pages_come_from_the_cache_identically(db, client):
    load_registers([TEST_DATA / "promises.md"])
    for url in ("/", "/?host=mcpx&host_mode=lacks", "/matrix/?revision=2024-11-05&rev_mode=unknown"):
        assert client.get(url).content == client.get(url).content


def test_healthz_reports_the_database_and_the_newest_worker(db, client):
    from comparison.services.leases import worker_alive

    body = client.get("/healthz").json()
    assert body == {
        "status": "ok",
        "database": "ok",
        "workers_seen": 0,
        "newest_worker_heartbeat_seconds": None,
        "stuck_runs": [],
    }
    worker_alive("host:123")
    body = client.get("/healthz").json()
    assert body["workers_seen"] == 1
    assert 0 <= body["newest_worker_heartbeat_seconds"] < 5
    assert "no-cache" in client.get("/healthz")["Cache-Control"]


def test_healthz_is_degraded_while_a_run_outlives_its_deadline(db, client, settings):
    """Issue 21 row 1: a worker stuck in a run used to leave /healthz saying ok."""
    from datetime import timedelta

    from django.utils import timezone

    from comparison.models import ProbeRun
    from comparison.services.probing import ensure_builtin_target

    settings.RUN_DEADLINE_SECONDS, settings.RUN_LEASE_SECONDS = 300, 30
    target = ensure_builtin_target()
    run = ProbeRun.objects.create(target=target, revisions=[], scenarios=[], total=1, status=ProbeRun.RUNNING)
    ProbeRun.objects.filter(pk=run.pk).update(started_at=timezone.now() - timedelta(seconds=380), worker="w:1")
    assert client.get("/healthz").json()["status"] == "ok", "within deadline + launch + two leases (390 s)"
    ProbeRun.objects.filter(pk=run.pk).update(started_at=timezone.now() - timedelta(seconds=400))
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "degraded"
    assert response.json()["stuck_runs"] == [{"run": run.pk, "worker": "w:1"}]
    settings.RUN_DEADLINE_SECONDS = 0
    assert client.get("/healthz").json()["status"] == "ok", "no deadline, nothing to call stuck"


def test_a_claimed_run_is_running_on_the_api_before_its_first_result(db, client, monkeypatch):
    """Issue 21 row 6: claiming a run did not change the data version, so /api/v1/runs/<id>/ kept
    answering its cached "queued" (and 304 to its ETag) until the first result was saved."""
    from comparison.models import ProbeRun
    from comparison.probes.run import play
    from comparison.services import probing

    target = probing.ensure_builtin_target()
    run = ProbeRun.objects.create(target=target, revisions=["2025-06-18"], scenarios=["text"], total=1)
    url = f"/api/v1/runs/{run.pk}/"
    queued = client.get(url)
    assert queued.json()["status"] == "queued"
    seen = {}
    real_run_probe = play.run_probe

    def observed(*args, **kwargs):
        # Claimed, nothing probed yet: what a visitor polling the run is told now.
        again = client.get(url, HTTP_IF_NONE_MATCH=queued["ETag"])
        seen["status_code"], seen["status"] = again.status_code, again.json()["status"]
        return real_run_probe(*args, **kwargs)

    monkeypatch.setattr(play, "run_probe", observed)
    execute_run_task.call(run.pk)  # as a worker runs it
    assert seen == {"status_code": 200, "status": "running"}
    assert client.get(url).json()["status"] == "done"
    run.refresh_from_db()
    assert run.error == "", "a run that was neither stopped nor late says nothing went wrong"


def test_an_upgrade_that_changes_code_but_not_data_is_never_served_old_pages(loaded, client, monkeypatch):
    """Issue 32, row 7: the page cache and ETags are keyed by the code's version too."""
    from common import pagecache

    before = client.get(URL)
    monkeypatch.setattr(pagecache, "code_version", lambda: "upgraded-code-0000")
    count, after = queries(client, URL, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200, "an ETag from the old code is not a 304"
    assert after["ETag"] != before["ETag"]
    assert count > 1, "rendered again by the new code, not read from the cache"


def test_the_code_version_follows_every_template_and_module(tmp_path):
    from common.pagecache import code_digest

    (tmp_path / "templates").mkdir()
    page = tmp_path / "templates" / "page.html"
    page.write_text("<p>old</p>", encoding="utf-8")
    (tmp_path / "templates" / "notes.bin").write_bytes(b"not code")
    first = code_digest([tmp_path / "templates"])
    (tmp_path / "templates" / "notes.bin").write_bytes(b"still not code")
    assert code_digest([tmp_path / "templates"]) == first
    page.write_text("<p>new</p>", encoding="utf-8")
    assert code_digest([tmp_path / "templates"]) != first


def test_the_code_version_reads_no_installed_package(tmp_path):
    """The host lab's node_modules (15,000 files) made each new server process read for seconds
    before its first cached page (issue 53)."""
    from common.pagecache import code_digest

    installed = tmp_path / "hostlab" / "node" / "node_modules" / "a-package"
    installed.mkdir(parents=True)
    (tmp_path / "hostlab" / "node" / "package.json").write_text("{}", encoding="utf-8")
    (installed / "index.js").write_text("old", encoding="utf-8")
    first = code_digest([tmp_path / "hostlab"])
    (installed / "index.js").write_text("new", encoding="utf-8")
    assert code_digest([tmp_path / "hostlab"]) == first
    (tmp_path / "hostlab" / "node" / "package.json").write_text('{"a": 1}', encoding="utf-8")
    assert code_digest([tmp_path / "hostlab"]) != first, "the lab's own package file is code"


def test_the_code_version_reads_every_package_that_makes_a_page():
    """A package missing from the code roots serves pages cached by its old code after a change
    (the project and the evidence layer were, once they moved out of the apps)."""
    from common.pagecache import CODE_ROOTS, PROJECT

    packages = {path.parent.name for path in PROJECT.glob("*/__init__.py")} - {"tests", "bench"}
    assert packages - set(CODE_ROOTS) == set()
    assert {"templates", "static"} <= set(CODE_ROOTS)


def test_logged_in_users_share_one_listing_copy_each_with_their_own_navigation(loaded, page_cache, client):
    """Issue 37, item 8: a team's logged-in load was rendered anew for every request."""
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    User.objects.create_user("alice", password="pw-alice-12345")
    User.objects.create_user("bob", password="pw-bob-12345")
    User.objects.create_user("carol", password="pw-carol-12345", is_staff=True)
    alice, bob, carol = Client(), Client(enforce_csrf_checks=True), Client()
    alice.login(username="alice", password="pw-alice-12345")
    bob.login(username="bob", password="pw-bob-12345")
    carol.login(username="carol", password="pw-carol-12345")
    first = alice.get("/matrix/?risk=high").content.decode()
    with CaptureQueriesContext(connection) as served:
        second = bob.get("/matrix/?risk=high").content.decode()
    assert "Log out alice" in first
    assert "Log out bob" not in first
    assert "Log out bob" in second
    assert "Log out alice" not in second
    staff = carol.get("/matrix/?risk=high").content.decode()
    assert 'href="/admin/"' in staff, "a staff user's own copy (another permission profile)"
    assert 'href="/admin/"' not in first + second
    assert "mcp-compare:user-nav" not in first + second
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', second).group(1)
    assert bob.post("/accounts/logout/", {"csrfmiddlewaretoken": token}).status_code == 302, "bob's own token"
    render_queries = [q for q in served.captured_queries if "registers_row" in q["sql"]]
    assert render_queries == [], "bob's page came from the copy alice's request made"
    assert first.split("</header>")[1] == second.split("</header>")[1]
