"""Real hosts through a target: each installed host run with a relay that drops image blocks as
its MCP server, beside the same host run directly against the fixture. Every host that keeps an
image directly is affected through the relay; text passes the same."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from comparison.models import ProbeTarget
from comparison.probes.fixture import forkserver
from comparison.selectors import lab as lab_selectors
from comparison.services import lab as lab_services
from comparison.services import lab_through
from tests.support.lab_runs import RUNNABLE, catalogue_observations

pytestmark = [pytest.mark.realhost, pytest.mark.django_db, pytest.mark.timeout(900)]
PROJECT = Path(__file__).resolve().parents[2]
PINNED = json.loads((PROJECT / "tests" / "data" / "host_lab_pinned.json").read_text(encoding="utf-8"))


@pytest.fixture
def relay_target(db):
    command = [sys.executable, str(PROJECT / "tests" / "support" / "relay.py"), "--lose", "images", "--"]
    command += forkserver.fixture_command()
    return ProbeTarget.objects.create(
        name="relay losing images", transport="stdio", command=command, env={"PYTHONPATH": str(PROJECT)}
    )


def test_a_relay_that_drops_images_affects_every_host_that_keeps_them(relay_target, client):
    for item in catalogue_observations(["image", "text"]).values():
        if item["scenario"] in ("image", "text"):
            lab_services._save(dict(item), "fixture")
    outcome = lab_through.run_through_target(relay_target.pk, scenarios=["image", "text"])
    assert outcome.ran == 2 * len(RUNNABLE)
    page = lab_selectors.target_hosts(relay_target.pk)
    verdicts = {(row["host"], row["scenario"]): row["verdict"] for row in page["rows"]}
    keeps_images = {host for host in RUNNABLE if ["image", "kept"] in PINNED[host]["image"]["cells"]}
    assert keeps_images
    assert {host for (host, scenario), v in verdicts.items() if scenario == "image" and v == "differs"} >= keeps_images
    assert all(v == "same" for (host, scenario), v in verdicts.items() if scenario == "text")
    html = client.get(f"/probes/targets/{relay_target.pk}/").content.decode()
    assert 'id="what-each-host-saw"' in html
    assert "image: kept → absent" in html
    again = lab_through.run_through_target(relay_target.pk, scenarios=["image", "text"])
    assert (again.ran, again.reused) == (0, 2 * len(RUNNABLE))


def test_the_command_names_the_affected_hosts(relay_target, capsys):
    lab_services._save(dict(catalogue_observations(["image"])[("codex", "image")]), "fixture")
    call_command("host_lab", "--target", relay_target.name, "--host", "codex", "--scenario", "image")
    printed = capsys.readouterr().out
    assert "codex image: differs: image kept → absent" in printed
    assert "affected hosts: codex (1)" in printed


def test_a_run_that_also_runs_the_real_hosts_records_and_shows_what_each_saw(relay_target, client):
    from comparison.tasks import start_run

    for item in catalogue_observations(["image"]).values():
        if item["scenario"] == "image":
            lab_services._save(dict(item), "fixture")
    run = start_run(target=relay_target, revisions=["2025-06-18"], scenarios=["image"], real_host=True)
    run.refresh_from_db()
    assert run.real_hosts["status"] == "done", run.real_hosts
    assert (run.real_hosts["ran"], run.real_hosts["reused"]) == (len(RUNNABLE), 0)
    assert run.real_hosts["identity"] == "mcp-compare-fixture 1.0.0", "the relay passes the fixture's serverInfo"
    keeps_images = {host for host in RUNNABLE if ["image", "kept"] in PINNED[host]["image"]["cells"]}
    affected = {host for host, item in run.real_hosts["hosts"].items() if item["differs"]}
    assert affected >= keeps_images
    html = client.get(run.get_absolute_url()).content.decode()
    assert 'id="host-interop"' in html
    assert "captures" in html
    assert "instead of the opencode v1 model" in html
    assert f"{len(RUNNABLE)} runs now, 0 reused" in html
    assert client.get(f"/api/v1/runs/{run.pk}/").json()["real_hosts"]["status"] == "done"
    again = start_run(target=relay_target, revisions=["2025-06-18"], scenarios=["image"], real_host=True)
    again.refresh_from_db()
    assert (again.real_hosts["ran"], again.real_hosts["reused"]) == (0, len(RUNNABLE)), "unchanged cells are reused"


def test_probe_real_hosts_on_an_ad_hoc_command_prints_each_host(capsys):
    from django.core.management.base import CommandError

    for item in catalogue_observations(["image"]).values():
        if item["scenario"] == "image":
            lab_services._save(dict(item), "fixture")
    relay = [
        "env",
        f"PYTHONPATH={PROJECT}",
        sys.executable,
        str(PROJECT / "tests" / "support" / "relay.py"),
        "--lose",
        "images",
        "--",
    ]
    relay += forkserver.fixture_command()
    with pytest.raises(CommandError, match="broke an expectation"):
        call_command("probe", "--command", " ".join(relay), "--revisions", "2025-06-18", "--scenarios", "image",
                     "--real-hosts")  # fmt: skip
    printed = capsys.readouterr().out
    assert (
        "real host Codex CLI 0.169.0: the same in 0 of 1 scenario(s); differs in image (image: kept → absent)"
        in printed
    )
    assert f"real hosts: {len(RUNNABLE)} run(s), 0 reused" in printed


@pytest.mark.peers
def test_real_hosts_through_mcp_proxy_see_what_it_changes(client):
    """mcp-proxy (PyPI) turns a JSON-RPC error into an isError result and adds isError: false to
    every result: the hosts that show the error's code lose it, codemode's and Cline's models read the
    added field (both are handed the whole result as JSON), and an image passes unchanged to every
    other host."""
    from comparison.models.lab import TARGET_SERVER, HostObservation
    from comparison.services.peer_targets import add_peer_targets
    from comparison.tasks import start_run

    target = next(target for target, _ in add_peer_targets() if target.name.startswith("mcp-proxy"))
    for item in catalogue_observations(["image", "rpc-error"]).values():
        if item["scenario"] in ("image", "rpc-error"):
            lab_services._save(dict(item), "fixture")
    run = start_run(target=target, revisions=["2025-06-18"], scenarios=["image", "rpc-error"], real_host=True)
    run.refresh_from_db()
    assert run.real_hosts["status"] == "done", run.real_hosts
    hosts = run.real_hosts["hosts"]
    assert set(hosts) == set(RUNNABLE)
    assert all(item["same"] + item["differs"] == 2 for item in hosts.values()), hosts
    differing = {(host, d["scenario"]) for host, item in hosts.items() for d in item["differing"]}
    # codemode and Cline hand their model the whole result as JSON: the added `isError: false` is in it.
    whole_result_readers = {"codemode", "cline"}
    assert not {(host, "image") for host in set(RUNNABLE) - whole_result_readers} & differing
    assert {(host, "image") for host in whole_result_readers} <= differing
    assert {("codex", "rpc-error"), ("opencode", "rpc-error"), ("qwen-code", "rpc-error")} <= differing
    via = HostObservation.objects.filter(server=TARGET_SERVER, host="codemode", scenario="image").get()
    page = client.get(via.get_absolute_url()).content.decode()
    assert "&quot;isError&quot;: false" in page, "the proxy's addition as codemode's model got it"
