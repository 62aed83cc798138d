"""The host lab's pages and API from stored observations (real captures of the pinned hosts, kept
in tests/data/lab_observations.json): the matrix, a host, a feature, compare, an observation, the
row page's section, the Disagreements page's model check, and the lab form's guards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from comparison.hostlab import catalogue, lab, predictions
from comparison.hostlab.adapters import ADAPTERS
from comparison.models.lab import TARGET_SERVER, HostObservation
from comparison.services import lab as lab_services
from comparison.services.probing import ensure_builtin_target

DATA = Path(__file__).resolve().parents[1] / "data" / "lab_observations.json"


def store(items: list[dict]) -> list[dict]:
    saved = []
    for item in items:
        item = dict(item, fixture=catalogue.fixture_version())
        item["key"] = lab.cache_key(item["host"], item["version"], item["scenario"], item["fixture"])
        item["partings"] = predictions.partings(item["host"], item["scenario"], item["cells"])
        saved.append(lab_services._save(item, "fixture"))
    return saved


def store_version(item: dict, host: str, version: str, cells: list[dict]) -> dict:
    """An observation stored as if measured at another version of a host, with other chips."""
    item = dict(item, host=host, version=version, fixture=catalogue.fixture_version(), cells=cells)
    item["key"] = lab.cache_key(host, version, item["scenario"], item["fixture"])
    return lab_services._save(item, "fixture")


@pytest.fixture
def observed(db):
    return store(json.loads(DATA.read_text(encoding="utf-8")))


def test_the_matrix_shows_each_hosts_chip_with_its_version(client, observed):
    html = client.get("/hosts/").content.decode()
    codex_image = next(item for item in observed if (item["host"], item["scenario"]) == ("codex", "image"))
    assert f'href="/hosts/observations/{codex_image["id"]}/"' in html
    assert "0.169.0" in html
    assert "chip-kept" in html
    assert "chip-dropped" in html
    assert "lootbox" in html
    assert "not run: see its page" in html


def test_the_matrix_filters_by_host_and_keeps_the_state_in_the_url(client, observed):
    html = client.get("/hosts/?host=codex").content.decode()
    assert 'id="host-codex"' in html
    assert 'id="host-codemode"' not in html
    only_dropped = client.get("/hosts/?chip=dropped").content.decode()
    assert 'id="host-codex"' in only_dropped
    assert 'id="host-codemode"' not in only_dropped
    partial = client.get("/hosts/?host=codex", HTTP_HX_REQUEST="true").content.decode()
    assert partial.startswith('<div id="matrix">')


def test_the_matrix_reads_in_a_constant_number_of_queries(client, observed):
    with CaptureQueriesContext(connection) as few:
        client.get("/hosts/")
    more = json.loads(DATA.read_text(encoding="utf-8"))
    for item in more:
        item["version"] = item["version"]
        item["scenario"] = "text" if item["scenario"] == "image" else "audio"
    store(more)
    with CaptureQueriesContext(connection) as many:
        client.get("/hosts/")
    assert len(many) == len(few)


def test_a_host_page_shows_what_reached_the_model_and_what_it_told_the_upstream(client, observed):
    html = client.get("/hosts/codex/").content.decode()
    assert "OpenAI Responses" in html
    assert "codex-mcp-client" in html
    assert "2025-06-18" in html
    assert 'id="scenario-is-error"' in html
    assert "reads like a success" in html
    assert client.get("/hosts/nobody/").status_code == 404


def test_lootbox_says_why_it_is_not_run(client, observed):
    html = client.get("/hosts/lootbox/").content.decode()
    assert 'id="not-run"' in html
    assert "jsr:" in html


def test_feature_and_compare_pages(client, observed):
    html = client.get("/hosts/features/image/").content.decode()
    assert "Codex CLI" in html
    assert "Cloudflare codemode" in html
    assert client.get("/hosts/features/nothing/").status_code == 404
    compared = client.get("/hosts/compare/?a=codex&b=codemode").content.decode()
    assert "image block" in compared
    assert 'id="differing"' in compared
    same = client.get("/hosts/compare/?a=codex&b=codex").content.decode()
    assert "Choose two different hosts." in same


def test_a_feature_page_has_one_entry_per_host_and_version_whatever_the_lab_versions_stored(client, observed):
    image = next(item for item in observed if item["host"] == "codex" and item["scenario"] == "image")
    # The same run stored again under a newer lab version's key (the lab's code changed since).
    again = dict(image, key=image["key"].rsplit("/lab-", 1)[0] + "/lab-0123456789ab")
    again.pop("id", None)
    lab_services._save(again, "fixture")
    entries = client.get("/api/v1/hosts/features/image/").json()["hosts"]["codex"]
    assert [(e["scenario"], e["version"]) for e in entries].count(("image", image["version"])) == 1


def test_an_observation_page_escapes_what_the_host_sent(client, observed):
    item = observed[0]
    row = HostObservation.objects.get(pk=item["id"])
    row.reached = dict(row.reached, parts=[{"kind": "text", "text": "<script>alert(1)</script>"}])
    row.save()
    html = client.get(f"/hosts/observations/{row.pk}/").content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert 'id="raw-capture"' in html


def test_the_api_twins(client, observed):
    matrix = client.get("/api/v1/hosts/").json()
    codex = next(row for row in matrix["hosts"] if row["host"] == "codex")
    assert codex["features"]["image"]["chip"] == "kept"
    assert codex["told"]["protocol_version"] == "2025-06-18"
    assert client.get("/api/v1/hosts/codex/").json()["dialect"] == "OpenAI Responses"
    assert client.get("/api/v1/hosts/features/error-flag/").json()["hosts"]["codex"][0]["chip"] == "dropped"
    differing = client.get("/api/v1/hosts/compare/?a=codex&b=codemode").json()["differing"]
    assert {item["feature"] for item in differing} >= {"image block"}
    one = client.get(f"/api/v1/hosts/observations/{observed[0]['id']}/").json()
    assert one["raw"]["capture"] is not None
    assert client.get("/api/v1/hosts/compare/?a=codex").status_code == 400
    assert "usage" in client.get("/api/v1/hosts/compare/").json()


def test_a_row_page_shows_the_host_observations_of_its_anchors(client, observed, loaded):
    html = client.get("/registers/content-types/CT-02/").content.decode()
    assert 'id="host-observations"' in html
    assert "Codex CLI" in html
    data = client.get("/api/v1/rows/CT-02/").json()
    assert data["host_observations"][0]["scenario"] == "image"


def test_a_row_page_checks_its_host_claims_against_the_range_at_the_registers_pin(client, observed, loaded):
    from comparison.hostlab import claims
    from comparison.models.lab import HostReleases

    pin = claims.pins()["opencode-v1"]
    assert pin.version == "1.18.31", "the registers' legend pins opencode v1 at 1.18.31"
    HostReleases.objects.create(host="opencode", package="opencode-ai", versions=["1.18.30", pin.version, "1.18.33"])
    html = client.get("/registers/content-types/CT-02/").content.decode()
    assert 'id="claim-checks"' in html
    assert "contradicts" not in html, "no measurement covers 1.18.31: nothing is guessed"
    assert client.get("/api/v1/rows/CT-02/").json()["host_claims_checked"][0]["verdict"] == "not measured"
    image = next(dict(item, host="opencode", label="opencode") for item in observed if item["scenario"] == "image")
    for version, chip in (("1.18.30", "kept"), ("1.18.33", "dropped")):
        store_version(image, "opencode", version, [{"feature": "image", "chip": chip, "detail": "made up"}])
    checked = client.get("/api/v1/rows/CT-02/").json()["host_claims_checked"]
    assert [(c["register_host"], c["chip"], c["verdict"]) for c in checked] == [
        ("opencode-v1", "not measured", "not measured")
    ]
    store_version(image, "opencode", pin.version, [{"feature": "image", "chip": "dropped", "detail": "made up"}])
    html = client.get("/registers/content-types/CT-02/").content.decode()
    assert 'id="claim-checks"' in html
    assert "contradicts" in html
    assert "measured at 1.18.31" in html


def test_the_disagreements_page_says_where_hand_models_part(client, observed):
    html = client.get("/disagreements/").content.decode()
    assert 'id="model-partings"' in html
    assert "they part nowhere" in html
    row = HostObservation.objects.get(host="codemode", scenario="image")
    row.partings = [{"feature": "image", "measured": "dropped", "measured_detail": "x", "predicted": "changed",
                     "predicted_detail": "y"}]  # fmt: skip
    row.save()
    html = client.get("/disagreements/").content.decode()
    assert "1 place where they part" in html


@pytest.fixture
def runner_user(db):
    user = User.objects.create_user("labrunner", password="pw-labrunner-123")
    user.user_permissions.add(Permission.objects.get(codename="run_probe"))
    return User.objects.get(pk=user.pk)


def test_the_lab_form_needs_login_permission_and_csrf(runner_user):
    target = ensure_builtin_target()
    assert Client().get("/hosts/lab/").status_code == 403
    nobody = Client()
    nobody.force_login(User.objects.create_user("nobody", password="pw-nobody-123"))
    assert nobody.get("/hosts/lab/").status_code == 403
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(runner_user)
    assert strict.post("/hosts/lab/", {"target": target.pk, "tool": "text"}).status_code == 403
    allowed = Client()
    allowed.force_login(runner_user)
    assert "built-in fixture" in allowed.get("/hosts/lab/").content.decode()
    assert allowed.post("/hosts/lab/", {"target": target.pk, "tool": "text", "arguments": "[1]"}).status_code == 400
    assert allowed.post("/hosts/lab/", {"target": 9999, "tool": "text"}).status_code == 400
    done = allowed.post("/hosts/lab/", {"target": target.pk, "tool": "text", "arguments": "{}"})
    assert done.status_code == 302
    assert done["Location"].startswith("/hosts/lab/")
    # The test settings run tasks at once: the batch is complete (runs, or "not measured" where a
    # host is not installed) and the page stops polling.
    assert Client().get(done["Location"]).status_code == 403, "a user's own lab run is not a visitor's"
    batch = allowed.get(done["Location"]).content.decode()
    every = len(ADAPTERS)
    assert f"{every} of {every} hosts done" in batch
    assert "every 3s" not in batch
    assert HostObservation.objects.filter(server="user").count() == every


def test_conformance_outcomes_show_beside_the_lab_and_never_as_a_pass_without_checks(client, observed):
    from comparison.hostlab import conformance_client

    for scenario, chip, detail in (("tools_call", "pass", "2 check(s) passed"), ("initialize", "not measured", "")):
        item = {
            "host": "codex", "label": "Codex CLI", "version": "0.169.0", "scenario": f"conformance:{scenario}",
            "fixture": conformance_client.SUITE_VERSION, "not_measured": "the suite wrote no checks" if not detail else "",
            "cells": [{"feature": "conformance", "chip": chip, "detail": detail or "no check was made"}],
        }  # fmt: skip
        lab_services._save(
            item, lab_services.CONFORMANCE_SERVER, key=lab_services.conformance_key("codex", "0.169.0", scenario)
        )
    matrix = client.get("/hosts/").content.decode()
    assert "1 of 2 pass" in matrix
    host = client.get("/hosts/codex/").content.decode()
    assert 'id="conformance"' in host
    assert "chip-pass" in host
    assert "chip-not-measured" in host
    assert client.get("/api/v1/hosts/codex/").json()["conformance"][0]["outcome"] in ("pass", "not measured")


def test_the_batch_page_stops_polling_after_ten_minutes(runner_user):
    client = Client()
    client.force_login(runner_user)
    assert "every 3s" in client.get("/hosts/lab/abc/").content.decode()
    stopped = client.get("/hosts/lab/abc/?poll=200").content.decode()
    assert "every 3s" not in stopped
    assert "stopped waiting" in stopped


def test_the_shipped_snapshot_loads_once_and_fills_the_matrix(client, db, tmp_path):
    from django.core.management import CommandError, call_command

    shipped = Path("comparison/data/host_lab_observations.json")
    call_command("host_lab", "--load-snapshot", str(shipped))
    from comparison.models.lab import HostReleases

    items = json.loads(shipped.read_text(encoding="utf-8"))
    count = HostObservation.objects.count()
    assert count == sum(1 for item in items if "key" in item)
    releases = {item["releases"] for item in items if "releases" in item}
    assert releases >= {"codex", "codemode", "opencode"}, "the ranges' gaps ship with them"
    assert set(HostReleases.objects.values_list("host", flat=True)) == releases
    call_command("host_lab", "--load-snapshot", str(shipped))
    assert HostObservation.objects.count() == count
    codemode = client.get("/hosts/codemode/").content.decode()
    assert "kept since 0.3.2" in codemode, "the shipped sweep's range, bisected to its first version"
    matrix = client.get("/hosts/").content.decode()
    assert "chip-not-measured" in matrix
    assert matrix.count("chip-kept") > 10
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CommandError, match=r"bad\.json"):
        call_command("host_lab", "--load-snapshot", str(bad))


def test_a_host_page_shows_ranges_across_versions(client, observed):
    from comparison.models.lab import HostReleases

    HostReleases.objects.create(host="codex", package="@openai/codex", versions=["0.168.0", "0.169.0", "0.170.0"])
    older = next(item for item in json.loads(DATA.read_text(encoding="utf-8")) if item["scenario"] == "is-error")
    store_version(older, "codex", "0.168.0", [{"feature": "error-flag", "chip": "kept", "detail": "a flag"}])
    html = client.get("/hosts/codex/").content.decode()
    assert 'id="ranges"' in html
    assert "kept: 0.168.0 (oldest measured)" in html
    assert "dropped since 0.169.0" in html
    ranges = client.get("/api/v1/hosts/codex/").json()["version_ranges"]
    flag = next(item for item in ranges if item["feature"] == "error-flag")
    assert [(r["chip"], r["since"], r["exact"]) for r in flag["ranges"]] == [
        ("kept", "0.168.0", False),
        ("dropped", "0.169.0", True),
    ]
    assert "0.168.0" not in client.get("/hosts/").content.decode(), "the matrix shows the pinned version only"
    assert "dropped since 0.169.0" in client.get("/hosts/features/error-flag/").content.decode()
    assert "codex" in client.get("/api/v1/hosts/features/error-flag/").json()["version_ranges"]


def test_a_target_page_shows_what_each_host_saw_through_it(client, observed):
    target = ensure_builtin_target()
    direct = next(item for item in json.loads(DATA.read_text(encoding="utf-8")) if item["scenario"] == "image")
    via = dict(direct, fixture=f"target-{target.pk}", key=f"via/{target.pk}")
    via["reached"] = dict(via["reached"], parts=[p for p in via["reached"]["parts"] if p["kind"] == "text"])
    via["cells"] = []
    lab_services._save(via, TARGET_SERVER, key=via["key"])
    html = client.get(f"/probes/targets/{target.pk}/").content.decode()
    assert 'id="what-each-host-saw"' in html
    assert "image: kept → absent" in html
    assert "Affected: <strong>codex</strong> (1)" in html
    via_row = HostObservation.objects.get(key=via["key"])
    side = client.get(f"/hosts/observations/{via_row.pk}/").content.decode()
    assert 'id="side-by-side"' in side
    assert "image image/png, 70 bytes" in side


@pytest.mark.django_db
def test_a_queued_sweep_answers_in_json_when_asked(settings, capsys):
    """Issue 52, a newcomer's item 8."""
    from comparison.models.lab import HostReleases

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}  # queued, not run at once
    HostReleases.objects.create(host="opencode", package="opencode-ai", versions=["1.0.1", "1.0.2", "1.0.3"])
    call_command("host_lab", "--host", "opencode", "--versions", "latest:2", "--enqueue", "--json")
    printed = json.loads(capsys.readouterr().out)
    assert printed["versions"] == ["1.0.2", "1.0.3"]
    assert printed["queued"] is True
