"""The real hosts, run by the lab at their pinned versions: what reached each model, per content
kind and failure, must equal what was captured when the versions were pinned
(tests/data/host_lab_pinned.json); no host reaches beyond 127.0.0.1; every process ends; and
each hand model agrees with its host.

Re-pin after changing a version: MCP_COMPARE_LAB_PIN=1 pytest tests/e2e/test_host_lab.py -k pinned
"""

from __future__ import annotations

import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from comparison.hostlab import catalogue, lab
from comparison.hostlab.adapters import ADAPTERS
from comparison.hostlab.install import missing
from comparison.hostlab.predictions import MODELS, partings
from comparison.probes.fixture import forkserver
from tests.support.lab_runs import AT_ONCE, RUNNABLE, catalogue_observations, run_slot
from tests.support.processes import HUB_DAEMON, command_lines

pytestmark = [pytest.mark.realhost, pytest.mark.timeout(900)]
PINNED = Path(__file__).resolve().parents[1] / "data" / "host_lab_pinned.json"
LOOPBACK = ("inet:127.0.0.1", "inet:::1", "inet:::ffff:127.0.0.1")


@pytest.fixture(scope="module", autouse=True)
def installed():
    gaps = missing(tuple(ADAPTERS[key].binary for key in RUNNABLE if ADAPTERS[key].binary != "node"))
    assert not gaps, f"lab hosts not installed ({', '.join(gaps)}): npm install in comparison/hostlab/node"


@pytest.fixture(scope="module")
def observed():
    return catalogue_observations()


def pinned_form(item: dict) -> dict:
    return {
        "version": item["version"],
        "cells": [[cell["feature"], cell["chip"]] for cell in item["cells"]],
        "parts": item["reached"]["parts"],
        "error_flag": item["reached"]["error_flag"],
        "protocol_version": item["told"].get("protocol_version"),
    }


def test_pin(observed):
    """Writes the pinned captures when asked (MCP_COMPARE_LAB_PIN=1); otherwise checks the file
    covers every runnable host and scenario."""
    if os.environ.get("MCP_COMPARE_LAB_PIN"):
        data = {host: {s.tool: pinned_form(observed[(host, s.tool)]) for s in catalogue.SCENARIOS} for host in RUNNABLE}
        PINNED.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    assert sorted(pinned) == sorted(RUNNABLE)
    assert all(sorted(pinned[host]) == sorted(catalogue.BY_TOOL) for host in pinned)


@pytest.mark.parametrize("host", RUNNABLE)
@pytest.mark.parametrize("scenario", [s.tool for s in catalogue.SCENARIOS])
def test_pinned_capture(observed, host, scenario):
    """One test per host and content kind or failure: fails when what reached the model changes."""
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))[host][scenario]
    item = observed[(host, scenario)]
    assert item["version"] == pinned["version"]
    assert pinned_form(item) == pinned, f"{host} {scenario}: {json.dumps(item['reached'])[:2000]}"


@pytest.mark.parametrize("host", RUNNABLE)
def test_every_run_reached_the_model(observed, host):
    """No run ended without the tool's result reaching the fake model (a run that did would be a
    'not measured', never a pass)."""
    missed = [s.tool for s in catalogue.SCENARIOS if not observed[(host, s.tool)]["reached"]["reached"]]
    assert missed == []


#: {host: (observation, processes naming the run's folder once it returned)}: one traced run per
#: host, shared by the two tests below (they run in one process unless the split parts them).
_TRACED: dict[str, tuple[dict, list[str]]] = {}


def traced_run(host: str) -> tuple[dict, list[str]]:
    """One run of the host under strace, the text scenario, with as many starts as the lab gives
    the host (Cline's first start can miss its MCP tools): what it observed, and every process left
    that names the run's own folder (the host, its children, the recorder, the upstream)."""
    from comparison.hostlab.lab import binary_path, observe
    from comparison.hostlab.runner import HostRun, run

    if host not in _TRACED:
        adapter = ADAPTERS[host]
        homes = []
        for _ in range(adapter.starts):
            asked = HostRun(
                tool="text",
                server=forkserver.fixture_command(),
                server_env=catalogue.fixture_environment(),
                trace_connects=True,
            )
            record = run(adapter, binary_path(adapter), asked)
            homes.append(record.home.encode())
            if record.capture is not None:
                break
        _TRACED[host] = (observe(record, adapter, "text", catalogue.fixture_version()), _naming(homes))
    return _TRACED[host]


def _naming(homes: list[bytes]) -> list[str]:
    """What still names one of the runs' folders, but Cline's hub daemon: Cline starts it in a
    session of its own for every run to share, and it names the folder of the run that started it
    (the suite ends it once every test is done, tests.support.processes.end_hub_daemons). The test
    met it only when no Cline run had started it before (run alone, it failed on it)."""
    return [
        cmdline.replace(b"\0", b" ").decode(errors="replace")[:200]
        for _, cmdline in command_lines()
        if any(home in cmdline for home in homes) and not all(part in cmdline for part in HUB_DAEMON)
    ]


@pytest.mark.parametrize("host", RUNNABLE)
def test_no_host_connects_beyond_loopback(host):
    """One run per host under strace: every connect() of every process is to loopback or a local
    socket; what tried to leave through the proxy variables was refused by the trap."""
    item, _ = traced_run(host)
    assert "(no trace written)" not in item["connects"]
    beyond = [c for c in item["connects"] if not c.startswith("unix:") and c not in LOOPBACK]
    assert beyond == [], f"{host} connected to {beyond} (refused by the trap: {item['egress']})"
    assert item["reached"]["reached"]


@pytest.mark.parametrize("host", RUNNABLE)
def test_every_process_of_a_run_ended(host):
    """After a run, no process names the run's own folder (the host, its children, the recorder,
    the upstream): its whole process group was ended. Other tests' runs may be going on meanwhile."""
    item, left = traced_run(host)
    assert item["raw"]["capture"] is not None
    assert left == []


@pytest.mark.parametrize("host", sorted(MODELS))
def test_the_hand_model_agrees_with_its_host(observed, host):
    """The hand models are predictions: where one parts from its host at the pinned version, the
    model is wrong (or the host changed) and this fails with every place they part."""
    parted = {
        s.tool: found
        for s in catalogue.SCENARIOS
        if (found := partings(host, s.tool, observed[(host, s.tool)]["cells"]))
    }
    assert parted == {}


def test_the_user_server_command_runs_a_server_through_a_host(tmp_path):
    """`--server-command`: another stdio MCP server than the fixture, one tool, one host."""
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"hello": {"content": [{"type": "text", "text": "from a user server"}]}}))
    server = [sys.executable, str(Path("comparison/hostlab/stdio_result_server.py").resolve()), str(cases)]
    item = lab.run_one(ADAPTERS["codex"], "hello", lab.RunSetup(server=server))
    assert item["fixture"] == "user-server"
    assert [part["text"] for part in item["reached"]["parts"] if part["kind"] == "text"][-1] == "from a user server"


CONFORMANCE_PINNED = Path(__file__).resolve().parents[1] / "data" / "host_lab_conformance_pinned.json"
SUITE_SCENARIOS = ("initialize", "tools_call", "request-metadata")


@pytest.fixture(scope="module")
def suite_outcomes():
    from comparison.hostlab.conformance_client import run_scenario

    def measured(pair: tuple[str, str]) -> dict:
        with run_slot():
            return run_scenario(*pair)

    # Two at once, as the catalogue's runs: each holds one of the slots every test process shares.
    pairs = [(host, scenario) for host in RUNNABLE for scenario in SUITE_SCENARIOS]
    with ThreadPoolExecutor(max_workers=AT_ONCE) as pool:
        return dict(zip(pairs, pool.map(measured, pairs), strict=True))


def test_the_conformance_suite_client_scenarios_per_host(suite_outcomes):
    """The official suite's client scenarios against each host: every one measured (a check was
    made), and the outcome per host and scenario as pinned (MCP_COMPARE_LAB_PIN=1 re-pins)."""
    found = {f"{host} {scenario}": item["outcome"] for (host, scenario), item in suite_outcomes.items()}
    if os.environ.get("MCP_COMPARE_LAB_PIN"):
        CONFORMANCE_PINNED.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    unmeasured = {key: item["error"] for key, item in suite_outcomes.items() if not item["checks"]}
    assert unmeasured == {}
    assert found == json.loads(CONFORMANCE_PINNED.read_text(encoding="utf-8"))


def test_structured_readings_tell_the_text_from_the_value(observed):
    """The fixture's structured tool says its value in words, never as its JSON, and the value's
    strings hold spaces: each host's chips follow what really reached its model (the value found
    by parsing, the words by their text), and the hosts a hand run showed passing only the text
    (Gemini CLI 0.61.0, opencode 1.18.33) never get the value."""
    from comparison.hostlab.features import json_values_in
    from comparison.probes.fixture.fixture_content import WEATHER, WEATHER_WORDS

    for host in RUNNABLE:
        item = observed[(host, "structured")]
        chips = {cell["feature"]: cell["chip"] for cell in item["cells"]}
        shown = item["reached"]["text"]
        value_reached = any(found == WEATHER for found in json_values_in(shown))
        assert (chips["structured-beside"] in ("kept", "changed")) is value_reached, (host, chips, shown[:300])
        assert (chips["text"] in ("kept", "changed")) is (WEATHER_WORDS in shown), (host, chips, shown[:300])
    for host in ("gemini-cli", "opencode"):
        chips = {cell["feature"]: cell["chip"] for cell in observed[(host, "structured")]["cells"]}
        assert chips["structured-beside"] == "dropped", host


def test_the_shipped_snapshot_says_what_the_hosts_do_now(observed):
    """comparison/data/host_lab_observations.json (what a fresh dashboard shows) holds the same
    chips as the hosts give at their pinned versions; re-export with `host_lab --export-snapshot`."""
    shipped = json.loads(Path("comparison/data/host_lab_observations.json").read_text(encoding="utf-8"))
    # The snapshot also carries other versions' sweeps and the hosts' release lists: the pinned ones here.
    chips = {
        (i["host"], i["scenario"]): i["cells"]
        for i in shipped
        if i.get("server") == "fixture" and i["host"] in RUNNABLE and i["version"] == ADAPTERS[i["host"]].version
    }
    now = {key: item["cells"] for key, item in observed.items()}
    assert chips == now
