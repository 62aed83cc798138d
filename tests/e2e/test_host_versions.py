"""Version sweeps of a real host: each version installed from npm into the version cache, the
catalogue run at each, and a change between two measured versions bisected to the first version
that shows it. Cloudflare codemode's 0.3.1 → 0.3.2 break (measured here: from 0.3.2 a failed
call reaches the model with `isError: true`) is the change."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from comparison.hostlab import version_cache
from comparison.selectors import lab as lab_selectors
from comparison.services import lab_sweeps

pytestmark = [pytest.mark.realhost, pytest.mark.django_db, pytest.mark.timeout(900)]


@pytest.fixture
def scratch_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(version_cache, "CACHE", tmp_path / "versions")
    return tmp_path / "versions"


def test_a_change_is_bisected_to_the_first_version_showing_it(scratch_cache, capsys):
    call_command("host_lab", "--host", "codemode", "--versions", "0.3.1,0.3.4", "--bisect")
    printed = capsys.readouterr().out
    # 0.3.2 and 0.3.3 lie between: the middle one first, then the half the change is in.
    assert "bisected: measured 0.3.3, 0.3.2" in printed
    flag = next(item for item in lab_selectors.host_ranges("codemode") if item["feature"] == "error-flag")
    # 0.3.1 shows the flag only inside the result's JSON text ("changed"); 0.3.2 flags it.
    assert [(r["chip"], r["since"], r["exact"]) for r in flag["ranges"]] == [
        ("changed", "0.3.1", False),
        ("kept", "0.3.2", True),
    ]
    call_command("host_lab", "--host", "codemode", "--versions", "0.3.1,0.3.4", "--json")
    swept = json.loads(capsys.readouterr().out)
    assert swept["versions"] == ["0.3.1", "0.3.4"]
    assert swept["ran"] == 0, "measured above: every cell reused"
    assert any(item["feature"] == "error-flag" for item in swept["ranges"])
    assert sorted(path.name for path in scratch_cache.iterdir()) == [
        "@cloudflare+codemode@0.3.1",
        "@cloudflare+codemode@0.3.2",
        "@cloudflare+codemode@0.3.3",
        "@cloudflare+codemode@0.3.4",
    ]


def test_the_cache_evicts_the_least_recently_used_version(scratch_cache):
    from comparison.hostlab.adapters import ADAPTERS

    adapter = ADAPTERS["codemode"]
    first, _ = version_cache.install(adapter, "0.3.1")
    second, _ = version_cache.install(adapter, "0.3.2")
    _, reinstall = version_cache.install(adapter, "0.3.2")
    assert reinstall < 5
    removed = version_cache.evict(keep=second, limit=1)
    assert removed == [first.name]
    assert second.exists()
    assert not first.exists()


def test_a_bad_spec_is_a_clear_error(scratch_cache):
    from django.core.management import CommandError

    lab_sweeps.releases("codemode")
    with pytest.raises(CommandError, match=r"9\.9\.9"):
        call_command("host_lab", "--host", "codemode", "--versions", "9.9.9")


@pytest.mark.django_db
def test_a_queued_sweep_is_one_task_per_chosen_version(settings, capsys):
    """`host_lab --versions SPEC --enqueue` queues the versions for the workers, measuring none here."""
    from django_tasks_db.models import DBTaskResult

    from comparison.models.lab import HostReleases

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}  # queued, not run at once
    HostReleases.objects.create(host="opencode", package="opencode-ai", versions=["1.0.1", "1.0.2", "1.0.3"])
    call_command("host_lab", "--host", "opencode", "--versions", "latest:2", "--enqueue")
    assert "2 version task(s) queued: 1.0.2, 1.0.3" in capsys.readouterr().out
    queued = DBTaskResult.objects.filter(task_path="comparison.tasks.host_version_task")
    assert sorted(task.args_kwargs["args"][1] for task in queued) == ["1.0.2", "1.0.3"]
