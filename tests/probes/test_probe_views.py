"""Probe pages: permission and CSRF on runs, one run per target, progress, cancel, results and
the row pages (the real worker process is tested in tests/e2e/test_worker.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client

from comparison.models import ProbeResult, ProbeRun, ProbeTarget
from comparison.services.probing import RunRefused, ensure_builtin_target
from comparison.tasks import start_run
from tests.support.relay_targets import relay_target

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def prober(db):
    user = User.objects.create_user("prober", password="pw-prober-123")
    user.user_permissions.add(Permission.objects.get(codename="run_probe"))
    return User.objects.get(pk=user.pk)


@pytest.fixture
def target(db):
    return ensure_builtin_target()


def test_the_builtin_target_exists_from_the_first_migration(lane_database, client, db):
    # Read in a database just migrated, not the test database: a transactional test run before
    # this one in the same process flushes the row the migration made there.
    from tests.support import lane_db

    builtin = "SELECT COUNT(*) FROM comparison_probetarget WHERE builtin = %s"
    assert lane_db.query(lane_database, builtin, (True,)) == [(1,)]
    ensure_builtin_target()
    ensure_builtin_target()
    assert ProbeTarget.objects.filter(builtin=True).count() == 1
    html = client.get("/probes/").content.decode()
    assert "built-in fixture (stdio)" in html


def test_running_needs_login_permission_and_csrf(target, prober):
    url = f"/probes/targets/{target.pk}/run/"
    assert Client().post(url).status_code == 403
    nobody = Client()
    nobody.force_login(User.objects.create_user("nobody", password="pw-nobody-123"))
    assert nobody.post(url).status_code == 403
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(prober)
    assert strict.post(url, {"revision": ["2025-06-18"]}).status_code == 403
    assert ProbeRun.objects.count() == 0
    assert Client().get(url).status_code == 405


def test_run_a_probe_and_read_the_results(target, prober, loaded):
    client = Client()
    client.force_login(prober)
    page = client.get(f"/probes/targets/{target.pk}/").content.decode()
    assert "Run probe" in page
    response = client.post(
        f"/probes/targets/{target.pk}/run/",
        {"revision": ["2024-11-05", "2025-11-25"], "scenario": ["audio", "rpc-error"]},
    )
    run = ProbeRun.objects.get()
    assert response["Location"] == f"/probes/runs/{run.pk}/"
    assert (run.status, run.done, run.total, run.started_by) == ("done", 4, 4, prober)
    html = client.get(run.get_absolute_url()).content.decode()
    assert "invalid for revision" in html
    assert 'hx-trigger="every 1s"' not in html
    poll = client.get(run.get_absolute_url(), **HTMX)
    assert poll.status_code == 286, "htmx stops polling once the run is over"
    result = ProbeResult.objects.get(scenario="audio", requested_revision="2024-11-05")
    detail = client.get(result.get_absolute_url()).content.decode()
    assert "audio blocks exist from 2025-03-26" in detail
    assert "opencode v1 · direct" in detail
    assert 'class="highlight json"' in detail
    row = client.get("/registers/content-types/CT-03/").content.decode()
    assert "Latest probe results" in row
    assert result.get_absolute_url() in row


def test_one_active_run_per_target_and_cancel(target, prober):
    run = ProbeRun.objects.create(target=target, revisions=["2025-06-18"], scenarios=["text"], total=1)
    with pytest.raises(RunRefused, match="one probe at a time"):
        start_run(target=target, revisions=[], scenarios=[], user=prober)
    client = Client()
    client.force_login(prober)
    assert "Cancel run" in client.get(run.get_absolute_url()).content.decode()
    poll = client.get(run.get_absolute_url(), **HTMX)
    assert poll.status_code == 200
    assert 'hx-trigger="every 1s"' in poll.content.decode()
    client.post(f"/probes/runs/{run.pk}/cancel/")
    run.refresh_from_db()
    assert run.status == "cancelled"


def test_header_values_are_never_shown(db, admin_client):
    target = ProbeTarget.objects.create(
        name="secret proxy",
        transport="http",
        url="http://127.0.0.1:9/mcp",
        headers={"Authorization": "Bearer s3cret-token"},
    )
    assert "s3cret-token" not in Client().get(target.get_absolute_url()).content.decode()
    admin_page = admin_client.get(f"/admin/comparison/probetarget/{target.pk}/change/").content.decode()
    assert "s3cret-token" not in admin_page
    assert "Authorization" in admin_page


@pytest.mark.realhost
def test_real_host_lane_adds_the_opencode_capture(target, prober, monkeypatch):
    from types import SimpleNamespace

    from comparison import tasks

    # The lab's hosts through the target are a task of their own (tests/e2e/test_host_lab_through.py
    # runs it for real); here only that the run queues it.
    queued = []
    monkeypatch.setattr(tasks, "host_target_task", SimpleNamespace(enqueue=lambda *args: queued.append(args)))
    run = start_run(
        target=target, revisions=["2025-06-18"], scenarios=["text", "image", "rpc-error"], user=prober, real_host=True
    )
    assert run.real_host
    text = ProbeResult.objects.get(run=run, scenario="text")
    real = [view for view in text.host_views if view["key"] == "opencode-v1-real"]
    assert real
    assert real[0]["parts"][0]["text"] == "hello from the fixture"
    image = ProbeResult.objects.get(run=run, scenario="image").host_views[-1]
    assert image["attachments"] == [{"mime": "image/png", "bytes": 70}]
    rpc = ProbeResult.objects.get(run=run, scenario="rpc-error")
    assert all(view["key"] != "opencode-v1-real" for view in rpc.host_views), "a JSON-RPC error has no tool result"
    assert queued == [(target.pk, run.pk)]
    run.refresh_from_db()
    assert run.real_hosts == {"status": "queued"}


def test_a_prober_who_is_not_staff_logs_in_on_the_login_page(target, prober):
    client = Client(enforce_csrf_checks=True)
    page = client.get(f"/accounts/login/?next=/probes/targets/{target.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Log in" in html
    token = client.cookies["csrftoken"].value
    response = client.post(
        "/accounts/login/",
        {
            "username": "prober",
            "password": "pw-prober-123",
            "next": f"/probes/targets/{target.pk}/",
            "csrfmiddlewaretoken": token,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == f"/probes/targets/{target.pk}/"
    assert "Run probe" in client.get(f"/probes/targets/{target.pk}/").content.decode()
    assert 'href="/accounts/login/?next=' in Client().get("/").content.decode()
    wrong = Client().post("/accounts/login/", {"username": "prober", "password": "nope"})
    assert wrong.status_code == 200
    assert "Please enter a correct username and password" in wrong.content.decode()


def test_cancel_ends_a_running_run_at_once(target, prober):
    run = ProbeRun.objects.create(
        target=target, revisions=["2025-06-18"], scenarios=["text"], total=1, status="running"
    )
    client = Client()
    client.force_login(prober)
    client.post(f"/probes/runs/{run.pk}/cancel/")
    run.refresh_from_db()
    assert (run.status, run.cancel_requested) == ("cancelled", True)
    assert run.finished_at is not None
    start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])  # the target is free again
    done = ProbeRun.objects.create(target=target, status="done")
    client.post(f"/probes/runs/{done.pk}/cancel/")
    done.refresh_from_db()
    assert done.status == "done", "a final run stays as it ended"


def test_an_expired_lease_interrupts_the_run_and_frees_the_target(target, prober, settings):
    from datetime import timedelta

    from django.utils import timezone

    settings.RUN_LEASE_SECONDS = 5
    stale = timezone.now() - timedelta(seconds=6)
    run = ProbeRun.objects.create(
        target=target, revisions=["2025-06-18"], scenarios=["text"], total=1, status="running", heartbeat_at=stale
    )
    fresh = ProbeRun.objects.create(
        target=ProbeTarget.objects.create(name="other", transport="http", url="http://127.0.0.1:9/mcp"),
        status="running",
        heartbeat_at=timezone.now(),
    )
    page = Client().get(run.get_absolute_url()).content.decode()
    run.refresh_from_db()
    fresh.refresh_from_db()
    assert run.status == "interrupted"
    assert fresh.status == "running", "a live lease is left alone"
    assert "This run is <strong>interrupted</strong>" in page
    assert start_run(target=target, revisions=["2025-06-18"], scenarios=["text"]).status == "done"


def test_a_runner_crash_is_recorded_as_failed_never_done(target, prober, monkeypatch, caplog):
    from comparison.probes.run import play

    def crash(*args, **kwargs):
        raise RuntimeError("the runner broke")

    monkeypatch.setattr(play, "run_probe", crash)
    run = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"], user=prober)
    run.refresh_from_db()
    assert run.status == "failed"
    assert run.error == "RuntimeError: the runner broke"
    assert run.finished_at is not None
    assert "probe run" in caplog.text


def test_cancel_ends_only_that_run_and_says_whether_it_did(target):
    from comparison.services.probing import cancel_run

    other_target = ProbeTarget.objects.create(name="other", transport="http", url="http://127.0.0.1:9/mcp")
    run = ProbeRun.objects.create(target=target, status="running")
    other = ProbeRun.objects.create(target=other_target, status="queued")
    assert cancel_run(run=run) is True
    assert cancel_run(run=run) is False, "a run already ended"
    other.refresh_from_db()
    assert other.status == "queued"


def test_recovery_marks_the_task_of_an_interrupted_run_failed(target, settings):
    from datetime import timedelta

    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    from comparison.services.probing import recover_interrupted_runs

    settings.RUN_LEASE_SECONDS = 5
    now = timezone.now()

    def task_result(status: str, path: str, started_at, **fields) -> DBTaskResult:
        return DBTaskResult.objects.create(
            status=status,
            args_kwargs={"args": [], "kwargs": {}},
            task_path=path,
            backend_name="default",
            run_after=now,
            started_at=started_at,
            **fields,
        )

    task = task_result("RUNNING", "comparison.tasks.execute_run_task", now - timedelta(seconds=60), worker_ids=["gone"])
    untouched = task_result("RUNNING", "x.y", now, worker_ids=["alive"])
    run = ProbeRun.objects.create(
        target=target, status="running", task_id=str(task.id), heartbeat_at=now - timedelta(seconds=6)
    )
    # A run whose task already ended (the worker died after recording it): the task keeps its end.
    ended = task_result(
        "SUCCESSFUL",
        "comparison.tasks.execute_run_task",
        now - timedelta(seconds=60),
        finished_at=now - timedelta(seconds=30),
    )
    other_target = ProbeTarget.objects.create(name="other", transport="http", url="http://127.0.0.1:9/mcp")
    late = ProbeRun.objects.create(
        target=other_target, status="running", task_id=str(ended.id), heartbeat_at=now - timedelta(seconds=6)
    )
    assert sorted(recover_interrupted_runs(now=now)) == [run.pk, late.pk]
    ended.refresh_from_db()
    assert ended.status == "SUCCESSFUL", "a task that ended keeps its end"
    task.refresh_from_db()
    assert (task.status, task.exception_class_path) == ("FAILED", "comparison.services.probing.Interrupted")
    assert task.traceback == "interrupted by mcp-compare: the worker stopped renewing the run's lease"
    assert task.finished_at == now
    untouched.refresh_from_db()
    assert untouched.status == "RUNNING"
    run.refresh_from_db()
    assert run.finished_at == now
    assert run.error.startswith("interrupted: the worker stopped renewing its 5-second lease (last heartbeat ")
    assert recover_interrupted_runs(now=now) == [], "once"


def test_a_late_heartbeat_of_a_run_this_process_executes_is_not_an_interruption(target, settings):
    """A worker's own recovery thread must not end the run its own heartbeat is late for (a slow
    or busy database): only another process can tell that a worker died."""
    from datetime import timedelta

    from django.utils import timezone

    from comparison.services.leases import worker_name
    from comparison.services.probing import recover_interrupted_runs

    settings.RUN_LEASE_SECONDS = 5
    now = timezone.now()
    late = now - timedelta(seconds=60)
    own = ProbeRun.objects.create(target=target, status="running", heartbeat_at=late, worker=worker_name())
    other_target = ProbeTarget.objects.create(name="other", transport="http", url="http://127.0.0.1:9/mcp")
    dead = ProbeRun.objects.create(target=other_target, status="running", heartbeat_at=late, worker="gone:1")
    assert recover_interrupted_runs(now=now) == [dead.pk]
    own.refresh_from_db()
    assert own.status == "running"


def test_a_queued_run_whose_task_was_taken_and_lost_is_interrupted(target, settings):
    from datetime import timedelta

    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    from comparison.services.probing import recover_interrupted_runs

    settings.RUN_LEASE_SECONDS = 5
    now = timezone.now()
    old = now - timedelta(seconds=60)
    lost = DBTaskResult.objects.create(
        status="RUNNING",
        args_kwargs={"args": [], "kwargs": {}},
        task_path="x",
        backend_name="default",
        run_after=old,
        started_at=old,
    )
    waiting = DBTaskResult.objects.create(
        status="READY", args_kwargs={"args": [], "kwargs": {}}, task_path="x", backend_name="default", run_after=old
    )
    run = ProbeRun.objects.create(target=target, status="queued", task_id=str(lost.id))
    ProbeRun.objects.filter(pk=run.pk).update(created=old)
    other_target = ProbeTarget.objects.create(name="other", transport="http", url="http://127.0.0.1:9/mcp")
    queued = ProbeRun.objects.create(target=other_target, status="queued", task_id=str(waiting.id))
    ProbeRun.objects.filter(pk=queued.pk).update(created=old)
    assert recover_interrupted_runs(now=now) == [run.pk]
    queued.refresh_from_db()
    assert queued.status == "queued", "a task still waiting for a worker is not lost"
    run.refresh_from_db()
    assert "never started by a worker" in run.error


def test_worker_heartbeats_keep_the_start_refresh_the_sighting_and_forget_day_old_workers(db):
    from datetime import timedelta

    from django.utils import timezone

    from comparison.models import WorkerHeartbeat
    from comparison.services.leases import worker_alive

    started = timezone.now() - timedelta(hours=1)
    worker_alive("host:1", started_at=started)
    first = WorkerHeartbeat.objects.get(name="host:1")
    assert first.started_at == started
    worker_alive("host:1")
    again = WorkerHeartbeat.objects.get(name="host:1")
    assert again.started_at == started, "a later beat keeps when the worker started"
    assert again.seen_at > first.seen_at
    WorkerHeartbeat.objects.filter(name="host:1").update(seen_at=timezone.now() - timedelta(days=1, minutes=1))
    worker_alive("host:2")
    assert list(WorkerHeartbeat.objects.values_list("name", flat=True)) == ["host:2"]
    worker_alive("host:3")
    assert WorkerHeartbeat.objects.get(name="host:3").started_at is not None
    assert WorkerHeartbeat.objects.count() == 2, "a worker seen within the day is kept"


@pytest.mark.django_db(transaction=True)
def test_a_heartbeat_renews_the_lease_and_notices_a_run_that_stopped_being_its_own(target):
    import time

    from comparison.services.leases import Heartbeat

    run = ProbeRun.objects.create(target=target, status="running")
    other_target = ProbeTarget.objects.create(name="other", transport="http", url="http://127.0.0.1:9/mcp")
    other = ProbeRun.objects.create(target=other_target, status="running")
    assert run.heartbeat_at is None
    with Heartbeat(run.pk, every=0.05) as heartbeat:
        deadline = time.monotonic() + 10
        while ProbeRun.objects.get(pk=run.pk).heartbeat_at is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ProbeRun.objects.get(pk=run.pk).heartbeat_at is not None, "the lease was renewed"
        assert not heartbeat.lost.is_set()
        assert ProbeRun.objects.get(pk=other.pk).heartbeat_at is None, "only its own run's lease"
        ProbeRun.objects.filter(pk=run.pk).update(status="cancelled")
        assert heartbeat.lost.wait(timeout=10), "the run is no longer running: the heartbeat says so"
    assert not heartbeat._thread.is_alive(), "the thread ended with the block"


@pytest.mark.django_db
def test_an_absent_field_says_absent_and_each_host_says_whether_it_was_affected(client):
    """Issue 26, a first-time user's row 7."""
    decorated = start_run(target=relay_target("decorate-lists"), revisions=["2025-06-18"], scenarios=["tools-list"])
    assert decorated.status == "done", decorated.error
    added = decorated.results.get(scenario="tools-list")
    html = client.get(added.get_absolute_url()).content.decode()
    diff_row = html[html.index("<code>result.tools[name=text].title</code>") :].split("</tr>")[0]
    assert "<td>added</td>" in diff_row
    assert '<span class="muted">absent</span>' in diff_row, 'the upstream sent no title: absent, never ""'

    run = start_run(target=relay_target("is-error"), revisions=["2025-06-18"], scenarios=["text", "is-error"])
    assert run.status == "done", run.error
    # `isError: false` where the upstream sent none is the schema's default: the same answer.
    assert run.results.get(scenario="text").verdict == "as expected"
    lost = run.results.get(scenario="is-error")
    html = client.get(lost.get_absolute_url()).content.decode()
    assert affected_hosts(html) == {host for host, same in lost.interop.items() if not same}
    assert set(host_lines(html)) == set(lost.interop) - {"mcpx"}, "one line per scored host: the subject is none"
    affected = affected_hosts(html)
    assert {"opencode-v2", "claude-code", "gemini-cli"} <= affected, "a tool error turned success reaches the model"
    # The lab measured Codex CLI and opencode dropping the flag: their models never saw it.
    assert not {"codex", "opencode-v1"} & affected


def host_lines(html: str) -> dict[str, str]:
    block = html[html.index('class="host-lines"') :].split("</ul>")[0]
    return {line.split('"')[1]: line for line in block.split("<li data-host=")[1:]}


def affected_hosts(html: str) -> set[str]:
    lines = host_lines(html)
    for line in lines.values():
        assert ("affected</strong>, gets something other" in line) != ("not affected</span>, gets what" in line)
    return {host for host, line in lines.items() if "affected</strong>" in line}


@pytest.mark.django_db
def test_a_run_and_its_results_use_one_naming(client):
    """Issue 26, a first-time user's row 15."""
    run = start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text"])
    listed = client.get(f"/api/v1/runs/{run.pk}/").json()["results"][0]
    detail = client.get(listed["url"]).json()
    shared = {"scenario", "family", "requested_revision", "negotiated_revision", "verdict"}
    assert shared <= set(listed)
    assert {key: listed[key] for key in shared} == {key: detail[key] for key in shared}
    assert not {"revision", "negotiated"} & set(listed)


def test_the_run_page_names_the_cells_where_a_modelled_host_differs():
    """Issue 52, a newcomer's item 3."""
    run = start_run(target=relay_target("is-error"), revisions=["2025-06-18"], scenarios=["is-error", "text"])
    assert run.status == "done", run.error
    differing = run.results.get(scenario="is-error")
    assert False in differing.interop.values(), "the relay turns the error flag: some host sees another result"
    page = Client().get(run.get_absolute_url()).content.decode()
    table = page.split('id="host-interop-table"', 1)[1].split("</table>", 1)[0]
    assert f'<a href="/probes/results/{differing.pk}/"><code>is-error</code> @ 2025-06-18</a>' in table
    same = [host for host, kept in differing.interop.items() if kept]
    assert table.count("<code>is-error</code> @ 2025-06-18") == len(differing.interop) - len(same)


def test_a_result_page_puts_what_the_proxy_did_first_and_counts_every_difference():
    """Issue 52, a newcomer's item 4."""
    run = start_run(target=relay_target("decorate-lists"), revisions=["2025-06-18"], scenarios=["tools-list"])
    assert run.status == "done", run.error
    result = run.results.get()
    tools = len(result.exchanges[-1]["response"]["result"]["tools"])
    assert len(result.diff) == 2 * tools > 40, "each tool gets _meta and a title: every change is kept"
    page = Client().get(result.get_absolute_url()).content.decode()
    did, hosts, table = (page.index(f'id="{h}"') for h in ("kinds-h", "hosts-h", "diff-h"))
    assert did < table, "what the proxy did comes before the field-by-field table"
    assert hosts < table, "and what each host would see too"
    assert f"{len(result.diff)} differences from the fixture probed directly, of 2 kinds" in page
    assert f"<code>result.tools[…]._meta</code> added <strong>× {tools}</strong>" in page
    assert f"<summary>and {len(result.diff) - 40} more</summary>" in page
    assert page.count("<tr><td><code>result.tools[name=") == len(result.diff)
    from language.vocabulary import SCORED_HOSTS

    affected = [host for host, kept in result.interop.items() if not kept and host in SCORED_HOSTS]
    assert affected, "the decorations reach some host"
    for host in affected:
        assert f'<li data-host="{host}">' in page
    api = Client().get(f"/api/v1/results/{result.pk}/").json()
    assert len(api["diff"]) == len(result.diff)


@pytest.mark.django_db
def test_the_built_in_fixtures_own_run_says_its_invalid_cells_are_deliberate(client):
    """A newcomer following the README (the 'ready for a team' report)."""
    from comparison.models import ProbeResult

    run = start_run(target=ensure_builtin_target(), revisions=["2024-11-05"], scenarios=["text", "audio"])
    assert ProbeResult.objects.filter(run=run, verdict="invalid for revision").exists()
    html = client.get(run.get_absolute_url()).content.decode()
    assert 'id="fixture-invalid-note"' in html
    assert "on purpose" in html
