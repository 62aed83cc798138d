"""Scheduled runs: a schedule fires under a real `manage.py probe_worker` (the Tasks API's deferred
tasks, no cron), twice, and the second run records what changed since the first; a late or
duplicated tick runs its slot once."""

from __future__ import annotations

import json
import sys

import pytest
from django.utils import timezone

from comparison.models import ProbeRun, ProbeSchedule, ProbeTarget
from comparison.services.probing import ensure_builtin_target
from comparison.tasks import arm, fire, start_run
from tests.support import lane_db
from tests.support.processes import manage, running, wait_for

RUNS = "SELECT id, status, schedule_id, previous_run_id, changes FROM comparison_proberun ORDER BY id"


def test_a_schedule_fires_twice_under_a_real_worker_and_records_the_change_list(lane_database, tmp_path):
    env = {
        "DATABASE_URL": lane_database,
        "MCP_COMPARE_TASK_BACKEND": "django_tasks_db.DatabaseBackend",
        # Two ticks within the test: the minimum interval is lowered for it.
        "MCP_COMPARE_SCHEDULE_MIN_SECONDS": "1",
    }
    code = (
        "from comparison.services.probing import ensure_builtin_target; from comparison.models import ProbeSchedule; "
        "from comparison.tasks import arm; "
        "s = ProbeSchedule.objects.create(target=ensure_builtin_target(), every_seconds=2, "
        "revisions=['2025-06-18'], scenarios=['text']); print(arm(schedule=s))"
    )
    assert manage("shell", "-c", code, env=env).split()[-1] == "True"
    command = [sys.executable, "manage.py", "probe_worker", "--interval", "0.2", "--no-startup-delay"]
    with running(command, env=env, log=tmp_path / "worker.log"):
        first = wait_for(
            lambda: [r for r in lane_db.query(lane_database, RUNS) if r[1] == "done"], 60, "a first scheduled run"
        )[0]
        # The next slot probes one more scenario: the second run has a cell the first had not.
        update = (
            "from comparison.models import ProbeSchedule; ProbeSchedule.objects.update(scenarios=['text', 'audio'])"
        )
        manage("shell", "-c", update, env=env)

        # A tick that read the schedule before the update may still start a run after it: the run
        # to look at is the first whose own scenarios include the new one, compared with the run
        # before it.
        def first_with_audio():
            with_audio = [
                pk
                for pk, scenarios in lane_db.query(lane_database, "SELECT id, scenarios FROM comparison_proberun")
                if "audio" in (scenarios if isinstance(scenarios, list) else json.loads(scenarios))
            ]
            runs = {r[0]: r for r in lane_db.query(lane_database, RUNS)}
            if not with_audio:
                return None
            run = runs[min(with_audio)]
            # Done, and its change list written (a moment after it turns done).
            return run if run[1] == "done" and run[3] is not None else None

        second = wait_for(first_with_audio, 60, "the first scheduled run with the new scenario")
        before = max(r[0] for r in lane_db.query(lane_database, RUNS) if r[0] < second[0] and r[1] == "done")
    assert first[2] is not None
    assert second[2] == first[2], "both runs belong to the schedule"
    assert second[3] == before, "it is compared with the run before it"
    changes = second[4] if isinstance(second[4], list) else json.loads(second[4])
    assert changes == [
        {"scenario": "audio", "revision": "2025-06-18", "status": "added", "before": "", "after": "as expected"}
    ]
    log = (tmp_path / "worker.log").read_text()
    assert "Traceback" not in log


@pytest.fixture
def deferring(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


def pending_ticks() -> list[list]:
    """The arguments (schedule id, token) of every tick not yet run."""
    from django_tasks_db.models import DBTaskResult

    ticks = DBTaskResult.objects.filter(task_path="comparison.tasks.schedule_tick_task", status="READY")
    return [tick.args_kwargs["args"] for tick in ticks.order_by("enqueued_at")]


def test_a_late_or_duplicated_tick_runs_its_slot_once(db, deferring, django_capture_on_commit_callbacks):
    schedule = ProbeSchedule.objects.create(target=ensure_builtin_target(), every_seconds=3600, scenarios=["text"])
    with django_capture_on_commit_callbacks(execute=True):
        assert arm(schedule=schedule, at=timezone.now() - timezone.timedelta(hours=5))  # five slots missed
    token = ProbeSchedule.objects.get(pk=schedule.pk).token
    assert pending_ticks() == [[schedule.pk, token]], "one pending tick whatever the slots missed"
    with django_capture_on_commit_callbacks(execute=True):
        assert fire(schedule_id=schedule.pk, token=token).startswith("started run")
    assert fire(schedule_id=schedule.pk, token=token) == "stale tick: nothing to do"
    successor = ProbeSchedule.objects.get(pk=schedule.pk).token
    assert pending_ticks() == [[schedule.pk, token], [schedule.pk, successor]], "one successor, the only live one"
    assert ProbeRun.objects.filter(schedule=schedule).count() == 1
    schedule.refresh_from_db()
    assert 3590 < (schedule.next_run_at - timezone.now()).total_seconds() <= 3600, "an interval from now"
    assert schedule.token
    assert schedule.token != token


def test_a_schedule_asking_for_the_conformance_suite_starts_runs_that_ask_for_it(db, deferring):
    schedule = ProbeSchedule.objects.create(
        target=ensure_builtin_target(), every_seconds=3600, scenarios=["text"], conformance=True
    )
    arm(schedule=schedule)
    assert fire(schedule_id=schedule.pk, token=ProbeSchedule.objects.get(pk=schedule.pk).token).startswith("started")
    assert ProbeRun.objects.get(schedule=schedule).conformance is True


def test_a_schedule_asking_for_the_real_hosts_starts_runs_that_ask_for_them(db, deferring, admin_client):
    target = ensure_builtin_target()
    schedule = ProbeSchedule.objects.create(target=target, every_seconds=3600, scenarios=["text"], real_hosts=True)
    arm(schedule=schedule)
    assert fire(schedule_id=schedule.pk, token=ProbeSchedule.objects.get(pk=schedule.pk).token).startswith("started")
    assert ProbeRun.objects.get(schedule=schedule).real_host is True
    assert (
        'name="real_hosts"'
        in admin_client.get(f"/admin/comparison/probeschedule/{schedule.pk}/change/").content.decode()
    )
    assert "with the real hosts" in admin_client.get(target.get_absolute_url()).content.decode()


def test_a_busy_target_skips_the_slot_and_a_disabled_schedule_does_nothing(db, deferring):
    target = ensure_builtin_target()
    schedule = ProbeSchedule.objects.create(target=target, every_seconds=60)
    ProbeRun.objects.create(target=target, status=ProbeRun.RUNNING, heartbeat_at=timezone.now(), worker="elsewhere")
    arm(schedule=schedule)
    message = fire(schedule_id=schedule.pk, token=ProbeSchedule.objects.get(pk=schedule.pk).token)
    assert message.startswith("skipped: ")
    assert "already has a run in progress" in message
    ProbeSchedule.objects.filter(pk=schedule.pk).update(enabled=False)
    assert (
        fire(schedule_id=schedule.pk, token=ProbeSchedule.objects.get(pk=schedule.pk).token)
        == "stale tick: nothing to do"
    )


def test_the_target_and_run_pages_say_what_changed_since_the_last_run(db, client):

    target = ensure_builtin_target()
    first = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    second = start_run(target=target, revisions=["2025-06-18", "2025-11-25"], scenarios=["text"])
    second.refresh_from_db()
    assert second.previous_run_id == first.pk
    assert second.changes == [
        {"scenario": "text", "revision": "2025-11-25", "status": "added", "before": "", "after": "as expected"}
    ]
    page = client.get(target.get_absolute_url()).content.decode()
    assert "<strong>1 cell changed</strong>" in page
    assert "text @ 2025-11-25: added" in page
    assert "<strong>1 cell changed</strong>" in client.get(second.get_absolute_url()).content.decode()
    data = client.get(f"/api/v1/runs/{second.pk}/").json()
    assert data["previous_run"] == first.pk
    assert data["changes_since_previous"] == second.changes
    unchanged = start_run(target=target, revisions=["2025-06-18", "2025-11-25"], scenarios=["text"])
    unchanged.refresh_from_db()
    assert unchanged.changes == [], "the fixture answers the same twice"


def test_a_schedule_below_the_minimum_interval_is_refused_and_never_ticks_faster(db, deferring, admin_client):
    """Issue 21 row 8: a schedule every 1 s was accepted (about 45 full runs a minute)."""
    target = ensure_builtin_target()
    response = admin_client.post(
        "/admin/comparison/probeschedule/add/",
        {"target": target.pk, "every_seconds": "1", "revisions": "[]", "scenarios": "[]", "enabled": "on"},
    )
    assert response.status_code == 200, "the form comes back with the error"
    assert "At least 300 s (MCP_COMPARE_SCHEDULE_MIN_SECONDS)" in response.content.decode()
    assert not ProbeSchedule.objects.exists()
    # One written around the form still ticks no faster than the minimum.
    schedule = ProbeSchedule.objects.create(target=target, every_seconds=1, scenarios=["text"])
    arm(schedule=schedule)
    fire(schedule_id=schedule.pk, token=ProbeSchedule.objects.get(pk=schedule.pk).token)
    schedule.refresh_from_db()
    assert 290 < (schedule.next_run_at - timezone.now()).total_seconds() <= 300


def test_the_worker_keeps_the_newest_scheduled_runs_and_every_run_started_by_hand(db, settings):
    from comparison.tasks import execute_run_task

    settings.SCHEDULE_KEEP_RUNS = 3
    target = ensure_builtin_target()
    schedule = ProbeSchedule.objects.create(target=target, every_seconds=3600)
    old = [
        ProbeRun.objects.create(target=target, schedule=schedule, status=ProbeRun.DONE, total=0).pk for _ in range(4)
    ]
    by_hand = ProbeRun.objects.create(target=target, status=ProbeRun.DONE, total=0).pk
    newest = ProbeRun.objects.create(
        target=target, schedule=schedule, revisions=["2025-06-18"], scenarios=["text"], total=1
    )
    execute_run_task.call(newest.pk)  # as a worker runs it
    kept = set(ProbeRun.objects.values_list("pk", flat=True))
    assert kept == {old[2], old[3], newest.pk, by_hand}, "the newest three scheduled runs, and the one by hand"
    assert newest.results.count() == 1


def test_a_keep_given_to_the_pruning_wins_over_the_setting(db, settings):
    from comparison.services.retention import prune_scheduled_runs

    settings.SCHEDULE_KEEP_RUNS = 100
    target = ensure_builtin_target()
    schedule = ProbeSchedule.objects.create(target=target, every_seconds=3600)
    runs = [ProbeRun.objects.create(target=target, schedule=schedule, status=ProbeRun.DONE).pk for _ in range(3)]
    assert prune_scheduled_runs(target_id=target.pk, keep=1) == 2
    assert list(ProbeRun.objects.values_list("pk", flat=True)) == [runs[-1]]
    assert prune_scheduled_runs(target_id=target.pk, keep=0) == 0, "0 keeps every run"
    assert prune_scheduled_runs(target_id=target.pk, keep=5) == 0, "nothing beyond the newest five"
    other = ProbeTarget.objects.create(name="other", transport="stdio", command=["x"])
    theirs = ProbeSchedule.objects.create(target=other, every_seconds=3600)
    kept = [ProbeRun.objects.create(target=other, schedule=theirs, status=ProbeRun.DONE).pk for _ in range(2)]
    assert prune_scheduled_runs(target_id=target.pk, keep=1) == 0
    assert set(ProbeRun.objects.filter(target=other).values_list("pk", flat=True)) == set(kept), "only its own runs"


def test_arm_missing_arms_enabled_schedules_without_a_tick_and_disarm_clears_one(
    db, deferring, django_capture_on_commit_callbacks
):
    from django_tasks_db.models import DBTaskResult

    from comparison.tasks import arm_missing, disarm

    later = timezone.now() + timezone.timedelta(hours=2)
    first, second, third = (
        ProbeTarget.objects.create(name=f"t{n}", transport="stdio", command=["x"]) for n in range(3)
    )
    waiting = ProbeSchedule.objects.create(target=first, every_seconds=3600, next_run_at=later)
    off = ProbeSchedule.objects.create(target=second, every_seconds=3600, enabled=False)
    ticking = ProbeSchedule.objects.create(target=third, every_seconds=3600, token="live")
    with django_capture_on_commit_callbacks(execute=True):
        assert arm_missing() == [waiting.pk], "only an enabled schedule without a pending tick"
    waiting.refresh_from_db()
    assert waiting.token
    assert waiting.next_run_at == later, "armed for the slot it had"
    tick = DBTaskResult.objects.get(task_path="comparison.tasks.schedule_tick_task")
    assert tick.args_kwargs["args"] == [waiting.pk, waiting.token]
    assert tick.run_after == later
    assert ProbeSchedule.objects.get(pk=off.pk).token == ""
    assert ProbeSchedule.objects.get(pk=ticking.pk).token == "live"
    disarm(schedule=waiting)
    waiting.refresh_from_db()
    assert (waiting.token, waiting.next_run_at) == ("", None)
    assert ProbeSchedule.objects.get(pk=ticking.pk).token == "live", "only that schedule"


def test_a_tick_records_when_it_fired_and_what_it_did(db, deferring):
    schedule = ProbeSchedule.objects.create(target=ensure_builtin_target(), every_seconds=3600, scenarios=["text"])
    arm(schedule=schedule)
    message = fire(schedule_id=schedule.pk, token=ProbeSchedule.objects.get(pk=schedule.pk).token)
    schedule.refresh_from_db()
    assert schedule.last_message == message
    assert message == f"started run {ProbeRun.objects.get().pk}"
    assert (timezone.now() - schedule.last_fired_at).total_seconds() < 60


def test_arming_needs_a_backend_that_can_defer(db):
    schedule = ProbeSchedule.objects.create(target=ensure_builtin_target(), every_seconds=3600)
    assert arm(schedule=schedule) is False, "the tests' immediate backend cannot defer a task"
    schedule.refresh_from_db()
    assert (schedule.token, schedule.next_run_at) == ("", None)


def test_a_schedule_saved_below_a_raised_minimum_shows_what_it_runs_and_can_be_edited(db, admin_client, settings):
    """Issue 32, row 13: its page said "every 120 s" while it ran every 300 s, and the admin refused
    to save it unchanged."""
    target = ensure_builtin_target()
    schedule = ProbeSchedule.objects.create(target=target, every_seconds=120, scenarios=["text"])
    assert schedule.effective_seconds == 300
    page = admin_client.get(f"/probes/targets/{target.pk}/").content.decode()
    assert "every 300 s" in page
    assert "saved as 120 s, below the 300 s minimum it runs at" in page
    form = {"target": target.pk, "every_seconds": "120", "scenarios": ["text"]}
    response = admin_client.post(f"/admin/comparison/probeschedule/{schedule.pk}/change/", form)
    assert response.status_code == 302, "saved unchanged (disabled here: enabled left out)"
    schedule.refresh_from_db()
    assert schedule.enabled is False
    assert schedule.every_seconds == 120
    changed = admin_client.post(
        f"/admin/comparison/probeschedule/{schedule.pk}/change/", {**form, "every_seconds": "60"}
    )
    assert "At least 300 s" in changed.content.decode(), "a new value below the minimum is still refused"


def test_a_schedule_asking_for_a_grid_starts_grid_runs(db, deferring, admin_client):
    schedule = ProbeSchedule.objects.create(
        target=ensure_builtin_target(), every_seconds=3600, scenarios=["text"], upstream_revisions=["2024-11-05"]
    )
    arm(schedule=schedule)
    assert fire(schedule_id=schedule.pk, token=ProbeSchedule.objects.get(pk=schedule.pk).token).startswith("started")
    assert ProbeRun.objects.get(schedule=schedule).upstream_revisions == ["2024-11-05"]
    page = admin_client.get(f"/admin/comparison/probeschedule/{schedule.pk}/change/").content.decode()
    assert 'name="upstream_revisions"' in page


@pytest.mark.django_db
def test_the_schedule_form_ticks_revisions_and_scenarios(admin_client):
    """Issue 26, a first-time user's row 15."""
    target = ensure_builtin_target()
    form = admin_client.get("/admin/comparison/probeschedule/add/").content.decode()
    assert 'type="checkbox" name="revisions" value="2025-06-18"' in form
    assert 'type="checkbox" name="scenarios" value="text"' in form
    answer = admin_client.post(
        "/admin/comparison/probeschedule/add/",
        {"target": target.pk, "every_seconds": 3600, "revisions": ["2025-06-18", "2025-11-25"], "scenarios": ["text"]},
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert (target.schedule.revisions, target.schedule.scenarios) == (["2025-06-18", "2025-11-25"], ["text"])
