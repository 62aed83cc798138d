"""Anything a target sends becomes a recorded verdict, never an exception: a hostile target of our
own (tests/support/hostile.py) over Streamable HTTP and stdio, through the real wire client, runner, host
models, scorer, storage, pages, exports and the `probe` command."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command

from comparison.models import ProbeResult, ProbeRun, ProbeTarget
from comparison.probes.run.runner import FAILED, ProbePlan, TargetSpec, run_probe
from comparison.probes.run.scenarios import Scenario
from comparison.probes.transport.exchange import Limits
from comparison.services.probing import _save_result
from tests.support import hostile
from tests.support.processes import PROJECT, free_port, server

LIMITS = Limits(connect_timeout=2.0, total_timeout=5.0)
REVISION = "2025-06-18"
SECRET = "s3cr3t-api-key-value"
BEARER = "Bearer tok-0123456789abcdef"


def scenarios(http: bool) -> list[Scenario]:
    return [
        Scenario(shape.name, shape.name, shape.method, {"name": shape.name, "arguments": {}}, ("CT-13",))
        for shape in hostile.SHAPES
        if http or not shape.http_only
    ]


@pytest.fixture(scope="module")
def hostile_url():
    port = free_port()
    with server([sys.executable, "-m", "tests.support.hostile", "--port", str(port)], port):
        yield f"http://127.0.0.1:{port}/mcp"


def reason(outcome) -> str:
    return outcome.failure + " | " + " | ".join(f["message"] for f in outcome.findings)


def check(outcomes, http: bool) -> None:
    assert len(outcomes) == len(scenarios(http))
    for outcome in outcomes:
        shape = hostile.BY_NAME[outcome.scenario.key]
        assert "could not assess" not in outcome.failure, (shape.name, outcome.failure)
        assert outcome.verdict == shape.expected, (shape.name, outcome.verdict, reason(outcome))
        assert shape.mentions in reason(outcome), (shape.name, reason(outcome))
        json.dumps(outcome.as_dict())  # storable as JSON


def test_the_named_shapes_table_has_at_least_forty_shapes():
    assert len(hostile.SHAPES) >= 40
    assert len(hostile.BY_NAME) == len(hostile.SHAPES)


def test_every_hostile_shape_over_http_is_its_verdict(hostile_url):
    spec = TargetSpec("hostile", "http", url=hostile_url, headers={"X-Api-Key": SECRET, "Authorization": BEARER})
    outcomes = run_probe(spec, ProbePlan(scenarios=scenarios(http=True), revisions=[REVISION], limits=LIMITS))
    check(outcomes, http=True)
    echoed = next(o for o in outcomes if o.scenario.key == "echo-headers")
    stored = json.dumps(echoed.as_dict())
    assert SECRET not in stored
    assert "tok-0123456789abcdef" not in stored
    assert "X-Api-Key: ••• (configured)" not in stored  # the mask, not a rendering of it
    # The target got both configured headers (what it echoes back is masked on the way in).
    echoed_text = echoed.response["result"]["content"][0]["text"]
    assert "X-Api-Key=•••" in echoed_text
    assert "Authorization=•••" in echoed_text
    headers = echoed.exchanges[-1]["request_headers"]
    assert headers["X-Api-Key"] == headers["Authorization"] == "••• (configured)"


def test_every_hostile_shape_over_stdio_is_its_verdict():
    spec = TargetSpec("hostile", "stdio", command=[sys.executable, "-m", "tests.support.hostile", "--stdio"])
    outcomes = run_probe(spec, ProbePlan(scenarios=scenarios(http=False), revisions=[REVISION], limits=LIMITS))
    check(outcomes, http=False)
    assert not [o for o in outcomes if o.verdict == FAILED and "closed its output" in o.failure]


@pytest.mark.django_db
def test_hostile_results_are_stored_and_every_page_and_export_renders(hostile_url, client, admin_client):
    target = ProbeTarget.objects.create(
        name="hostile", transport="http", url=hostile_url, headers={"X-Api-Key": SECRET}, upstream="fixture"
    )
    run = ProbeRun.objects.create(target=target, revisions=[REVISION], scenarios=[], status=ProbeRun.DONE)
    outcomes = run_probe(target.spec(), ProbePlan(scenarios=scenarios(http=True), revisions=[REVISION], limits=LIMITS))
    for outcome in outcomes:
        _save_result(run, target.redactor().data(outcome.as_dict()))
    assert ProbeResult.objects.filter(run=run).count() == len(outcomes)
    pages = [f"/probes/results/{pk}/" for pk in ProbeResult.objects.filter(run=run).values_list("pk", flat=True)]
    pages += [
        f"/probes/runs/{run.pk}/",
        f"/probes/runs/{run.pk}/audit/",
        f"/probes/runs/{run.pk}/audit/?format=csv",
        f"/probes/runs/{run.pk}/audit/?format=json",
        f"/probes/compare/?a={run.pk}&b={run.pk}",
        f"/probes/targets/{target.pk}/",
        "/export.json",
        "/export.csv",
        "/export.html",
        "/export.md",
    ]
    for page in pages:
        for who in (client, admin_client):
            response = who.get(page)
            assert response.status_code == 200, page
            body = b"".join(response.streaming_content) if response.streaming else response.content
            assert SECRET.encode() not in body, page
    for pk in ProbeResult.objects.filter(run=run).values_list("pk", flat=True)[:10]:
        assert admin_client.get(f"/admin/comparison/proberesult/{pk}/change/").status_code == 200


def test_the_probe_command_never_prints_a_traceback(hostile_url):
    """Every fixture scenario at every revision meets one hostile shape after another."""
    completed = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "probe",
            "--url",
            hostile_url,
            "--upstream-fixture",
            "--header-env",
            "X-Api-Key=HOSTILE_KEY",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=PROJECT,
        env={**os.environ, "HOSTILE_KEY": SECRET},
        check=False,
    )
    assert completed.returncode == 1, completed.stderr[-2000:]
    assert "Traceback" not in completed.stderr + completed.stdout
    assert "result(s) broke an expectation" in completed.stderr
    assert "could not assess" not in completed.stdout
    assert SECRET not in completed.stdout + completed.stderr
    verdicts = re.findall(r"(as expected|changed by proxy|invalid for revision|failed to probe)", completed.stdout)
    assert len(verdicts) >= 35 * 5


def test_the_probe_command_json_over_stdio_masks_credential_arguments(capsys):
    command = f"{sys.executable} -m tests.support.hostile --stdio --token {SECRET}"
    with pytest.raises(CommandError) as raised:
        call_command("probe", "--command", command, "--json", "--revisions", REVISION)
    assert raised.value.returncode == 1
    output = capsys.readouterr()
    payload = json.loads(output.out)
    assert SECRET not in output.out + output.err
    assert payload["target"].endswith("--token •••")
