"""The read-only JSON API (`/api/v1/`): every endpoint's shape, its query count held constant as
the data grows, the row list's filters, no writes, and the badge."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from common import charts
from comparison.hostlab.adapters import ADAPTERS
from comparison.models import ProbeRun
from comparison.selectors import runs as selectors
from comparison.services import lab as lab_services
from comparison.services.probing import ensure_builtin_target
from comparison.tasks import execute_run_task, start_run
from registers.loader import load_registers
from tests.conftest import TEST_DATA

pytestmark = pytest.mark.django_db


def get(client, url: str):
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    assert response["Content-Type"] == "application/json"
    return json.loads(response.content)


def queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.fixture
def evidence_run(db):
    """The test register (tests/data/evidence.md) loaded and a run of the built-in target."""
    load_registers([TEST_DATA / "evidence.md"])
    target = ensure_builtin_target()
    run = start_run(target=target, revisions=["2025-06-18"], scenarios=["text", "audio"])
    return target, run


def test_the_index_lists_every_endpoint(client):
    index = get(client, "/api/v1/")
    assert index["version"] == 1
    assert index["read_only"] is False
    assert set(index["endpoints"]) >= {
        "registers", "register", "rows", "row", "disagreements", "targets", "target", "runs", "run", "result", "compare",
        "hosts", "lab_host", "lab_feature", "compare_hosts", "lab_observation", "openapi", "docs", "create_target",
        "edit_target", "start_run", "cancel_run", "upload_run",
    }  # fmt: skip
    # Every path of the generated OpenAPI document is in the index.
    listed = " ".join(index["endpoints"].values())
    for path in get(client, "/api/v1/openapi.json")["paths"]:
        assert path.split("{")[0] in listed, path


def test_registers_and_rows_with_states_notes_citations_and_verdicts(evidence_run, client):
    registers = get(client, "/api/v1/registers/")["registers"]
    assert [(r["slug"], r["rows"]) for r in registers] == [("evidence", 4)]
    register = get(client, "/api/v1/registers/evidence/")
    assert register["row_ids"] == ["CT-01", "CT-03", "CT-05", "CT-77"]
    assert register["rows_url"] == "/api/v1/rows/?register=evidence"
    rows = get(client, "/api/v1/rows/?evidence=disagrees")
    assert (rows["count"], rows["filter"]) == (2, {"evidence": "disagrees"})
    ct03 = rows["rows"][0]
    assert ct03["row_id"] == "CT-03"
    assert ct03["revisions"]["2025-03-26"]["state"] == "exists"
    assert ct03["hosts"]["opencode-v1"]["state"] == "has"
    assert ct03["citations"][0]["raw"].endswith("ct-03>")
    assert ct03["probe_verdicts"] == {"as expected": 1}, "audio exists at 2025-06-18"
    assert ct03["evidence"] == "disagrees"
    assert get(client, "/api/v1/rows/?revision=2025-11-25&rev_mode=absent")["count"] == 0
    assert get(client, "/api/v1/rows/?bogus=1&status=nope")["ignored"] == ["status=nope"]
    row = get(client, "/api/v1/rows/CT-03/")
    assert row["evidence"]["opencode-v1"]["verdict"] == "disagrees"
    assert {s["kind"] for s in row["evidence"]["opencode-v1"]["sources"]} >= {"host model", "real host", "probe"}
    assert client.get("/api/v1/rows/XX-99/").status_code == 404
    assert [d["row_id"] for d in get(client, "/api/v1/disagreements/")["disagreements"]] == ["CT-03", "CT-05"]


def test_targets_runs_results_and_comparisons(evidence_run, client):
    target, run = evidence_run
    targets = get(client, "/api/v1/targets/")["targets"]
    assert targets[0]["name"] == target.name
    assert targets[0]["badge"] == f"/probes/targets/{target.pk}/badge.svg"
    runs = get(client, f"/api/v1/runs/?target={target.pk}")
    assert runs["count"] == 1
    summary = runs["runs"][0]
    assert summary["counts"] == {
        "as expected": 2,
        "changed by proxy": 0,
        "invalid for revision": 0,
        "failed to probe": 0,
        "lost by proxy": 0,
        "refused by proxy": 0,
        "not testable": 0,
        "intermittent": 0,
        "not compared": 0,
    }
    assert summary["interop"]["overall"] == {"same": 2, "scored": 2, "percent": 100.0}
    detail = get(client, f"/api/v1/runs/{run.pk}/")
    assert [r["scenario"] for r in detail["results"]] == ["text", "audio"]
    result = get(client, detail["results"][0]["url"])
    assert result["exchanges"][-1]["request"]["method"] == "tools/call"
    assert result["interop"]["lootbox"] is True
    compared = get(client, f"/api/v1/compare/?run={run.pk}&run={run.pk}")
    assert compared["format"] == "mcp-compare/comparison/1"
    assert len(compared["runs"]) == 1, "a run named twice is one column"


def test_every_endpoint_keeps_its_queries_as_the_data_grows(evidence_run, client):
    target, run = evidence_run
    urls = ["/api/v1/registers/", "/api/v1/rows/", "/api/v1/disagreements/", "/api/v1/targets/", "/api/v1/runs/"]
    before = {url: queries(client, url + "?before") for url in urls}
    load_registers([TEST_DATA / "promises.md"])
    second = start_run(target=target, revisions=["2025-06-18", "2025-11-25"], scenarios=["text", "image", "audio"])
    after = {url: queries(client, url + "?after") for url in urls}
    assert before == after
    assert queries(client, f"/api/v1/runs/{run.pk}/") == queries(client, f"/api/v1/runs/{second.pk}/")
    assert queries(client, f"/api/v1/compare/?run={run.pk}") == queries(
        client, f"/api/v1/compare/?run={run.pk}&run={second.pk}"
    )


def test_only_the_documented_writes_exist(evidence_run, client, admin_client):
    assert client.post("/api/v1/rows/").status_code == 405
    for url in ("/api/v1/rows/", "/api/v1/targets/", "/api/v1/runs/"):
        assert admin_client.delete(url).status_code == 405
    assert client.post("/api/v1/targets/").status_code == 401, "a write without a token or a session"


def test_html_pages_link_their_api_twins(evidence_run, client):
    target, run = evidence_run
    for page, twin in (
        ("/", "/api/v1/rows/"),
        ("/registers/evidence/", "/api/v1/registers/evidence/"),
        ("/registers/evidence/CT-03/", "/api/v1/rows/CT-03/"),
        ("/disagreements/", "/api/v1/disagreements/"),
        ("/probes/", "/api/v1/targets/"),
        (target.get_absolute_url(), f"/api/v1/targets/{target.pk}/"),
        (run.get_absolute_url(), f"/api/v1/runs/{run.pk}/"),
        (f"/probes/compare/?run={run.pk}", f"/api/v1/compare/?run={run.pk}"),
    ):
        assert f'<link rel="alternate" type="application/json" href="{twin}"' in client.get(page).content.decode(), page


def test_the_badge_is_valid_svg_with_a_figure_per_revision(evidence_run, client):
    """Issue 26, row 4: the badge shows the measure the target's page leads with (interop), named,
    not "as expected", which the fixture's deliberate invalid-for-revision cells pull down."""
    target, _ = evidence_run
    response = client.get(f"/probes/targets/{target.pk}/badge.svg")
    assert response["Content-Type"].startswith("image/svg+xml")
    root = ET.fromstring(response.content)  # noqa: S314  (our own output)
    svg = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{svg}svg"
    assert root.get("aria-label") == "mcp-compare: interop 100.0%"
    zones = [rect.find(f"{svg}title").text for rect in root.iter(f"{svg}rect") if rect.get("class") == "revision"]
    assert zones == ["2025-06-18: interop 2/2"]
    run = start_run(target=target, revisions=["2024-11-05", "2025-11-25"], scenarios=["text", "audio"])
    assert run.results.filter(verdict="invalid for revision").count() == 1, "audio is new in 2025-03-26"
    root = ET.fromstring(client.get(f"/probes/targets/{target.pk}/badge.svg?again").content)  # noqa: S314
    assert root.get("aria-label") == "mcp-compare: interop 100.0%", "every host gets what the fixture sends"
    zones = [rect.find(f"{svg}title").text for rect in root.iter(f"{svg}rect") if rect.get("class") == "revision"]
    assert zones == ["2024-11-05: interop 2/2", "2025-11-25: interop 2/2"]
    score = selectors.score_of(selectors.run_cells([run.pk])[run.pk]).overall
    assert f"{score.percent}% ({score.same}/{score.scored})" in client.get(target.get_absolute_url()).content.decode()


def test_a_badge_without_an_upstream_names_its_other_measure(evidence_run, client):
    from comparison.models import ProbeResult

    target, run = evidence_run
    ProbeResult.objects.filter(run=run).update(interop={})
    root = ET.fromstring(client.get(f"/probes/targets/{target.pk}/badge.svg").content)  # noqa: S314
    assert root.get("aria-label") == "mcp-compare: valid 100.0%"


def test_every_badge_colour_keeps_white_text_readable():
    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    for tone, colour in charts.BADGE_TONES.items():
        assert 1.05 / (luminance(colour) + 0.05) >= 4.5, tone


def test_detail_endpoints_keep_their_queries_whatever_the_object(evidence_run, client):
    target, run = evidence_run
    load_registers([TEST_DATA / "promises.md"])
    results = list(run.results.values_list("pk", flat=True))
    client.get("/api/v1/rows/CT-01/")  # the latest runs' cells are read once per process: read them first
    for one, other in (
        ("/api/v1/registers/evidence/", "/api/v1/registers/promises/"),
        ("/api/v1/rows/CT-03/", "/api/v1/rows/PR-01/"),
        (f"/api/v1/results/{results[0]}/", f"/api/v1/results/{results[1]}/"),
        (f"/api/v1/targets/{target.pk}/", f"/api/v1/targets/{target.pk}/?again"),
    ):
        assert queries(client, one) == queries(client, other), (one, other)


def test_the_api_says_done_once_the_run_ends_whatever_it_cached_after_the_last_result(client, monkeypatch):
    """Issue 22: A run's end changes the data version: a run cached as "running" after its last result must
    not outlive the run."""
    from comparison.services import probing

    target = probing.ensure_builtin_target()
    run = ProbeRun.objects.create(
        target=target, revisions=["2025-06-18"], scenarios=["text", "audio"], total=2, status=ProbeRun.QUEUED
    )
    url = f"/api/v1/runs/{run.pk}/"
    seen = []
    save = probing._save_result

    def save_then_look(run_, data):
        save(run_, data)
        seen.append(client.get(url).json()["status"])  # cached now, after this result

    monkeypatch.setattr(probing, "_save_result", save_then_look)
    execute_run_task.call(run.pk)  # as a worker runs it
    assert seen == ["running", "running"]
    answer = client.get(url)
    assert answer.json()["status"] == "done"
    assert answer.json()["done"] == 2


#: A value for each path parameter the API's URL table uses; a new parameter fails the test below
#: until it has one, so a new endpoint cannot escape the write test.
SAMPLES = {"slug": "content-types", "row_id": "CT-01", "pk": None, "key": "codex", "feature": "image"}


def observation_pk() -> int:
    from comparison.hostlab import lab

    item = lab.not_measured(ADAPTERS["lootbox"], "text", "f", "not run here")
    return lab_services._save(item, "fixture")["id"]


def api_urls_to_try(client, run: ProbeRun) -> list[tuple[str, set[str]]]:
    """Every path of the generated OpenAPI document, filled with samples, and the methods it
    documents."""
    urls = []
    for path, operations in client.get("/api/v1/openapi.json").json()["paths"].items():
        names = re.findall(r"{(\w+)}", path)
        missing = [name for name in names if name not in SAMPLES]
        assert not missing, f"{path} takes {missing}: add a sample to SAMPLES"
        values = {name: SAMPLES[name] for name in names}
        if "pk" in values:
            known = {"targets": run.target_id, "runs": run.pk, "observations": observation_pk()}
            values["pk"] = next((pk for part, pk in known.items() if f"/{part}/" in path), run.results.first().pk)
        urls.append(
            (
                re.sub(r"{(\w+)}", lambda m, values=values: str(values[m.group(1)]), path),
                {m.upper() for m in operations},
            )
        )
    return urls


def test_every_api_endpoint_refuses_every_write_method_it_does_not_document(loaded, client, admin_client):
    """Issue 22."""
    run = start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text"])
    urls = api_urls_to_try(client, run)
    assert len(urls) == 21, "18 reads, then targets/{pk}/ (PATCH), runs/{pk}/cancel/ and runs/upload/"
    for url, documented in urls:
        if "GET" in documented:
            assert client.get(url).status_code in (200, 300), url
        for who in (client, admin_client):
            for method in ("post", "put", "patch", "delete"):
                if method.upper() in documented:
                    continue
                response = getattr(who, method)(url)
                assert response.status_code == 405, (url, method, response.status_code)
                allowed = {method.strip() for method in response["Allow"].split(",")}
                assert allowed <= documented | {"HEAD", "OPTIONS"}, (url, response["Allow"])
