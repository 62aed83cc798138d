"""The interop score (comparison.probes.interop), the comparison of runs (multicompare) and the
server-drawn charts (comparison.charts), over plain data."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from comparison import charts
from comparison.probes.interop import cell_interop, received, run_score
from comparison.probes.multicompare import compare_runs
from registers.vocabulary import HOSTS

TEXT = {"content": [{"type": "text", "text": "hello"}]}
AUDIO = {"content": [{"type": "audio", "data": "AAAA", "mimeType": "audio/wav"}]}


def test_an_added_iserror_false_reaches_only_the_hosts_that_hand_on_the_whole_result():
    same = cell_interop("tools/call", {"result": {**TEXT, "isError": False}}, {"result": TEXT})
    assert set(same) == set(HOSTS)
    assert same["lootbox"] is False, "a lootbox script gets the result object, isError included"
    assert same["opencode-v2"] is True, "opencode v2's model gets the same text"


def test_an_error_turned_into_a_result_differs_for_every_host():
    error = {"error": {"code": -32001, "message": "Upstream database unavailable"}}
    result = {"result": {"content": [{"type": "text", "text": "Upstream database unavailable"}], "isError": True}}
    assert cell_interop("tools/call", result, error) == dict.fromkeys(HOSTS, False)
    assert cell_interop("tools/call", error, error) == dict.fromkeys(HOSTS, True)


def test_errors_alike_by_the_callers_rule():
    want = {"error": {"code": -32602}}
    got = {"error": {"code": -32602, "message": "whatever the server says"}}
    assert set(cell_interop("tools/call", got, want).values()) == {False}
    alike = cell_interop("tools/call", got, want, same_error=lambda a, b: a["code"] == b["code"])
    assert set(alike.values()) == {True}


def test_a_prompt_reaches_only_the_hosts_that_take_prompts():
    prompt = {"result": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}]}}
    assert set(received("prompts/get", prompt)) == {"opencode-v1", "opencode-v2", "mcpx"}
    assert set(received("tools/list", {"result": {"tools": []}})) == set(HOSTS)
    assert received("tools/call", None) == {}
    assert cell_interop("tools/call", {"result": TEXT}, None) == {}, "no reference: unscored"


def cell(scenario, verdict, interop):
    return {"scenario": scenario, "revision": "2025-06-18", "verdict": verdict, "interop": interop}


def test_the_run_score_counts_cells_hosts_and_validity():
    everyone = dict.fromkeys(HOSTS, True)
    cells = [
        cell("a", "as expected", everyone),
        cell("b", "changed by proxy", {**everyone, "lootbox": False}),
        cell("c", "invalid for revision", everyone),
        cell("d", "failed to probe", {}),
        cell("e", "as expected", {}),
    ]
    score = run_score(cells, failed="failed to probe", invalid="invalid for revision")
    assert score.overall.as_dict() == {"same": 2, "scored": 4, "percent": 50.0}, "e unscored, d against every host"
    assert score.hosts["lootbox"].as_dict() == {"same": 2, "scored": 4, "percent": 50.0}
    assert score.hosts["mcpx"].as_dict() == {"same": 3, "scored": 4, "percent": 75.0}
    assert score.valid.as_dict() == {"same": 3, "scored": 4, "percent": 75.0}, "failed cells are not judged valid"
    assert score.differing["lootbox"] == [("b", "2025-06-18"), ("d", "2025-06-18")]
    unscored = run_score([cell("d", "failed to probe", {})], failed="failed to probe", invalid="x")
    assert unscored.overall.percent is None, "a run with no reference scores nothing"


def test_runs_compared_cell_by_cell_in_the_first_runs_order():
    def result(pk, scenario, verdict, interop=None, diff=()):
        return {
            "id": pk,
            "scenario": scenario,
            "revision": "2025-06-18",
            "verdict": verdict,
            "failure": "",
            "diff": list(diff),
            "interop": interop or {},
        }

    runs = [
        {"id": 1, "target": "A", "status": "done", "created": "t", "results": [result(1, "x", "as expected")]},
        {
            "id": 2,
            "target": "B",
            "status": "done",
            "created": "t",
            "results": [
                result(2, "y", "as expected"),
                result(3, "x", "changed by proxy", {"lootbox": False}, [{"path": "result.isError", "change": "added"}]),
            ],
        },
    ]
    found = compare_runs(runs)
    assert [(line.scenario, [c.result_id if c else None for c in line.cells]) for line in found.lines] == [
        ("x", [1, 3]),
        ("y", [None, 2]),
    ]
    changed = found.lines[0].cells[1]
    assert changed.changes == ["result.isError added"]
    assert changed.differs_for == ["lootbox"]
    assert found.lines[0].verdicts_differ
    assert found.lines[1].verdicts_differ
    assert found.as_dict()["runs"][1]["counts"]["changed by proxy"] == 1


def test_a_chart_is_valid_svg_with_every_text_escaped_and_its_table():
    drawn = charts.chart(
        "<script>alert(1)</script> & more",
        [charts.share_bar("<b>target</b>", 3, 4), charts.share_bar("unscored", 0, 0)],
    )
    root = ET.fromstring(drawn.svg)  # noqa: S314  (our own output)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert "<script>" not in drawn.svg
    assert "&lt;script&gt;" in drawn.svg
    bars = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if "chart-good" in r.get("class", "")]
    assert [float(r.get("width")) for r in bars] == [charts.BAR_WIDTH * 3 / 4], "a bar's length is its share"
    assert drawn.table == [["<b>target</b>", "3", "1", "75% (3/4)"], ["unscored", "0", "0", "not scored"]]


def test_the_revision_timeline_and_support_bars_carry_their_counts():
    timeline = charts.revision_timeline("t", [("2024-11-05", 3, 0, 1), ("2025-06-18", 0, 2, 0)])
    assert timeline.columns == ["introduced", "deprecated", "removed"]
    assert timeline.table == [
        ["2024-11-05", "3", "0", "1", "+3 / ~0 / −1"],
        ["2025-06-18", "0", "2", "0", "+0 / ~2 / −0"],
    ]
    support = charts.support_bars("s", [("opencode v1", {"has": 2, "lacks": 1})])
    assert support.table == [["opencode v1", "2", "0", "1", "0", "0", "3 rows"]]
    ET.fromstring(support.svg)  # noqa: S314  (our own output)
