"""The interop score (comparison.probes.assessment.interop), the comparison of runs (multicompare) and the
server-drawn charts (common.charts), over plain data."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from common import charts
from comparison.probes.assessment.interop import cell_interop, received, run_score
from comparison.probes.assessment.multicompare import compare_runs
from language.vocabulary import HOSTS

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
    assert score.hosts["opencode-v2"].as_dict() == {"same": 3, "scored": 4, "percent": 75.0}
    assert "mcpx" not in score.hosts, "the registers' subject proxy is not a host"
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


def test_the_revision_timeline_draws_every_bar_to_one_scale():
    """Issue 26, row 5: "+5 introduced" was as long as "+1"; now each bar is its share of the busiest."""
    timeline = charts.revision_timeline(
        "t", [("2024-11-05", 5, 0, 0), ("2025-03-26", 1, 0, 0), ("2025-06-18", 0, 0, 0)]
    )
    drawn = ET.fromstring(timeline.svg)  # noqa: S314  (our own output)
    widths = [float(rect.get("width")) for rect in drawn.iter(f"{SVG}rect") if rect.get("class") == "chart-good"]
    assert widths == [charts.BAR_WIDTH, charts.BAR_WIDTH / 5], "an empty revision draws no bar"
    notes = [t.text for t in drawn.iter(f"{SVG}text") if t.text and t.text.startswith("+")]
    assert notes == ["+5 / ~0 / −0", "+1 / ~0 / −0", "+0 / ~0 / −0"]


def test_what_each_host_receives_exactly():
    error = {"error": {"code": -32602, "message": "bad argument"}}
    assert received("tools/call", error) == {key: {"throws": "MCP error -32602: bad argument"} for key in HOSTS}
    assert received("prompts/get", error) == {
        host: {"throws": "MCP error -32602: bad argument"} for host in ("opencode-v1", "opencode-v2", "mcpx")
    }, "only the hosts that take prompts get a prompt's error"
    assert received("tools/call", {"error": "no object"}) == {key: {"throws": "MCP error None: "} for key in HOSTS}
    assert received("tools/list", {"result": {"tools": []}}) == {key: {"answer": {"tools": []}} for key in HOSTS}
    assert received("prompts/get", {"result": "not a prompt"}) == {
        host: {"answer": "not a prompt"} for host in ("opencode-v1", "opencode-v2", "mcpx")
    }
    prompt = {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}]}
    as_tool = received("tools/call", {"result": prompt})
    assert set(as_tool) == set(HOSTS), "a tools/call answer is read as a tool result whatever its shape"
    as_prompt = received("prompts/get", {"result": prompt})
    assert sorted((host, sorted(paths)) for host, paths in as_prompt.items()) == [
        ("mcpx", ["prompt"]),
        ("opencode-v1", ["slash-command"]),
        ("opencode-v2", ["slash-command"]),
    ]
    command = as_prompt["opencode-v1"]["slash-command"]
    assert "hi" in json.dumps(command), "the prompt's own text reaches the command"
    text = received("tools/call", {"result": TEXT})
    assert text["opencode-v2"]["direct"]["parts"] == [{"text": "hello"}]
    assert set(text["opencode-v2"]["direct"]) == {
        "outcome", "error", "parts", "attachments", "script_value", "output", "host_text", "host_is_error",
    }  # fmt: skip


def test_unscored_cells_and_unknown_hosts_are_passed_over_not_stopped_at():
    everyone = dict.fromkeys(HOSTS, True)
    cells = [
        cell("no reference", "as expected", {}),
        cell("odd host", "as expected", {"some-other-host": False, **everyone}),
        cell("scored", "changed by proxy", {**everyone, "lootbox": False}),
        cell("subject only", "changed by proxy", {**everyone, "mcpx": False}),
    ]
    score = run_score(cells, failed="failed to probe", invalid="invalid for revision")
    assert score.overall.as_dict() == {"same": 2, "scored": 3, "percent": 66.7}, "mcpx alone differing counts nowhere"
    assert score.hosts["lootbox"].as_dict() == {"same": 2, "scored": 3, "percent": 66.7}
    assert "some-other-host" not in score.hosts
    assert "mcpx" not in score.hosts
    assert score.differing == {"lootbox": [("scored", "2025-06-18")]}
    assert score.as_dict()["differing"] == {"lootbox": [["scored", "2025-06-18"]]}


def test_a_compared_cell_says_why_it_failed_and_counts_per_verdict():
    results = [
        {"id": 1, "scenario": "a", "revision": "r", "verdict": "failed to probe", "failure": "x" * 300, "interop": {}},
        {"id": 2, "scenario": "b", "revision": "r", "verdict": "changed by proxy", "failure": "",
         "diff": [{"path": "result.isError"}, {"change": "added"}], "interop": {"lootbox": True}},
        {"id": 3, "scenario": "c", "revision": "r", "verdict": "invalid for revision", "interop": dict.fromkeys(HOSTS, True)},
    ]  # fmt: skip
    found = compare_runs([{"id": 9, "target": "T", "status": "done", "created": "c", "results": results}])
    column = found.columns[0]
    assert (column.target, column.counts) == (
        "T",
        {"as expected": 0, "changed by proxy": 1, "invalid for revision": 1, "failed to probe": 1,
         "lost by proxy": 0, "refused by proxy": 0, "not testable": 0, "intermittent": 0, "not compared": 0},
    )  # fmt: skip
    assert column.score.overall.as_dict() == {"same": 2, "scored": 3, "percent": 66.7}, "the failed cell counts"
    assert column.score.valid.as_dict() == {"same": 1, "scored": 2, "percent": 50.0}
    failed, changed, _ = (line.cells[0] for line in found.lines)
    assert failed.changes == ["x" * 200]
    assert changed.changes == ["result.isError", "added"]
    assert {key: value for key, value in column.as_dict().items() if key != "interop"} == {
        "run": 9,
        "target": "T",
        "status": "done",
        "created": "c",
        "counts": column.counts,
        "dpcter": [],
        "conformance": "",
        "identity": "",
    }
    assert found.lines[0].as_dict()["revision"] == "r"
    assert found.as_dict()["conformance"] == [], "no run asked for the suite"


SVG = "{http://www.w3.org/2000/svg}"


def drawn_bars(svg_text: str):
    root = ET.fromstring(svg_text)  # noqa: S314  (our own output)
    rects = list(root.iter(f"{SVG}rect"))
    tracks = [r for r in rects if r.get("class") == "chart-track"]
    return root, rects, tracks


def test_bars_are_laid_out_in_rows_inside_the_picture_and_segments_stack():
    bars = [
        charts.Bar("scaled", (charts.Segment("a", 1, "good"), charts.Segment("b", 2, "bad")), scale=4.0, note="n1"),
        charts.Bar("unscaled", (charts.Segment("a", 3, "good"), charts.Segment("b", 1, "bad"))),
        charts.Bar("clamped", (charts.Segment("a", -5, "good"), charts.Segment("b", 0, "bad"), charts.Segment("c", 2, "nope"))),
    ]  # fmt: skip
    root, rects, tracks = drawn_bars(charts.chart("Layout", bars).svg)
    width, height = float(root.get("width")), float(root.get("height"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    assert [float(t.get("y")) for t in tracks] == [charts.GAP + i * (charts.ROW_HEIGHT + charts.GAP) for i in range(3)]
    assert all(float(t.get("x")) == charts.LABEL_WIDTH and float(t.get("width")) == charts.BAR_WIDTH for t in tracks)
    assert float(tracks[-1].get("y")) + charts.ROW_HEIGHT + 20 <= height, "room for the legend under the last bar"
    assert charts.LABEL_WIDTH + charts.BAR_WIDTH + 100 <= width, "room for the notes right of the bars"
    texts = {t.text: t for t in root.iter(f"{SVG}text")}
    for index, label in enumerate(("scaled", "unscaled", "clamped")):
        top = charts.GAP + index * (charts.ROW_HEIGHT + charts.GAP)
        assert top < float(texts[label].get("y")) < top + charts.ROW_HEIGHT, label
        assert float(texts[label].get("x")) < charts.LABEL_WIDTH
        assert texts[label].get("text-anchor") == "end"
    assert float(texts["n1"].get("x")) > charts.LABEL_WIDTH + charts.BAR_WIDTH
    segments = [r for r in rects if r.find(f"{SVG}title") is not None]
    geometry = [
        (r.find(f"{SVG}title").text, float(r.get("x")), float(r.get("width")), r.get("class")) for r in segments
    ]
    assert geometry == [
        ("scaled: a 1", 230.0, 105.0, "chart-good"),
        ("scaled: b 2", 335.0, 210.0, "chart-bad"),
        ("unscaled: a 3", 230.0, 315.0, "chart-good"),
        ("unscaled: b 1", 545.0, 105.0, "chart-bad"),
        ("clamped: c 2", 230.0, 420.0, "chart-info"),
    ], "stacked from the left; a share of the scale, or of the sum; nothing drawn at zero or below"
    legend = [t.text for t in root.iter(f"{SVG}text") if t.get("font-size") == "11"]
    assert legend == ["a", "b", "c"]
    assert charts.chart("Nothing", []).svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert charts.chart("Layout: one / two", []).slug == "layout-one-two"


def test_the_charts_pages_draw_use_their_tones_and_names():
    timeline = charts.revision_timeline("t", [("2025-06-18", 1, 1, 1)])
    assert [(s.name, s.tone) for s in timeline.bars[0].segments] == [
        ("introduced", "good"), ("deprecated", "warn"), ("removed", "bad"),
    ]  # fmt: skip
    share = charts.share_bar("x", 1, 3)
    assert [(s.name, s.value, s.tone) for s in share.segments] == [("same as upstream", 1, "good"), ("other", 2, "bad")]
    assert (share.scale, share.note) == (3.0, "33% (1/3)")
    dpcter = charts.dpcter_bars("d", [("Detection", (18, 21), [("proxy output", 5, 6)])])
    assert [(b.label, [(s.name, s.value, s.tone) for s in b.segments], b.scale, b.note) for b in dpcter.bars] == [
        ("Detection: published", [("typed", 18, "ref"), ("not typed", 3, "none")], 21.0, "18 of 21"),
        ("Detection: proxy output", [("typed", 5, "info"), ("not typed", 1, "none")], 6.0, "5 of 6"),
    ]
    assert charts.dpcter_bars("d", [("D", (0, 0), [("c", 3, 2)])]).bars[1].segments[1].value == 0, "never negative"
    long = charts.chart("c", [charts.Bar("a" * 80, (charts.Segment("s", 1),))])
    label = next(t for t in ET.fromstring(long.svg).iter(f"{SVG}text") if t.text.startswith("a"))  # noqa: S314
    assert label.text == "a" * 63 + "…"
    assert long.table[0][0] == "a" * 80, "the table keeps the whole label"


def test_a_chart_widens_its_label_column_to_its_longest_label():
    """Issue 26, row 6: "Detection: #12 mcp-proxy → fixture" was cut at 34 characters."""
    label = "Detection: #12 supergateway (stateless) → fixture"
    drawn = ET.fromstring(charts.chart("d", [charts.Bar(label, (charts.Segment("typed", 1),))]).svg)  # noqa: S314
    text = next(t for t in drawn.iter(f"{SVG}text") if t.text.startswith("Detection"))
    assert text.text == label
    track = next(r for r in drawn.iter(f"{SVG}rect") if r.get("class") == "chart-track")
    assert float(track.get("x")) >= charts.CHARACTER_WIDTH * len(label), "the bar starts after the whole label"
    assert float(text.get("x")) < float(track.get("x"))
    short = ET.fromstring(charts.chart("d", [charts.Bar("x", (charts.Segment("s", 1),))]).svg)  # noqa: S314
    assert next(r for r in short.iter(f"{SVG}rect") if r.get("class") == "chart-track").get("x") == str(
        charts.LABEL_WIDTH
    )


def test_a_badge_tiles_its_value_with_one_zone_per_revision():
    svg = charts.badge_svg("mcp-compare", "75% as expected", "warn", [("2025-06-18", "3/4"), ("2025-11-25", "3/4")])
    root = ET.fromstring(svg)  # noqa: S314
    label_part, value_part, *zones = list(root.iter(f"{SVG}rect"))
    label_width, value_width = float(label_part.get("width")), float(value_part.get("width"))
    assert float(root.get("width")) == label_width + value_width
    assert float(value_part.get("x")) == label_width
    assert value_part.get("fill") == charts.BADGE_TONES["warn"]
    texts = [t for t in root.iter(f"{SVG}text")]
    assert [t.text for t in texts] == ["mcp-compare", "75% as expected"]
    assert 7 * len("mcp-compare") <= label_width
    assert 7 * len("75% as expected") <= value_width
    assert label_width < float(texts[1].get("x")) < label_width + 10
    assert [(float(z.get("x")), float(z.get("width"))) for z in zones] == [
        (label_width, value_width / 2),
        (label_width + value_width / 2, value_width / 2),
    ]
    assert [z.find(f"{SVG}title").text for z in zones] == ["2025-06-18: 3/4", "2025-11-25: 3/4"]
    assert root.find(f"{SVG}title").text == "mcp-compare: 75% as expected (2025-06-18: 3/4; 2025-11-25: 3/4)"
    plain = ET.fromstring(charts.badge_svg("mcp-compare", "no finished run", "odd", []))  # noqa: S314
    assert list(plain.iter(f"{SVG}rect"))[1].get("fill") == charts.BADGE_TONES["none"]
    assert plain.find(f"{SVG}title").text == "mcp-compare: no finished run (no finished run)"
