"""A conformance pass as part of a run (comparison.probes.conformance.conformance): the suite's folder read,
Direct beside Via, the summary, where the suite and our cells part, the pass as results for JUnit
and baselines; and a stdio target's run, which the suite cannot reach. The suite itself, through
real proxies, runs in tests/e2e/test_conformance.py and tests/e2e/test_conformance_runs.py."""

from __future__ import annotations

import json

import pytest

from comparison.core import pipeline
from comparison.probes.conformance import conformance as c
from language.vocabulary import ProbeVerdict as V


def checks(*statuses: str) -> list[c.Check]:
    return [
        c.Check(f"check-{i}", status, "" if status == "SUCCESS" else f"why {i}") for i, status in enumerate(statuses)
    ]


def test_the_suites_folder_is_read_and_anything_malformed_is_a_failure_never_an_error(tmp_path):
    good = tmp_path / "server-tools-call-image-2026-12-02T04-36-25-000Z"
    good.mkdir()
    (good / "checks.json").write_text(json.dumps([{"id": "tools-call-image", "status": "SUCCESS"}]))
    broken = tmp_path / "server-ping-2026-12-02T04-36-25-000Z"
    broken.mkdir()
    (broken / "checks.json").write_text("{not json")
    (tmp_path / "unrelated").mkdir()
    found = c.read_folder(tmp_path)
    assert found == {
        "tools-call-image": [c.Check("tools-call-image", "SUCCESS", "")],
        "ping": [c.Check("checks.json", "FAILURE", "the suite wrote checks that are not JSON")],
    }
    assert c.read_checks(json.dumps({"a": 1}))[0].message == "the suite wrote checks that are not a list"
    long = c.read_checks(json.dumps([{"id": "x", "status": "FAILURE", "errorMessage": "y" * 10_000}] * 100))
    assert len(long) == c.MAX_CHECKS
    assert len(long[0].message) == c.MAX_MESSAGE
    assert c.read_folder(tmp_path / "missing") == {}


def test_direct_beside_via_gives_each_scenario_its_verdict():
    direct = c.Pass(
        {"ping": checks("SUCCESS"), "tools-call-image": checks("SUCCESS"), "completion-complete": checks("FAILURE")}
    )
    via = c.Pass(
        {
            "ping": checks("SUCCESS"),
            "tools-call-image": checks("SUCCESS", "FAILURE"),
            "completion-complete": checks("SUCCESS"),
        }
    )
    rows = {row.scenario: row for row in c.compare(direct, via)}
    assert rows["ping"].verdict == V.AS_EXPECTED
    assert (rows["tools-call-image"].verdict, rows["tools-call-image"].message) == (V.LOST, "check-1: why 1")
    assert rows["tools-call-image"].via == (1, 1)
    assert rows["tools-call-image"].ours == ("image",)
    assert rows["completion-complete"].verdict == V.NOT_TESTABLE, "the fixture fails it: it says nothing"
    unreachable = c.compare(direct, c.Pass(error="the conformance suite took longer than 120 s"))
    assert {row.verdict for row in unreachable} == {V.FAILED, V.NOT_TESTABLE}
    stored = [row.as_dict() for row in c.compare(direct, via)]
    image = next(row for row in stored if row["scenario"] == "tools-call-image")
    assert image["via"]["checks"] == [
        {"id": "check-0", "status": "SUCCESS", "message": ""},
        {"id": "check-1", "status": "FAILURE", "message": "why 1"},
    ], "each check is kept with its message"
    assert c.summary(stored).sentence() == "conformance: 2 of 3 through this target (2 directly)"
    assert c.summary([], c.NOT_HTTP).sentence() == c.NOT_HTTP


def test_where_the_suite_and_our_cells_part_is_said_both_ways():
    rows = [
        c.Row("tools-call-with-progress", (1, 0), (0, 1), V.LOST, "no progress", ("progress",), ()).as_dict(),
        c.Row("tools-call-image", (1, 0), (1, 0), V.AS_EXPECTED, "", ("image",), ("CT-02",)).as_dict(),
        c.Row("ping", (1, 0), (1, 0), V.AS_EXPECTED, "", (), ()).as_dict(),
    ]
    ours = {"progress": V.AS_EXPECTED, "image": V.CHANGED}
    assert c.disagreements(rows, ours) == [
        "tools-call-with-progress: the suite says lost, our progress passed",
        "tools-call-image: the suite passes, our image changed by proxy",
    ]
    agreeing = {"progress": V.LOST, "image": V.AS_EXPECTED}
    assert c.disagreements(rows, agreeing) == []
    assert c.disagreements(rows, {"progress": V.NOT_TESTABLE}) == [], "a cell that could not test says nothing"


def test_the_pass_as_results_fails_junit_where_a_proxy_lost_and_never_passes_unrun():
    rows = [
        c.Row("ping", (1, 0), (1, 0), V.AS_EXPECTED, "", (), ()).as_dict(),
        c.Row("tools-call-sampling", (1, 0), (0, 1), V.LOST, "no sampling", ("ask-sampling",), ()).as_dict(),
    ]
    results = c.as_results(rows)
    assert [(r["scenario"], r["verdict"]) for r in results] == [
        ("conformance.ping", V.AS_EXPECTED),
        ("conformance.tools-call-sampling", V.LOST),
    ]
    junit = pipeline.junit_xml("proxy", results)
    assert 'classname="conformance.tools-call-sampling"' in junit
    assert 'failures="1"' in junit
    assert "no sampling" in junit
    unrun = c.as_results([], c.NOT_HTTP)
    assert [(r["scenario"], r["verdict"], r["failure"]) for r in unrun] == [("conformance", V.NOT_TESTABLE, c.NOT_HTTP)]
    assert 'errors="1"' in pipeline.junit_xml("stdio", unrun)
    baseline = pipeline.read_baseline(pipeline.write_baseline(results, "proxy"))
    assert baseline[("conformance.tools-call-sampling", "2025-11-25")] == V.LOST


@pytest.mark.django_db
def test_a_stdio_targets_run_says_the_suite_cannot_reach_it(client):
    from comparison.services.probing import ensure_builtin_target
    from comparison.tasks import start_run

    run = start_run(target=ensure_builtin_target(), revisions=["2025-11-25"], scenarios=["text"], conformance=True)
    run.refresh_from_db()
    assert run.status == "done"
    assert run.conformance_results == {"status": c.NOT_HTTP, "rows": []}
    page = client.get(run.get_absolute_url()).content.decode()
    assert c.NOT_HTTP in page
    assert "through this target" not in page, "never shown as passing"
    api = client.get(f"/api/v1/runs/{run.pk}/").json()["conformance"]
    assert (api["status"], api["rows"], api["summary"]) == (c.NOT_HTTP, [], c.NOT_HTTP)
    plain = start_run(target=ensure_builtin_target(), revisions=["2025-11-25"], scenarios=["text"])
    assert client.get(f"/api/v1/runs/{plain.pk}/").json()["conformance"] is None


def test_the_comparison_puts_the_suite_beside_each_runs_target_and_exports_it():
    from comparison.core import reports
    from comparison.probes.assessment.multicompare import compare_runs

    lost = c.Row("tools-call-sampling", (1, 0), (0, 1), V.LOST, "no sampling", (), ()).as_dict()
    kept = c.Row("tools-call-sampling", (1, 0), (1, 0), V.AS_EXPECTED, "", (), ()).as_dict()
    runs = [
        {
            "id": 1,
            "target": "A",
            "status": "done",
            "created": "c",
            "results": [],
            "conformance": {"status": "", "rows": [lost]},
        },
        {
            "id": 2,
            "target": "B",
            "status": "done",
            "created": "c",
            "results": [],
            "conformance": {"status": "", "rows": [kept]},
        },
        {"id": 3, "target": "C", "status": "done", "created": "c", "results": [], "conformance": None},
    ]
    found = compare_runs(runs)
    assert [column.conformance for column in found.columns] == [
        "conformance: 0 of 1 through this target (1 directly)",
        "conformance: 1 of 1 through this target (1 directly)",
        "",
    ]
    assert [(line.scenario, line.verdicts) for line in found.suite] == [
        ("tools-call-sampling", [V.LOST, V.AS_EXPECTED, None])
    ]
    data = found.as_dict()
    markdown = reports.comparison_markdown(data, {})
    assert "| official conformance suite | conformance: 0 of 1 through this target (1 directly) |" in markdown
    assert "| tools-call-sampling | lost by proxy | as expected | — |" in markdown
    csv = "".join(reports.comparison_csv(data))
    assert "conformance.tools-call-sampling,suite,1,A,lost by proxy" in csv
