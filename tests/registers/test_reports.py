"""Exports (Markdown round trip, HTML, JSON, CSV), row history, and comparing two probe runs."""

from __future__ import annotations

import csv
import io
import json
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from comparison.models import ProbeResult, ProbeRun, ProbeTarget
from comparison.services.probing import ensure_builtin_target
from comparison.tasks import start_run
from registers.core.format import parse_register, split_registers
from registers.core.row_reports import CSV_COLUMNS
from registers.loader import load_registers
from registers.models import Register, Row, RowVersion
from tests.conftest import SHIPPED
from tests.support.register_text import comparable, register_text

pytestmark = pytest.mark.django_db


def body(response) -> str:
    return b"".join(response.streaming_content).decode()


@pytest.mark.parametrize("slug", ["content-types", "prompts", "failure-gap"])
def test_markdown_export_round_trips(loaded, client, slug):
    original = parse_register((SHIPPED / f"{slug}.md").read_text(encoding="utf-8"), f"{slug}.md")
    exported = body(client.get(f"/export.md?register={slug}"))
    again = parse_register(exported, f"{slug}.md")
    assert again.warnings == []
    assert comparable(again) == comparable(original)


def test_markdown_export_of_several_registers_splits_back(loaded, client):
    parts = split_registers(body(client.get("/export.md")))
    assert [parse_register(part).title for part in parts] == [
        "Content types",
        "Failure gap",
        "Logging",
        "Pagination and caching",
        "Progress and cancellation",
        "Prompts",
        "Tools",
    ]


def test_json_shape(loaded, client):
    response = client.get("/export.json?register=prompts&status=yes")
    assert response["Content-Type"] == "application/json"
    data = json.loads(body(response))
    assert set(data) == {"format", "generated", "filter", "registers", "rows"}
    assert data["format"] == "mcp-compare/report/1"
    assert data["filter"] == [["register", "prompts"], ["status", "yes"]]
    assert [r["slug"] for r in data["registers"]] == ["prompts"]
    assert set(data["registers"][0]) == {
        "slug",
        "title",
        "description",
        "tags",
        "status",
        "increment",
        "subject",
        "subject_commit",
        "intro",
        "created",
        "last_updated",
    }
    row = data["rows"][0]
    assert set(row) == {
        "register",
        "row_id",
        "title",
        "difference",
        "labels_cell",
        "where_cell",
        "status_cell",
        "value_cell",
        "effort_cell",
        "risk_cell",
        "status_verdict",
        "introduced_in",
        "removed_in",
        "deprecated_in",
        "fields",
        "labels",
        "support",
        "hosts",
        "citations",
        "probe",
    }
    assert row["row_id"] == "PRM-08"
    assert row["support"] == dict.fromkeys(
        ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"], "unknown"
    )
    assert row["hosts"] == {"opencode-v1": "has", "opencode-v2": "has", "mcpx": "has"}


def test_csv_shape(loaded, client):
    """Issue 26, row 9: a BOM, lists joined by "; ", plain text, every host's state, the filter in
    the file name."""
    response = client.get("/export.csv?register=content-types&revision=2025-06-18&rev_mode=introduced")
    assert response["Content-Disposition"] == (
        'attachment; filename="mcp-compare-rows-register-content-types-revision-2025-06-18-rev-mode-introduced.csv"'
    )
    text = body(response)
    assert text.startswith("\ufeffregister,"), "a spreadsheet reads ✓ and — as UTF-8"
    table = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert table[0] == CSV_COLUMNS
    assert [line[1] for line in table[1:]] == ["CT-05", "CT-06", "CT-10", "CT-13"]
    ct05 = dict(zip(CSV_COLUMNS, table[1], strict=True))
    assert ct05["revision 2024-11-05"] == "absent"
    assert ct05["revision 2025-06-18"] == "exists"
    assert ct05["host opencode-v1"] == "lacks"
    assert ct05["labels"] == "2025-06-18 has; opencode v2 has"
    assert ct05["citations"] == "9"
    assert ct05["host lootbox"] == "not mentioned"
    assert ct05["host cloudflare"] == "not mentioned"
    assert all("`" not in cell and "**" not in cell for line in table for cell in line), "plain text"
    assert ct05["title"]
    assert ct05["difference"] == "", "the same text as the title is not repeated"
    assert client.get("/export.csv")["Content-Disposition"] == 'attachment; filename="mcp-compare-rows.csv"'


def test_html_report_is_self_contained(loaded, client):
    html = body(client.get("/export.html?host=lootbox"))
    assert html.startswith("<!doctype html>")
    for external in ("<link", "<script", " src=", "url(", "@import"):
        assert external not in html, external
    assert "host=lootbox" in html
    assert "mcpx @ 05c78b2" in html
    assert "Citation verdicts" in html
    assert "CT-15" in html
    assert "page-break-inside:avoid" in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html, "a phone lays it out to fit"


def test_exports_keep_query_count_flat(loaded, client, tmp_path):
    def queries(url):
        with CaptureQueriesContext(connection) as captured:
            body(client.get(url))
        return len(captured)

    before = queries("/export.json")
    path = tmp_path / "big.md"
    path.write_text(register_text(60, prefix="BIG"), encoding="utf-8")
    load_registers([path])
    assert queries("/export.json") == before


def test_export_command(loaded, tmp_path):
    target = tmp_path / "out.md"
    call_command("export_report", "--format", "md", "--register", "prompts", "-o", str(target), stderr=StringIO())
    assert parse_register(target.read_text(encoding="utf-8")).rows[7].row_id == "PRM-08"
    with pytest.raises(CommandError, match="unknown filter values: revision=2001-01-01"):
        call_command("export_report", "--format", "csv", "--revision", "2001-01-01")


def test_row_history_and_changed_since(client, tmp_path):
    path = tmp_path / "history.md"
    path.write_text(register_text(3), encoding="utf-8")
    load_registers([path])
    changed = register_text(3, increment=2).replace(
        "| TT-02 | audio for TT-02 | `2025-03-26 has` `opencode v2 has` `mcpx missing` |",
        "| TT-02 | audio for TT-02 | `2025-03-26 has` `opencode v2 has` `lootbox has` |",
    )
    changed = changed.replace(
        "- **Risk.** Low.\n- **Detail.** See CT-13", "- **Risk.** High now.\n- **Detail.** See CT-13", 2
    )
    path.write_text(changed, encoding="utf-8")
    report = load_registers([path])
    assert (report.updated, report.unchanged) == (2, 1), "TT-03 reads the same: no version kept"
    versions = RowVersion.objects.select_related("row").order_by("row__row_id")
    assert [(v.row.row_id, v.increment) for v in versions] == [("TT-01", 1), ("TT-02", 1)]
    page = client.get("/registers/history/TT-02/").content.decode()
    assert "label added: lootbox has" in page
    assert "label removed: mcpx missing" in page
    assert "field changed: Risk" in page
    rows = re.findall(r'<tr id="row-([A-Z]+-\d+)">', client.get("/?changed_since=1").content.decode())
    assert rows == ["TT-01", "TT-02"]
    assert re.findall(r'<tr id="row-([A-Z]+-\d+)">', client.get("/?changed_since=2").content.decode()) == []
    assert "Unchanged since it was first loaded" not in page


def test_compare_two_runs(client):
    target = ensure_builtin_target()
    first = start_run(target=target, revisions=["2025-06-18"], scenarios=["text", "audio"])
    second = start_run(target=target, revisions=["2025-06-18"], scenarios=["text", "audio", "image"])
    result = ProbeResult.objects.get(run=second, scenario="audio")
    result.response = {"jsonrpc": "2.0", "id": 1, "result": {"content": [], "isError": False}}
    result.verdict = "changed by proxy"
    result.save()
    url = f"/probes/compare/?a={first.pk}&b={second.pk}"
    html = client.get(url).content.decode()
    assert "1 added · 0 removed · 1 changed · 1 unchanged" in html
    only = client.get(url + "&only=changes").content.decode()
    assert "<td>audio</td>" in only
    assert "<td>text</td>" not in only
    assert "result.content[0]" in only


def test_audit_export(client):
    run = start_run(target=ensure_builtin_target(), revisions=["2025-11-25"], scenarios=[])
    data = json.loads(client.get(f"/probes/runs/{run.pk}/audit/?format=json").content)
    assert data["format"] == "mcp-compare/audit/1"
    cell = next(c for c in data["cells"] if c["coordinate"] == "P" and c["consumer"] == "proxy output")
    assert cell["typed"] > 0
    text = client.get(f"/probes/runs/{run.pk}/audit/?format=csv").content.decode()
    assert (
        text.splitlines()[0]
        == "coordinate,consumer,typed,typed_and_text,failures,published_typed,published_typed_and_text"
    )


def test_csv_cells_that_start_a_formula_are_neutralised(db, client, tmp_path):
    path = tmp_path / "formula.md"
    formula = '=HYPERLINK("http://attacker.example/x","click")'
    text = register_text(2).replace("`TT-01` a `text` thing", formula, 1)
    path.write_text(text, encoding="utf-8")
    load_registers([path])
    csv_text = body(client.get("/export.csv"))
    rows = list(csv.reader(io.StringIO(csv_text)))
    difference = rows[0].index("difference")
    assert rows[1][difference] == "'" + formula
    value = rows[0].index("value")
    assert rows[1][value] == "'+ high", "a leading + is neutralised too"
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for row in rows for cell in row)
    exported = json.loads(body(client.get("/export.json")))
    assert exported["rows"][0]["difference"] == formula, "JSON stays exact"
    assert formula in body(client.get("/export.md")), "Markdown stays exact"


def test_latest_verdicts_of_an_unfinished_run_say_so(loaded, client):
    target = ensure_builtin_target()
    run = ProbeRun.objects.create(target=target, revisions=["2025-06-18"], scenarios=["text"], status="interrupted")
    ProbeResult.objects.create(
        run=run,
        scenario="text",
        anchors=["type:TextContent"],
        method="tools/call",
        requested_revision="2025-06-18",
        verdict="as expected",
    )
    exported = json.loads(body(client.get("/export.json?register=content-types")))
    ct01 = next(row for row in exported["rows"] if row["row_id"] == "CT-01")
    assert ct01["probe"] == {target.name: {"as expected (run interrupted)": 1}}
    page = client.get("/registers/content-types/CT-01/").content.decode()
    assert "(run interrupted)" in page


def test_exports_carry_the_latest_probe_verdicts(loaded, client):
    run = start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text", "audio"])
    assert run.status == "done"
    exported = json.loads(body(client.get("/export.json?register=content-types")))
    by_id = {row["row_id"]: row["probe"] for row in exported["rows"]}
    name = run.target.name
    assert by_id["CT-01"] == {name: {"as expected": 1}}
    assert by_id["CT-03"] == {name: {"as expected": 1}}
    assert by_id["CT-02"] == {}
    csv_text = body(client.get("/export.csv?register=content-types"))
    assert f"{name}: as expected 1" in csv_text


def test_exports_name_each_target_instead_of_adding_their_verdicts(loaded, client):
    other = ProbeTarget.objects.create(name="second-proxy", transport="stdio", command="true")
    start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text"])
    second = start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text"])
    ProbeRun.objects.filter(pk=second.pk).update(target=other)
    exported = json.loads(body(client.get("/export.json?register=content-types")))
    ct01 = next(row["probe"] for row in exported["rows"] if row["row_id"] == "CT-01")
    assert set(ct01) == {ensure_builtin_target().name, "second-proxy"}
    assert all(verdicts == {"as expected": 1} for verdicts in ct01.values()), ct01
    html = body(client.get("/export.html?register=content-types"))
    assert "second-proxy: as expected 1" in html


def test_the_published_column_matches_the_failure_gap_register(loaded, client):
    """The reference figures in the code and the register's Where cells (FG-01…FG-06) agree."""
    from registers.models import Row

    run = start_run(target=ensure_builtin_target(), revisions=["2025-11-25"], scenarios=[])
    data = json.loads(client.get(f"/probes/runs/{run.pk}/audit/?format=json").content)
    assert data["published_total"] == 21
    for coordinate, row_id in zip("DPCTER", ["FG-01", "FG-02", "FG-03", "FG-04", "FG-05", "FG-06"], strict=True):
        where = Row.objects.get(row_id=row_id).where_cell
        typed, text = re.search(r"typed (\d+)/21 · text (\d+)/21", where).groups()
        cell = next(c for c in data["cells"] if c["coordinate"] == coordinate and c["consumer"] == "proxy output")
        assert cell["published"] == [int(typed), int(text)], row_id


def test_a_markdown_export_of_two_registers_is_checked_and_loaded_again(loaded, client, tmp_path):
    exported = tmp_path / "export.md"
    exported.write_text(body(client.get("/export.md?register=prompts&register=logging")), encoding="utf-8")
    out = StringIO()
    call_command("check_registers", str(exported), stdout=out)
    assert out.getvalue().strip().endswith("in 2 register(s)"), out.getvalue()
    before = {
        slug: sorted(Row.objects.filter(register__slug=slug).values_list("row_id", "where_cell", "status_cell"))
        for slug in ("prompts", "logging")
    }
    Register.objects.filter(slug__in=before).delete()
    call_command("load_registers", str(exported), stdout=StringIO())
    after = {
        slug: sorted(Row.objects.filter(register__slug=slug).values_list("row_id", "where_cell", "status_cell"))
        for slug in ("prompts", "logging")
    }
    assert after == before
    assert all(after.values())


def test_a_broken_register_inside_an_export_is_named_by_file_register_and_line(loaded, client, tmp_path):
    text = body(client.get("/export.md?register=prompts&register=logging"))
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith("| PRM-03 "))
    broken = text.replace("| PRM-03 |", "| PRM-01 |", 1)
    exported = tmp_path / "export.md"
    exported.write_text(broken, encoding="utf-8")
    with pytest.raises(CommandError) as error:
        call_command("load_registers", str(exported), stdout=StringIO())
    assert f"export.md#prompts:{line}" in str(error.value)


@pytest.mark.django_db
def test_the_html_exports_link_to_the_dashboard_and_to_each_citations_permalink(client, loaded, settings):
    """Issue 26, a first-time user's row 8."""
    from registers.models import Citation

    report = b"".join(client.get("/export.html?register=content-types").streaming_content).decode()
    hrefs = re.findall(r'href="([^"]*)"', report)
    assert hrefs
    assert [href for href in hrefs if not href.startswith(("http://", "https://"))] == [], "no root-relative link"
    assert "http://testserver/rows/CT-07/" in hrefs
    permalinks = set(
        Citation.objects.filter(row__register__slug="content-types")
        .exclude(web_url="")
        .values_list("web_url", flat=True)
    )
    assert permalinks
    assert permalinks <= set(hrefs), "each citation links to its permalink, as on the row page"
    assert 'LV-36 <span class="muted">(not loaded)</span>' in report

    settings.BASE_URL = "https://compare.example.org/"
    report = b"".join(client.get("/export.html?register=prompts").streaming_content).decode()
    assert 'href="https://compare.example.org/rows/PRM-01/"' in report

    target = ensure_builtin_target()
    first = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    second = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    exported = client.get(f"/probes/compare/?run={first.pk}&run={second.pk}&format=html").content.decode()
    links = re.findall(r'href="([^"]*)"', exported)
    assert links
    assert all(link.startswith("https://compare.example.org/") for link in links), links


def test_the_html_export_lays_out_at_a_phones_width(client, loaded):
    """A newcomer following the README (the 'ready for a team' report)."""
    from tests.registers.test_reports import body

    html = body(client.get("/export.html?register=prompts"))
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
