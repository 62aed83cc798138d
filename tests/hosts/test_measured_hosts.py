"""The hosts the lab measures, in every probe: what each would see of a tool result, predicted
from its measured chips (comparison.hosts.measured), scored beside the hand models, and the
registers' subject proxy never scored as a host."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from comparison.core.pipeline import junit_xml
from comparison.hosts import measured
from comparison.probes.assessment.interop import run_score
from comparison.probes.fixture import forkserver
from comparison.probes.run.runner import ProbePlan, TargetSpec, run_probe
from comparison.probes.run.scenarios import FIXTURE
from language.vocabulary import SCORED_HOSTS, SUBJECT_HOST
from tests.support.relay_targets import RELAY

PROJECT = Path(__file__).resolve().parents[2]
SNAPSHOT = PROJECT / "comparison" / "data" / "host_lab_observations.json"
MEASURED_HOSTS = {"codex", "claude-code", "gemini-cli", "qwen-code", "copilot", "cline", "kilo", "continue", "opencode-v1",
                  "cloudflare"}  # fmt: skip


def row(key: str, chips: dict[str, str], asks: str = "") -> dict:
    cells = [{"feature": feature, "chip": chip, "detail": f"{feature} {chip}"} for feature, chip in chips.items()]
    return {"key": key, "label": key.title(), "version": "1.0.0", "cells": cells, "asks": asks}


def shipped_lab() -> dict[str, measured.Measured]:
    """The lab's chips as the shipped snapshot holds them (what the start command loads)."""
    from comparison.selectors.lab import measured_hosts_of, shipped_observations

    return measured_hosts_of(shipped_observations())


AUDIO = {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"}
TEXT = {"type": "text", "text": "hello", "annotations": {"audience": ["user"]}}


def answer(*blocks, **fields) -> dict:
    return {"result": {"content": list(blocks), **fields}}


def test_the_lab_rows_become_hosts_by_their_vocabulary_name_and_only_measured_chips_count():
    found = measured.measured_hosts(
        [
            row("codex", {"text": "kept", "audio": "not measured"}, "2025-06-18"),
            row("opencode", {"text": "kept"}),
            row("lootbox", {"text": "kept"}),  # the lab does not run it: a hand model only
        ]
    )
    assert set(found) == {"codex", "opencode-v1"}
    assert dict(found["codex"].chips) == {"text": "kept"}
    assert found["codex"].source == "from the lab, Codex 1.0.0"


def test_every_part_of_a_result_is_a_feature_the_lab_measures():
    result = answer(TEXT, AUDIO, {"type": "x-hologram"}, structuredContent={"n": 1}, isError=True)
    assert [feature for feature, _ in measured.parts(result)] == [
        "text", "annotations", "audio", "unknown-type", "structured-beside", "error-flag",
    ]  # fmt: skip
    alone = answer(structuredContent={"n": 1})
    assert measured.parts(alone) == [("structured", {"n": 1})], "the value alone is a feature of its own"
    assert measured.parts({"error": {"code": -32602, "message": "bad"}}) == [
        ("rpc-error", {"code": -32602, "message": "bad"})
    ]


def test_a_prediction_gives_each_part_the_hosts_chip_and_says_where_there_is_none():
    host = measured.measured_hosts([row("qwen-code", {"text": "kept", "annotations": "dropped"})])["qwen-code"]
    said = measured.prediction(answer(TEXT, AUDIO), host)
    assert said["label"] == "Qwen Code"
    assert said["source"] == "from the lab, Qwen-Code 1.0.0"
    assert [(c["feature"], c["chip"]) for c in said["cells"]] == [
        ("text", "kept"),
        ("annotations", "dropped"),
        ("audio", "not measured"),
    ]
    assert said["cells"][2]["detail"] == "the lab has no reading of it"


@pytest.mark.parametrize(
    ("audio_chip", "same"),
    [("dropped", True), ("kept", False), ("changed", False), (None, None)],
    ids=["host-drops-it", "host-keeps-it", "host-changes-it", "not-measured"],
)
def test_a_lost_part_affects_a_host_only_where_the_part_reaches_its_model(audio_chip, same):
    chips = {"text": "kept", "annotations": "dropped"} | ({"audio": audio_chip} if audio_chip else {})
    host = measured.measured_hosts([row("gemini-cli", chips)])["gemini-cli"]
    assert measured.same_for(answer(TEXT, AUDIO), answer(TEXT), host) is same


def test_what_a_host_drops_may_change_freely_and_what_it_refuses_counts_by_being_there():
    host = measured.measured_hosts(
        [row("codex", {"text": "kept", "annotations": "dropped", "unknown-type": "not supported"})]
    )["codex"]
    other_annotations = {**TEXT, "annotations": {"priority": 1}}
    assert measured.same_for(answer(TEXT), answer(other_annotations), host) is True
    assert measured.same_for(answer(TEXT), answer({**TEXT, "text": "HELLO"}), host) is False
    unknown = {"type": "x-hologram", "data": "AAAA"}
    assert measured.same_for(answer(TEXT, unknown), answer(TEXT), host) is False, "refused directly, taken through"


def test_a_host_never_meets_a_revision_newer_than_the_one_it_asks_for():
    host = measured.measured_hosts([row("codex", {"audio": "kept"}, asks="2025-06-18")])
    lost = (answer(AUDIO), answer())
    assert measured.interop(*lost, host, "2025-06-18") == {"codex": False}
    assert measured.interop(*lost, host, "2025-11-25") == {"codex": True}


def test_the_subject_proxy_is_never_scored_and_the_measured_hosts_are():
    interop = dict.fromkeys(SCORED_HOSTS, True) | {SUBJECT_HOST: False, "codex": False}
    score = run_score(
        [{"scenario": "image", "revision": "2025-06-18", "verdict": "changed by proxy", "interop": interop}],
        failed="failed to probe",
        invalid="invalid for revision",
    )
    assert SUBJECT_HOST not in score.hosts
    assert set(score.hosts) == set(SCORED_HOSTS) >= {"codex", "claude-code", "gemini-cli", "qwen-code"}
    assert score.differing == {"codex": [("image", "2025-06-18")]}


def test_junit_names_the_hosts_a_cell_affects():
    result = {
        "scenario": "image",
        "requested_revision": "2025-06-18",
        "verdict": "changed by proxy",
        "interop": {"codex": False, "claude-code": True, SUBJECT_HOST: False},
        "diff": [],
        "findings": [],
    }
    case = ET.fromstring(junit_xml("relay", [result]).split("\n", 1)[1]).find(".//testcase")  # noqa: S314 (ours)
    properties = {p.get("name"): p.get("value") for p in case.find("properties")}
    assert properties["hosts_affected"] == "codex", "the subject proxy is not a host"
    assert properties["hosts_unaffected"] == "claude-code"


def test_a_probe_through_a_relay_names_every_measured_host_with_its_prediction_and_scores_it():
    lab = shipped_lab()
    assert set(lab) == MEASURED_HOSTS, "the shipped snapshot measures ten hosts at their pinned versions"
    relay = [sys.executable, str(RELAY), "--lose", "images", "--", *forkserver.fixture_command()]
    spec = TargetSpec("relay losing images", "stdio", command=relay, upstream="fixture")
    chosen = [s for s in FIXTURE if s.key in ("mixed", "text")]
    cells = {o.scenario.key: o for o in run_probe(spec, ProbePlan(scenarios=chosen, revisions=["2025-06-18"], lab=lab))}
    mixed = cells["mixed"]
    assert {p["host"] for p in mixed.predictions} == MEASURED_HOSTS
    codex = next(p for p in mixed.predictions if p["host"] == "codex")
    assert codex["source"].startswith("from the lab, Codex CLI ")
    assert ("audio", "dropped") in [(c["feature"], c["chip"]) for c in codex["cells"]]
    # A host that keeps or changes images is affected by the lost image block; Copilot CLI drops
    # images anyway, and Cline asks for 2024-11-05, so it never meets a 2025-06-18 answer.
    unaffected = {"copilot", "cline"}
    assert {host: mixed.interop[host] for host in MEASURED_HOSTS} == {h: h in unaffected for h in MEASURED_HOSTS}
    assert all(cells["text"].interop[host] for host in MEASURED_HOSTS), "nothing lost: nobody affected"
    assert json.loads(json.dumps(mixed.as_dict()))["predictions"] == mixed.predictions


@pytest.mark.django_db
def test_a_run_shows_and_serves_what_each_measured_host_would_see(client):
    from django.core.management import call_command

    from comparison.tasks import start_run
    from tests.support.relay_targets import relay_target

    call_command("host_lab", "--load-snapshot", str(SNAPSHOT))
    run = start_run(target=relay_target("images"), revisions=["2025-06-18"], scenarios=["mixed"])
    assert run.status == "done", run.error
    result = run.results.get(scenario="mixed")
    html = client.get(result.get_absolute_url()).content.decode()
    table = html[html.index('id="measured-hosts"') :].split("</section>")[0]
    assert table.count("<tr data-host=") == len(MEASURED_HOSTS)
    assert "from the lab, Codex CLI 0.169.0" in table
    assert 'class="chip chip-dropped" title="not shown">annotations: dropped' in table
    lines = html[html.index('class="host-lines"') :].split("</ul>")[0]
    assert 'data-host="codex"' in lines
    assert f'data-host="{SUBJECT_HOST}"' not in lines, "the subject proxy is not a host"

    page = client.get(run.get_absolute_url()).content.decode()
    interop = page[page.index('id="host-interop-table"') :].split("</table>")[0]
    codex = interop[interop.index("<td>Codex CLI") :].split("</tr>")[0]
    assert "lab</span>" in codex
    assert "0.0 % (0 of 1)" in codex, "it keeps images: the lost image block reaches its model no more"
    assert "mcpx" not in interop

    data = client.get(f"/api/v1/results/{result.pk}/").json()
    assert {p["host"] for p in data["predictions"]} == MEASURED_HOSTS
    assert data["interop"]["codex"] is False


def test_a_rows_lab_state_is_has_lacks_or_partial_as_its_features_reach_the_model():
    from comparison.hostlab import claims

    assert claims.lab_state(["kept"]) == "has"
    assert claims.lab_state(["dropped", "not supported"]) == "lacks"
    assert claims.lab_state(["kept", "dropped"]) == claims.lab_state(["changed"]) == "partial"
    assert claims.lab_state(["not measured"]) == claims.lab_state([]) == ""


def facts_count(html: str) -> str:
    return html[html.index('id="result-count">') :].split("<")[0].split(">")[1]


@pytest.mark.django_db
def test_the_measured_hosts_filter_compare_and_fill_the_matrix_and_row_pages(loaded, client):
    from django.core.management import call_command

    call_command("host_lab", "--load-snapshot", str(SNAPSHOT))
    # CT-01 is about text blocks: the lab saw Codex CLI keep them and Gemini CLI change them.
    assert "Ignored" not in client.get("/?host=claude-code").content.decode()
    has = client.get("/?host=codex&host_mode=has").content.decode()
    assert 'id="row-CT-01"' in has
    partial = client.get("/?host=gemini-cli&host_mode=partial").content.decode()
    assert 'id="row-CT-01"' in partial
    assert 'id="row-CT-01"' not in client.get("/?host=gemini-cli&host_mode=has").content.decode()
    compared = client.get("/?host=codex&vs_host=gemini-cli").content.decode()
    assert 'id="row-CT-01"' in compared, "the two lab hosts differ on text blocks"

    matrix = client.get("/matrix/?host=codex").content.decode()
    assert "Hosts the lab measures" in matrix
    cell = matrix[matrix.index('class="host-cell host-lab" data-host="codex"') :].split("</td>")[0]
    assert "not in the register: from the lab" in cell

    row = client.get("/registers/content-types/CT-01/").content.decode()
    codex = row[row.index('id="lab-host-codex"') :].split("</li>")[0]
    assert '<span class="host host-has">has</span>' in codex
    assert "text: kept" in codex
    assert "not in the register: from the lab" in codex


@pytest.mark.django_db
def test_the_pages_say_which_hosts_are_installed_here_and_the_one_command_that_installs_them(client, admin_client):
    from comparison.hostlab.adapters import ADAPTERS
    from comparison.hostlab.lab import binary_path
    from comparison.selectors import lab as lab_selectors

    missing = lab_selectors.not_installed_hosts()
    for adapter in ADAPTERS.values():
        if adapter.runnable and adapter.binary != "node":
            assert (adapter.label in missing) is (binary_path(adapter, None) is None), adapter.key
    hosts = client.get("/hosts/").content.decode()
    assert ('id="not-installed"' in hosts) is bool(missing)
    form = admin_client.get("/hosts/lab/").content.decode()
    for adapter in ADAPTERS.values():
        line = form[form.index(f'<li data-host="{adapter.key}">') :].split("</li>")[0]
        if not adapter.runnable:
            assert adapter.unavailable in line
        elif adapter.label in missing:
            assert "not installed here: scripts/install_hosts.sh installs it" in line
        else:
            assert line.endswith(": runs"), line
    installed = lab_selectors.installed_hosts()
    assert ("Run through every installed host (" + ", ".join(installed) + ")" in form) is bool(installed)
    assert ('id="none-installed"' in form) is not installed


def test_the_start_command_installs_the_hosts_unless_told_not_to():
    start = (PROJECT / "scripts" / "start.sh").read_text(encoding="utf-8")
    assert 'if [ "${MCP_COMPARE_HOSTS:-1}" != 0 ]; then\n  scripts/install_hosts.sh' in start
    install = PROJECT / "scripts" / "install_hosts.sh"
    assert install.stat().st_mode & 0o111
    assert "ensure_lab_hosts" in install.read_text(encoding="utf-8")
