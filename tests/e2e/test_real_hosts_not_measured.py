"""Hostile round four, "also run the real hosts" where they cannot run: a host that is not installed,
or whose run captures nothing, is "not measured", never "the same"; it never replaces a stored
measurement, so the Hosts page keeps what it showed; and the shipped snapshot comes back where
what is stored measured nothing or is older."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client

from comparison.hostlab import lab, through
from comparison.hostlab.adapters import ADAPTERS
from comparison.hostlab.adapters import codemode as codemode_adapter
from comparison.models import ProbeRun
from comparison.models.lab import HostObservation
from comparison.probes.run import real_lane
from comparison.selectors import lab as lab_selectors
from comparison.selectors.interop import run_host_interop
from comparison.services import lab as lab_services
from comparison.services.probing import ensure_builtin_target
from comparison.tasks import start_run

pytestmark = pytest.mark.django_db
PROJECT = Path(__file__).resolve().parents[2]
SNAPSHOT = PROJECT / "comparison" / "data" / "host_lab_observations.json"
SCENARIOS = ["text", "image"]


@pytest.fixture
def shipped(db):
    items = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert lab_services.load_snapshot(items) > 0
    return items


def _chips() -> Counter:
    """What the Hosts page counts: each chip of its hosts × features matrix."""
    rows = lab_selectors.matrix_page([], "")["rows"]
    return Counter(cell.chip for row in rows for cell in row.cells)


@pytest.fixture
def nothing_installed(monkeypatch, tmp_path):
    """A fresh start: the start command installs no host. Node.js is there where the machine has it,
    so Cloudflare codemode's driver runs without its package and fails (ERR_MODULE_NOT_FOUND), as
    it did on the fresh start that was reported."""
    node = shutil.which("node")
    monkeypatch.setattr(
        lab, "binary_path", lambda adapter, modules=None: Path(node) if adapter.binary == "node" and node else None
    )
    shutil.copy(codemode_adapter.DRIVER, tmp_path / codemode_adapter.DRIVER.name)
    monkeypatch.setattr(codemode_adapter, "NODE_DIR", tmp_path)
    monkeypatch.setattr(real_lane, "available", lambda: False)
    return node


def test_a_run_with_the_real_hosts_where_none_is_installed_reports_nothing_as_measured(shipped, nothing_installed):
    before = _chips()
    assert before["kept"]
    assert before["dropped"]
    run = start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=SCENARIOS, real_host=True)
    run.refresh_from_db()
    summary = run.real_hosts
    runnable = [key for key, adapter in ADAPTERS.items() if adapter.runnable]
    assert summary["status"] == "done", summary
    assert (summary["ran"], summary["compared"]) == (0, 0)
    assert summary["not_measured"] == len(runnable) * len(SCENARIOS)
    assert all(host["same"] == host["differs"] == 0 for host in summary["hosts"].values())
    if nothing_installed:  # codemode ran, and its capture failed
        via = HostObservation.objects.filter(server="target", host="codemode").values_list("not_measured", flat=True)
        assert via
        assert all("ERR_MODULE_NOT_FOUND" in why for why in via), list(via)
    page = Client().get(run.get_absolute_url()).content.decode()
    assert f"{summary['not_measured']} host × scenario pairs not measured" in page
    captured = [line for line in run_host_interop(run)["lines"] if line["source"] == "captures"]
    assert captured
    assert all(line["percent"] is None for line in captured), "no host is 100 % of nothing"
    assert '<span class="chip chip-not-measured">not measured</span>' in page
    scored = {line["host"]: line["source"] for line in run_host_interop(run)["lines"] if line["source"] != "captures"}
    # A host that did not run leaves its prediction in place: the lab's chips and its hand model.
    assert scored["opencode v1"] == scored["Cloudflare"] == "lab + model"
    assert scored["Codex CLI"] == "lab"
    assert scored["lootbox"] == "model"
    target_page = Client().get(run.target.get_absolute_url()).content.decode()
    assert "No host saw anything different" not in target_page
    assert "No host was measured" in target_page
    after = _chips()
    assert after == before, ("the Hosts page keeps every stored measurement", after - before, before - after)


def test_the_shipped_snapshot_comes_back_where_what_is_stored_measured_nothing_or_is_older(shipped):
    measured = [item for item in shipped if item.get("server") == "fixture" and not item.get("not_measured")]
    lost, newer = measured[0], measured[1]
    HostObservation.objects.filter(key=lost["key"]).update(not_measured="the host is not installed", cells=[])
    later = HostObservation.objects.get(key=newer["key"]).measured_at + timedelta(days=1)
    HostObservation.objects.filter(key=newer["key"]).update(measured_at=later, cells=[{"feature": "text", "chip": "x"}])
    assert lab_services.load_snapshot(shipped) == 1, "only the row that measured nothing is replaced"
    restored = HostObservation.objects.get(key=lost["key"])
    assert (restored.not_measured, restored.cells) == ("", lost["cells"])
    assert HostObservation.objects.get(key=newer["key"]).cells == [{"feature": "text", "chip": "x"}]
    HostObservation.objects.filter(key=lost["key"]).update(measured_at=restored.measured_at - timedelta(days=400))
    assert lab_services.load_snapshot(shipped) == 1, "an older stored measurement gives way to the shipped one"
    assert lab_services.load_snapshot(shipped) == 0


def test_a_saved_observation_that_measured_nothing_never_replaces_a_measurement(shipped):
    item = next(i for i in shipped if i.get("server") == "fixture" and not i.get("not_measured"))
    failed = dict(item, not_measured="the host captured nothing", cells=[])
    kept = lab_services._save(failed, "fixture")
    stored = HostObservation.objects.get(key=item["key"])
    assert (stored.not_measured, stored.cells, kept["id"]) == ("", item["cells"], stored.pk)


@pytest.mark.realhost
def test_a_host_whose_capture_fails_is_not_measured_and_the_stored_measurement_stays(shipped, monkeypatch, tmp_path):
    """Cloudflare codemode's driver without its package beside it: node fails with
    ERR_MODULE_NOT_FOUND, as on a fresh start, and prints nothing a model would get."""
    assert shutil.which("node"), "the real-host lane installs Node.js"
    shutil.copy(codemode_adapter.DRIVER, tmp_path / codemode_adapter.DRIVER.name)
    monkeypatch.setattr(codemode_adapter, "NODE_DIR", tmp_path)
    shown = lab_selectors.current_observations(host="codemode", scenario="text")[0]
    assert shown["not_measured"] == ""
    outcome = lab_services.run_fixture(["codemode"], ["text"], refresh=True)
    failed = outcome.observations[0]
    assert "ERR_MODULE_NOT_FOUND" in failed["not_measured"], failed["not_measured"]
    assert lab_services._save(dict(failed, key=shown["key"]), "fixture")["id"] == shown["id"]
    still = lab_selectors.current_observations(host="codemode", scenario="text")[0]
    assert (still["id"], still["cells"], still["not_measured"]) == (shown["id"], shown["cells"], "")
    compared = through.compare(shown, failed)
    assert compared["verdict"] == through.NOT_COMPARED, "a failed capture is never 'the same'"


def test_a_fresh_run_that_captured_nothing_is_told_from_one_that_did():
    ran = {"raw": {"capture": {"driver": {"text": "hi"}}, "model_requests": 0}, "exit_code": 0}
    asked = {"raw": {"capture": None, "model_requests": 2}, "exit_code": 0}
    crashed = {"raw": {"capture": None, "model_requests": 0, "stderr": "x\nError [ERR_MODULE_NOT_FOUND]: y\n"},
               "exit_code": 1}  # fmt: skip
    stored = {"id": 3, "cells": []}  # reused as stored: no raw run to read
    assert [through.failed_capture(item) for item in (ran, asked, stored)] == ["", "", ""]
    assert through.failed_capture(crashed) == "the host captured nothing (exit code 1): Error [ERR_MODULE_NOT_FOUND]: y"


def test_a_run_summary_counts_only_what_was_compared():
    rows = [
        {"host": "codex", "label": "Codex CLI", "version": "1", "scenario": "text", "verdict": through.SAME,
         "changed": [], "via": {}},
        {"host": "codemode", "label": "Cloudflare codemode", "version": "1", "scenario": "text",
         "verdict": through.NOT_COMPARED, "changed": [], "via": {"not_measured": "not installed"}},
    ]  # fmt: skip
    summary = through.summary(rows, ran=2, reused=0, identity="")
    assert (summary["ran"], summary["compared"], summary["not_measured"]) == (1, 1, 1)
    assert ProbeRun.objects.count() == 0
