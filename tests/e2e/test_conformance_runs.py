"""A conformance pass in a stored run, through a real proxy the run launches (mcp-proxy 0.13.0):
what it loses of the suite, by name, in the stored run, the run page, the JSON API and the JUnit of
`manage.py probe --conformance`; and where the suite and the run's own cells part."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from comparison.core import pipeline
from comparison.probes.conformance import conformance
from comparison.services.peer_targets import add_peer_targets
from comparison.tasks import start_run
from language.vocabulary import ProbeVerdict as V
from tests.support.conformance_losses import LOST_THROUGH
from tests.support.processes import free_port

pytestmark = [pytest.mark.peers, pytest.mark.django_db(transaction=True)]
SCENARIOS = ["image", "progress", "logging", "ask-sampling", "ask-elicit-form", "session-get"]


def _targets() -> dict[str, object]:
    added = {target.name.split(" ")[0]: target for target, _ in add_peer_targets()}
    stateful = added["supergateway"]
    # A port of its own: on a loaded machine the stateful gateway of a previous run was still
    # listening on the shared port, and the stateless run went through it (it lost nothing).
    port, own = str(urlsplit(stateful.url).port), str(free_port())
    stateless = type(stateful).objects.create(
        name="supergateway stateless → fixture",
        transport="http",
        url=stateful.url.replace(f":{port}/", f":{own}/"),
        launch=[own if arg == port else arg for arg in stateful.launch if arg != "--stateful"],
        suite="fixture",
        upstream="fixture",
    )
    return {"mcp-proxy": added["mcp-proxy"], "supergateway-stateful": stateful, "supergateway-stateless": stateless}


@pytest.fixture
def mcp_proxy():
    return next(target for target, _ in add_peer_targets() if target.name.startswith("mcp-proxy"))


@pytest.mark.parametrize("name", sorted(LOST_THROUGH))
def test_a_run_with_the_suite_stores_what_the_proxy_loses_by_name(name, client):
    target = _targets()[name]
    run = start_run(target=target, revisions=["2025-11-25"], scenarios=SCENARIOS, conformance=True)
    run.refresh_from_db()
    assert run.status == "done", run.error
    rows = run.conformance_results["rows"]
    assert run.conformance_results["status"] == ""
    assert len(rows) == 30
    lost = LOST_THROUGH[name]
    # On a failure, every row's counts say whether the direct pass or the one through the target moved.
    seen = [(row["scenario"], row["verdict"], row["direct"]["failed"], row["via"]["failed"]) for row in rows]
    assert {row["scenario"] for row in rows if row["verdict"] == V.LOST} == lost, seen
    assert {row["verdict"] for row in rows} == {V.AS_EXPECTED, V.LOST}, "the fixture passes all 30 directly"
    cited = {value for row in rows for value in row["anchors"] if value.startswith("page:")}
    assert {"page:tools", "page:lifecycle"} <= cited, "each check's spec references are anchors"
    page = client.get(run.get_absolute_url()).content.decode()
    assert f"conformance: {30 - len(lost)} of 30 through this target (30 directly)" in page
    assert page.count('<tr id="conformance-') == 30
    api = client.get(f"/api/v1/runs/{run.pk}/").json()["conformance"]
    assert (api["through"], api["directly"], api["total"]) == (30 - len(lost), 30, 30)
    assert {row["scenario"] for row in api["rows"] if row["verdict"] == V.LOST} == lost
    sentence = f"conformance: {30 - len(lost)} of 30 through this target (30 directly)"
    target_page = client.get(target.get_absolute_url()).content.decode()
    assert target_page.count('<tr id="conformance-') == 30
    assert sentence in target_page
    compared = client.get(f"/probes/compare/?run={run.pk}").content.decode()
    assert sentence in compared
    assert compared.count("<code>", compared.index('id="compare-conformance"')) >= 30
    badge = client.get(f"{target.get_absolute_url()}badge.svg").content.decode()
    assert f"suite {30 - len(lost)}/30" in badge
    # The stored pass as JUnit (what `probe --conformance --junit` writes): one case per suite
    # scenario, a failure for each lost one.
    junit = ET.fromstring(pipeline.junit_xml(target.name, conformance.as_results(rows)))  # noqa: S314 - our own XML
    failed = {case.get("classname") for case in junit.iter("testcase") if case.find("failure") is not None}
    assert failed == {f"conformance.{name}" for name in lost}
    # Our own cells at the same revision agree where the suite loses (progress and logging lost,
    # server requests refused); where the suite passes and our cell differs, the page says so.
    notes = conformance.disagreements(rows, {r.scenario: r.verdict for r in run.results.all()})
    assert not [note for note in notes if "the suite says lost" in note], notes
    for note in notes:
        assert note in page


def test_probe_conformance_writes_one_junit_case_per_suite_scenario(mcp_proxy, tmp_path):
    junit = tmp_path / "junit.xml"
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command(
            "probe", mcp_proxy.name, "--revisions", "2025-11-25", "--scenarios", "text", "--conformance",
            "--junit", str(junit), stdout=out,
        )  # fmt: skip
    cases = {
        case.get("classname").removeprefix("conformance."): case
        for case in ET.parse(junit).iter("testcase")  # noqa: S314 - our own file
        if case.get("classname", "").startswith("conformance.")
    }
    assert len(cases) == 30
    assert {name for name, case in cases.items() if case.find("failure") is not None} == LOST_THROUGH["mcp-proxy"]
    assert "conformance: 23 of 30 through this target (30 directly)" in out.getvalue()
