"""Evidence beside every claim (evidence.rules.evidence) on a register written for the test
(tests/data/evidence.md): CT-01's claim is supported, CT-03's is contradicted by the opencode v1
model and, through the test lane, by the real opencode binary; CT-05's only by the opencode v2
model; CT-77 is measured by nothing. Then the row list's evidence filter, the Disagreements page
and its exports, and what a probe run adds."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from comparison.hosts.agreement import row_host_views
from comparison.services.probing import ensure_builtin_target
from comparison.tasks import start_run
from evidence.rules import evidence
from registers.loader import load_registers
from tests.conftest import TEST_DATA

pytestmark = pytest.mark.django_db


@pytest.fixture
def claims(db):
    return load_registers([TEST_DATA / "evidence.md"])


def listed(client, query: str) -> list[str]:
    return re.findall(r'<tr id="row-([A-Z]+-\d+)">', client.get(f"/?{query}").content.decode())


def evidence_counts(client) -> dict[str, int]:
    html = client.get("/").content.decode()
    select = re.search(r'<select[^>]*name="evidence"[^>]*>(.*?)</select>', html, re.S).group(1)
    return {value: int(n) for value, n in re.findall(r'<option value="([^"]+)"[^>]*>[^<]*\((\d+)\)</option>', select)}


def test_the_filter_selects_rows_by_their_evidence(claims, client):
    assert listed(client, "evidence=disagrees") == ["CT-03", "CT-05"]
    assert listed(client, "evidence=agrees") == ["CT-01"]
    assert listed(client, "evidence=untested") == ["CT-77"]
    assert evidence_counts(client) == {"disagrees": 2, "agrees": 1, "observed": 0, "related": 0, "untested": 1}
    assert listed(client, "evidence=nonsense") == ["CT-01", "CT-03", "CT-05", "CT-77"], "an unknown value is dropped"


def test_the_real_host_contradicts_a_claim_the_model_contradicts(claims):
    model = row_host_views("CT-03", {"opencode-v1": "has"})
    found = {
        item.host: item
        for item in evidence.row_evidence(
            "CT-03", {"opencode-v1": "has"}, evidence.RowMeasurements(model, [], []), ["opencode-v1"]
        )
    }
    opencode = found["opencode-v1"]
    assert opencode.verdict == evidence.DISAGREES
    kinds = {(source.kind, source.stance) for source in opencode.conflicts}
    assert (evidence.MODEL, evidence.DISAGREES) in kinds
    assert (evidence.REAL_HOST, evidence.DISAGREES) in kinds
    assert any("opencode 1.18.33" in source.label for source in opencode.conflicts)


def test_a_host_no_real_software_checks_has_no_real_host_source():
    model = row_host_views("CT-05", {"opencode-v2": "lacks"})
    found = evidence.row_evidence(
        "CT-05", {"opencode-v2": "lacks"}, evidence.RowMeasurements(model, [], []), ["opencode-v2"]
    )[0]
    assert found.verdict == evidence.DISAGREES
    assert {source.kind for source in found.sources} == {evidence.MODEL}


def probe_cell(interop: dict, outcome: str = "delivered", changes=()) -> evidence.ProbeCell:
    view = {
        "key": "opencode-v1",
        "host": "opencode-v1",
        "path": "direct",
        "label": "opencode v1 · direct",
        "outcome": outcome,
        "changes": [{"subject": "content[0] (audio)", "action": "dropped", "reason": "r", "source": "s"}, *changes],
    }
    return evidence.ProbeCell(7, 3, "a proxy", "audio", "2025-06-18", (view,), interop)


def test_a_probe_counts_only_where_the_host_got_what_the_upstream_sent():
    counted = evidence.row_evidence(
        "CT-03",
        {"opencode-v1": "has"},
        evidence.RowMeasurements(None, [], [probe_cell({"opencode-v1": True})]),
        ["opencode-v1"],
    )
    assert counted[0].verdict == evidence.DISAGREES
    assert counted[0].conflicts[0].kind == evidence.PROBE
    assert counted[0].conflicts[0].result_id == 7
    rewritten = evidence.row_evidence(
        "CT-03",
        {"opencode-v1": "has"},
        evidence.RowMeasurements(None, [], [probe_cell({"opencode-v1": False})]),
        ["opencode-v1"],
    )
    assert rewritten[0].verdict == evidence.OBSERVED, "a proxy's rewrite says nothing about the host"
    assert "the proxy changed what this host gets" in rewritten[0].sources[0].detail
    supported = evidence.row_evidence(
        "CT-03", {"opencode-v1": "lacks"}, evidence.RowMeasurements(None, [], [probe_cell({})]), ["opencode-v1"]
    )
    assert supported[0].verdict == evidence.AGREES


def test_findings_are_shown_without_a_stance():
    finding = {"host": "opencode-v1", "anchors": ["type:AudioContent"], "what": "something measured"}
    found = evidence.row_evidence(
        "CT-03", {"opencode-v1": "has"}, evidence.RowMeasurements(None, [finding], []), ["opencode-v1"]
    )[0]
    assert [(s.kind, s.stance, s.detail) for s in found.sources] == [(evidence.FINDING, "", "something measured")]
    assert found.verdict == evidence.OBSERVED


def test_the_row_page_shows_the_evidence_per_host(claims, client):
    html = client.get("/registers/evidence/CT-03/").content.decode()
    section = html[html.index('id="evidence"') :]
    row = re.search(r'<tr data-host="opencode-v1">(.*?)</tr>', section, re.S).group(1)
    assert 'class="evidence-disagrees">disagrees<' in row
    assert "the real opencode 1.18.33 binary" in row
    agreeing = client.get("/registers/evidence/CT-01/").content.decode()
    assert 'class="evidence-agrees">agrees<' in re.search(
        r'<tr data-host="opencode-v1">(.*?)</tr>', agreeing, re.S
    ).group(1)


def test_the_disagreements_page_lists_every_contradicted_claim(claims, client):
    html = client.get("/disagreements/").content.decode()
    table = html[html.index('id="disagreements"') :]
    assert re.findall(r'href="/registers/evidence/([A-Z]+-\d+)/#evidence"', table) == ["CT-03", "CT-05"]
    assert "2 disagrees" in html
    assert "1 agrees" in html
    assert "1 untested" in html
    data = json.loads(b"".join(client.get("/disagreements/?format=json").streaming_content))
    assert data["format"] == "mcp-compare/disagreements/1"
    assert [(d["row_id"], d["host"], d["claim"]) for d in data["disagreements"]] == [
        ("CT-03", "opencode-v1", "has"),
        ("CT-05", "opencode-v2", "lacks"),
    ]
    assert {c["kind"] for c in data["disagreements"][0]["conflicts"]} == {"host model", "real host"}
    rows = list(
        csv.DictReader(io.StringIO(b"".join(client.get("/disagreements/?format=csv").streaming_content).decode()))
    )
    assert [(r["row_id"], r["host"]) for r in rows] == [("CT-03", "opencode-v1"), ("CT-05", "opencode-v2")]
    markdown = b"".join(client.get("/disagreements/?format=md").streaming_content).decode()
    assert markdown.startswith("# Disagreements")
    assert re.search(r"^\| evidence \| CT-03 [^|]+ \| opencode-v1 \| has \| host model: ", markdown, re.M)


def test_a_probe_run_adds_its_cells_and_keeps_the_queries_constant(claims, client):
    target = ensure_builtin_target()
    start_run(target=target, revisions=["2025-06-18"], scenarios=["audio", "text"])
    # Each page is measured first after its run: both read that run's cells, once per process.
    with CaptureQueriesContext(connection) as one_run:
        client.get("/disagreements/?one")
    html = client.get("/registers/evidence/CT-03/").content.decode()
    row = re.search(r'<tr data-host="opencode-v1">(.*?)</tr>', html, re.S).group(1)
    assert "via built-in fixture (stdio)" in row
    assert "audio @ 2025-06-18" in row
    assert '<a href="/probes/results/' in row
    start_run(target=target, revisions=["2025-06-18", "2025-11-25"], scenarios=["audio", "text", "image"])
    with CaptureQueriesContext(connection) as two_runs:
        client.get("/disagreements/?two")
    assert len(one_run) == len(two_runs)


def test_the_register_page_draws_its_timeline_and_host_support(db, client):
    load_registers([TEST_DATA / "promises.md"])
    html = client.get("/registers/promises/").content.decode()
    assert html.count("<svg") == 2
    timeline = html[html.index('id="chart-promises-register-rows-introduced') :]
    table = timeline[timeline.index("<tbody>") : timeline.index("</tbody>")]
    lines = [re.sub(r"<[^>]+>", "|", line).strip("|").split("||") for line in table.split("</tr>")[:-1]]
    assert [line[:4] for line in lines] == [
        ["2024-11-05", "3", "0", "0"],
        ["2025-03-26", "2", "0", "0"],
        ["2025-06-18", "0", "0", "1"],
        ["2025-11-25", "0", "1", "0"],
        ["2026-07-28", "1", "0", "1"],
    ]


def test_a_real_host_capture_is_listed_without_a_stance():
    capture = {"key": "opencode-v1-real", "host": "opencode-v1", "path": "direct", "label": "opencode v1 (real)",
               "outcome": "delivered", "parts": [{"text": "x"}], "changes": []}  # fmt: skip
    cell = evidence.ProbeCell(9, 4, "built-in", "audio", "2025-06-18", (capture,), {"opencode-v1": True})
    found = evidence.row_evidence(
        "CT-03", {"opencode-v1": "lacks"}, evidence.RowMeasurements(None, [], [cell]), ["opencode-v1"]
    )[0]
    assert [(s.kind, s.stance) for s in found.sources] == [(evidence.REAL_HOST, "")]
    assert found.verdict == evidence.OBSERVED


def test_the_export_command_takes_the_evidence_filter(claims):
    from django.core.management import call_command

    out = io.StringIO()
    call_command("export_report", "--format", "json", "--evidence", "disagrees", stdout=out)
    assert [row["row_id"] for row in json.loads(out.getvalue())["rows"]] == ["CT-03", "CT-05"]


def test_probe_sources_group_cells_and_say_where_exactly():
    view = {"key": "opencode-v1", "host": "opencode-v1", "path": "direct", "label": "opencode v1 · direct",
            "outcome": "delivered", "changes": [{"subject": "content[0] (audio)", "action": "dropped", "reason": "r"}]}  # fmt: skip
    cells = [
        evidence.ProbeCell(10 + i, 5, "proxy", f"audio-{i}", "2025-06-18", (view,), {}, "interrupted") for i in range(8)
    ]
    found = evidence.row_evidence(
        "CT-03", {"opencode-v1": "lacks"}, evidence.RowMeasurements(None, [], cells), ["opencode-v1", "lootbox"]
    )
    opencode, lootbox = found
    assert (lootbox.claim, lootbox.sources, lootbox.verdict) == ("", [], evidence.UNTESTED)
    [source] = opencode.sources
    assert source.as_dict() == {
        "kind": "probe",
        "label": "opencode v1 · direct via proxy",
        "stance": "agrees",
        "detail": "audio-0 @ 2025-06-18, audio-1 @ 2025-06-18, audio-2 @ 2025-06-18, audio-3 @ 2025-06-18, "
        "audio-4 @ 2025-06-18, audio-5 @ 2025-06-18 and 2 more (run interrupted): the row's subject is dropped",
        "result": 10,
        "run": 5,
    }
    six = evidence.row_evidence(
        "CT-03", {"opencode-v1": "lacks"}, evidence.RowMeasurements(None, [], cells[:6]), ["opencode-v1"]
    )[0]
    assert " more" not in six.sources[0].detail
    assert evidence.Source("probe", "l", "", "d").as_dict()["stance"] is None


def test_a_row_without_an_example_gives_probes_no_stance_and_mcpx_is_judged_only_where_it_passes_through():
    view = {"key": "mcpx", "host": "mcpx", "path": "call", "label": "mcpx · mcpx_call", "outcome": "failed"}
    cell = evidence.ProbeCell(1, 1, "t", "is-error", "2025-06-18", (view,), {"mcpx": True})
    unknown = evidence.row_evidence("XX-01", {"mcpx": "has"}, evidence.RowMeasurements(None, [], [cell]), ["mcpx"])[0]
    assert [(s.stance, s.detail) for s in unknown.sources] == [
        ("", "is-error @ 2025-06-18: failed (no subject to check for this row)")
    ]
    # FG-16 is about what mcpx passes on; CT-19 is about mcpx's own features, so it is not judged.
    judged = evidence.row_evidence("FG-16", {"mcpx": "has"}, evidence.RowMeasurements(None, [], [cell]), ["mcpx"])[0]
    assert judged.sources[0].stance == evidence.AGREES
    not_judged = evidence.row_evidence("CT-19", {"mcpx": "has"}, evidence.RowMeasurements(None, [], [cell]), ["mcpx"])[
        0
    ]
    assert not_judged.sources[0].stance == ""


def test_model_sources_name_the_example_and_the_real_check():
    model = row_host_views("CT-03", {"opencode-v1": "has"})
    found = evidence.row_evidence(
        "CT-03", {"opencode-v1": "has"}, evidence.RowMeasurements(model, [], []), ["opencode-v1"]
    )[0]
    direct = next(s for s in found.sources if s.kind == evidence.MODEL and s.label == "opencode v1 · direct")
    assert direct.detail == "opencode v1 · direct on the example 'audio_only': the row's subject is dropped"
    real = next(s for s in found.sources if s.kind == evidence.REAL_HOST)
    assert real.detail == (
        "the test lane runs the example 'audio_only' through the real opencode 1.18.33 binary and requires the "
        "same outcome as the model"
    )
    finding = {"host": "opencode-v1", "anchors": ["type:AudioContent"], "what": "measured"}
    assert (
        evidence.row_evidence("CT-03", {}, evidence.RowMeasurements(None, [finding], []), ["lootbox"])[0].sources == []
    ), "another host"
    assert evidence.row_evidence("CT-03", {}, evidence.RowMeasurements(None, [finding], []), ["opencode-v1"])[
        0
    ].sources[0].label == ("real host finding")
    assert "audio_only" in evidence.real_checked_examples()
    assert "prompt_few_shot" not in evidence.real_checked_examples(), "prompts are not run through the real hosts"


# --- the spec's entry, the mcpx downgrade model, and rows nothing checks --------------------------


def about(title: str, *anchors: str, **claim) -> evidence.RowRevisions:
    """A row's revisions and what its title names, as the loader stores them."""
    return evidence.RowRevisions(title=title, anchors=anchors, subject=anchors, **claim)


def test_a_revision_claim_is_checked_against_every_revisions_schema():
    audio = about("`audio` content block", "type:AudioContent", introduced="2025-03-26")
    spec = evidence.row_evidence("XX-01", {}, evidence.RowMeasurements(None, [], []), [], audio)[-1]
    assert (spec.host, spec.verdict) == (evidence.SPEC, evidence.AGREES)
    assert spec.claim == "AudioContent at 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28"
    assert spec.sources[0].kind == evidence.SCHEMA
    early = about(
        "`audio` content block", "type:AudioContent", support={"2024-11-05": "exists", "2025-03-26": "exists"}
    )
    wrong = evidence.row_evidence("XX-01", {}, evidence.RowMeasurements(None, [], []), [], early)[-1]
    assert wrong.verdict == evidence.DISAGREES, "a naming title with one subject: the schema decides"
    assert wrong.sources[0].detail.endswith("(2024-11-05: the register says present)")
    removed = about("`prompts/get`", "method:prompts/get", introduced="2024-11-05", removed="2025-06-18")
    assert (
        evidence.row_evidence("XX-01", {}, evidence.RowMeasurements(None, [], []), [], removed)[-1].verdict
        == evidence.DISAGREES
    )
    assert (
        evidence.row_evidence("XX-01", {}, evidence.RowMeasurements(None, [], []), [], evidence.RowRevisions())[-1:]
        == []
    )


def test_a_title_about_a_behaviour_of_a_thing_gets_no_stance_from_the_schema():
    """`tools/list` exists in every revision; a row saying its deterministic order is new in
    2026-07-28 claims where the behaviour exists, which no schema holds."""
    order = about("`tools/list` in deterministic order", "method:tools/list", introduced="2026-07-28")
    spec = evidence.row_evidence("XX-02", {}, evidence.RowMeasurements(None, [], []), [], order)[-1]
    assert (spec.verdict, spec.sources[0].stance) == (evidence.OBSERVED, "")
    assert "so no stance" in spec.sources[0].detail
    two = about("`Tool.title` or `Prompt.title`", "field:Tool.title", "field:Prompt.title", introduced="2024-11-05")
    assert (
        evidence.row_evidence("XX-03", {}, evidence.RowMeasurements(None, [], []), [], two)[-1].sources[0].stance == ""
    )
    one_matches = about(
        "`Tool.title` and `Prompt.title`", "field:Tool.title", "field:Prompt.title", introduced="2025-06-18"
    )
    assert (
        evidence.row_evidence("XX-04", {}, evidence.RowMeasurements(None, [], []), [], one_matches)[-1].verdict
        == evidence.AGREES
    )


def test_a_type_change_and_an_accepted_block_are_read_from_the_schema():
    from comparison.core import spec_checks

    title = "`ToolResultContent.structuredContent` becomes any JSON"
    assert spec_checks.check(["field:ToolResultContent.structuredContent"], title, {}, "2026-07-28").found == {
        "2024-11-05": False,
        "2025-03-26": False,
        "2025-06-18": False,
        "2025-11-25": False,  # structuredContent is an object there, not any JSON
        "2026-07-28": True,
    }
    link = ["field:PromptMessage.content", "type:ResourceLink"]
    assert spec_checks.check(link, "`resource_link` allowed in `PromptMessage.content`", {}, "2025-06-18").agrees
    early = spec_checks.check(link, "`resource_link` allowed in `PromptMessage.content`", {}, "2025-03-26")
    assert not early.agrees, "no resource_link in 2025-03-26 prompts"
    assert early.stance is None, "two readings: no stance"


def test_the_failure_gap_rows_are_checked_by_the_dpcter_audit_of_the_fixtures_failures():
    from comparison.core import failure_checks

    for row in (f"FG-0{n}" for n in range(1, 10)):
        assert failure_checks.check(row).agrees, row
    target = evidence.row_evidence("FG-04", {}, evidence.RowMeasurements(None, [], []), [], evidence.RowRevisions())[-1]
    assert target.claim == "Target: typed 0/21, with text 18/21 (published audit)"
    assert target.sources[0].kind == evidence.AUDIT
    assert "decide Target typed in 0 and with text in 4" in target.sources[0].detail
    flipped = failure_checks.expectations(
        "the prose names its target", (failure_checks.Expect("fail-argument-value-prose", "with_text", "T", True),)
    )
    assert not flipped.agrees
    assert "contradicts the row: fail-argument-value-prose with text Target: not decided" in flipped.detail


def test_mcpxs_downgrade_model_speaks_to_the_rows_about_it():
    link = evidence.row_evidence("CT-06", {"mcpx": "partial"}, evidence.RowMeasurements(None, [], []), ["mcpx"])[0]
    assert (link.verdict, link.sources[0].label) == (evidence.AGREES, "mcpx · downgrade()")
    assert "mimeType image/png over the text" in link.sources[0].detail
    branches = evidence.row_evidence("CT-12", {"mcpx": "partial"}, evidence.RowMeasurements(None, [], []), ["mcpx"])[0]
    assert branches.verdict == evidence.AGREES
    assert branches.sources[0].detail.endswith("the branches that fire: resource_link, resultType")


def test_a_host_with_sources_is_never_untested_and_an_unnamed_host_has_no_claim():
    finding = {"host": "lootbox", "anchors": ["type:AudioContent"], "what": "measured"}
    lootbox = evidence.row_evidence("CT-03", {}, evidence.RowMeasurements(None, [finding], []), ["lootbox"])[0]
    assert lootbox.verdict == evidence.OBSERVED
    assert lootbox.claim_text == "the register makes no claim for this host"


def test_the_shipped_rows_untested_after_a_run_say_why_and_none_is_contradicted(loaded, client):
    """A run of the built-in target over every family leaves seven of the 111 shipped rows untested,
    each with its reason on its page (nothing here can check it, it names nothing the spec defines,
    or no check exercises what it names), and no evidence against any shipped claim."""
    start_run(target=ensure_builtin_target(), revisions=["2025-06-18", "2026-07-28"], scenarios=[])
    untested = ["FG-13", "FG-14", "PG-06", "PG-07", "TOOL-03", "TOOL-12", "TOOL-31"]
    assert listed(client, "evidence=untested") == untested
    assert sorted(evidence.UNCHECKED) == ["CT-17", "FG-13", "FG-14"]
    assert listed(client, "evidence=related&register=content-types") == ["CT-17"], "the mixed scenario meets it"
    slugs = {"FG": "failure-gap", "PG": "pagination-caching", "TOOL": "tools", "CT": "content-types"}
    for row in untested:
        html = client.get(f"/registers/{slugs[row.split('-')[0]]}/{row}/").content.decode()
        reason = 'id="unchecked"' if row in evidence.UNCHECKED else 'id="no-evidence"'
        assert reason in html, row
    assert "no anchor: the row names nothing" in client.get("/registers/tools/TOOL-12/").content.decode()
    assert (
        "nothing probed, checked or observed here exercises prop:tools"
        in client.get("/registers/tools/TOOL-03/").content.decode()
    )
    assert listed(client, "evidence=disagrees") == []
    observed = client.get("/registers/prompts/PRM-01/").content.decode()
    section = observed[observed.index('id="evidence"') :]
    assert '<tr data-host="the spec">' in section
    assert "the register makes no claim for this host" in section
