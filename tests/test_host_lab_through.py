"""Real hosts through a target: each installed host run with a relay that drops image blocks as
its MCP server, beside the same host run directly against the fixture. Every host that keeps an
image directly is affected through the relay; text passes the same."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from comparison import lab_selectors, lab_services
from comparison.models import ProbeTarget
from tests.lab_runs import RUNNABLE, catalogue_observations

pytestmark = [pytest.mark.realhost, pytest.mark.django_db, pytest.mark.timeout(900)]
PROJECT = Path(__file__).resolve().parent.parent
PINNED = json.loads((PROJECT / "tests" / "data" / "host_lab_pinned.json").read_text(encoding="utf-8"))


@pytest.fixture
def relay_target(db):
    command = [sys.executable, str(PROJECT / "tests" / "relay.py"), "--lose", "images", "--"]
    command += [sys.executable, "-m", "comparison.probes.fixture_server", "--stdio"]
    return ProbeTarget.objects.create(
        name="relay losing images", transport="stdio", command=command, env={"PYTHONPATH": str(PROJECT)}
    )


def test_a_relay_that_drops_images_affects_every_host_that_keeps_them(relay_target, client):
    for item in catalogue_observations().values():
        if item["scenario"] in ("image", "text"):
            lab_services._save(dict(item), "fixture")
    outcome = lab_services.run_through_target(relay_target.pk, scenarios=["image", "text"])
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
    again = lab_services.run_through_target(relay_target.pk, scenarios=["image", "text"])
    assert (again.ran, again.reused) == (0, 2 * len(RUNNABLE))


def test_the_command_names_the_affected_hosts(relay_target, capsys):
    lab_services._save(dict(catalogue_observations()[("codex", "image")]), "fixture")
    call_command("host_lab", "--target", relay_target.name, "--host", "codex", "--scenario", "image")
    printed = capsys.readouterr().out
    assert "codex image: differs: image kept → absent" in printed
    assert "affected hosts: codex (1)" in printed
