"""Registers the code was not written against: quotes cut inside Markdown link and table syntax,
Where cells that limit what a revision label implies, and the register lint that reports what a
register says against itself (`manage.py check_registers`, and the same findings on its pages).

The register is tests/data/quote-shapes.md; its citations quote spec pages shipped as test data
(tests/data/mcp-spec), committed here to a git repository the verifier reads.
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from registers.core import lint
from registers.core.format import READING_RULES, parse_register
from registers.loader import load_registers
from registers.models import Citation, Register, Row, RowVersion
from tests.conftest import SHIPPED, TEST_DATA
from tests.support import gitrepo
from tests.support.register_text import register_text

SHAPES = TEST_DATA / "quote-shapes.md"
A, E, D = "absent", "exists", "deprecated"

#: Row → its file citations' verdicts, in the order the Sources field lists them. QS-01…QS-04 are
#: exact although every quote stops inside link or table syntax; QS-05's words are not there.
EXPECTED_VERDICTS = {
    "QS-01": ["exact", "exact"],
    "QS-02": ["exact"],
    "QS-03": ["exact", "exact", "exact"],
    "QS-04": ["exact", "exact", "exact"],
    "QS-05": ["drifted", "drifted"],
}


@pytest.fixture
def spec_repo(tmp_path):
    repo = tmp_path / "spec"
    gitrepo.from_folder(TEST_DATA / "mcp-spec", repo, "spec pages at b0f60ba")
    return repo


def run(command: str, *args: str) -> tuple[str, int]:
    out = StringIO()
    try:
        call_command(command, *args, stdout=out)
    except CommandError as error:
        return out.getvalue(), error.returncode
    return out.getvalue(), 0


def shapes_doc():
    return parse_register(SHAPES.read_text(encoding="utf-8"), str(SHAPES))


# --- quotes cut inside Markdown ---------------------------------------------------------------


def test_quotes_cut_inside_links_and_tables_verify_exact_and_missing_words_drift(db, spec_repo):
    load_registers([SHAPES])
    output, code = run("verify_citations", "--source", f"spec={spec_repo}@HEAD", "--json")
    found: dict[str, list[str]] = {}
    for item in json.loads(output)["citations"]:
        if item["source"] == "spec":
            found.setdefault(item["row"], []).append(item["verdict"])
    assert found == EXPECTED_VERDICTS
    assert code == 1, "the two drifted quotes fail the run"


# --- what the Where cell limits ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("row_id", "states", "introduced", "removed", "deprecated"),
    [
        # `25-11 only` with `2026-07-28 removes`: nothing before 2025-11-25, absent after.
        ("QS-06", [A, A, A, E, A], "2025-11-25", "2026-07-28", ""),
        # a cell that lists 25-11 and 26-07 (dep) with `2026-07-28 deprecates`: none before 25-11.
        ("QS-07", [A, A, A, E, D], "2025-11-25", "", "2026-07-28"),
        # `26-07 ✓` and `2026-07-28 has`: none before the first listed revision.
        ("QS-01", [A, A, A, A, E], "2026-07-28", "", ""),
    ],
)
def test_inference_never_reaches_past_what_the_where_cell_limits(row_id, states, introduced, removed, deprecated):
    row = next(r for r in shapes_doc().rows if r.row_id == row_id)
    assert [s.state for s in row.support] == states
    assert (row.introduced_in, row.removed_in, row.deprecated_in) == (introduced, removed, deprecated)


def test_every_state_names_its_source():
    rows = {r.row_id: r for r in shapes_doc().rows}
    qs06 = {s.revision: (s.source, s.note) for s in rows["QS-06"].support}
    assert qs06["2025-11-25"][0] == "where", "the cell states 25-11"
    assert qs06["2026-07-28"][0] == "label", "the removes label states 26-07"
    assert qs06["2024-11-05"] == ("inferred", "the Where cell says 25-11 only")
    qs07 = {s.revision: (s.source, s.note) for s in rows["QS-07"].support}
    assert qs07["2025-03-26"] == ("inferred", "before the first revision the Where cell lists")
    # QS-08's label beats the `only` inference (a label outranks inference), and the lint says so.
    qs08 = {s.revision: s.source for s in rows["QS-08"].support}
    assert (qs08["2025-03-26"], qs08["2026-07-28"], qs08["2024-11-05"]) == ("label", "where", "inferred")


def test_the_row_page_names_the_source_of_each_state_and_never_claims_2024_11_05(db, client):
    load_registers([SHAPES])
    page = client.get("/registers/quote-shapes/QS-06/").content.decode()
    assert "introduced in 2025-11-25" in page
    assert "introduced in 2024-11-05" not in page
    assert "the Where cell says 25-11 only" in page
    assert page.count("rev rev-exists") == 1


def test_rows_read_with_older_rules_are_read_again_without_a_new_version(db):
    load_registers([SHAPES])
    qs06 = Row.objects.get(row_id="QS-06")
    qs06.support.filter(revision="2024-11-05").update(state=E, source="inferred")  # what the old rules said
    Row.objects.update(read_with=READING_RULES - 1)
    Register.objects.update(read_with=READING_RULES - 1)
    report = load_registers([SHAPES])
    assert (report.updated, report.unchanged) == (8, 0)
    assert qs06.support.get(revision="2024-11-05").state == A
    assert RowVersion.objects.count() == 0, "the text did not change: no row version"
    assert load_registers([SHAPES]).unchanged == 8, "read with today's rules: skipped"


# --- the lint ----------------------------------------------------------------------------------


def codes(findings) -> list[tuple[str, str, str]]:
    return [(f.severity, f.row, f.code) for f in findings]


def test_the_lint_reports_the_contradiction_of_a_label_and_an_only_cell():
    findings = lint.lint(shapes_doc())
    assert codes(findings) == [("error", "QS-08", "contradiction")]
    assert "`2025-03-26 has` contradicts the Where cell's `26-07 only`" in findings[0].message
    assert (
        findings[0].line
        == SHAPES.read_text(encoding="utf-8")
        .splitlines()
        .index(next(line for line in SHAPES.read_text(encoding="utf-8").splitlines() if line.startswith("| QS-08")))
        + 1
    )


#: Sources that cite the subject and lootbox, for rows whose labels claim something of lootbox.
CITES_LOOTBOX = '`internal/app/server.go:4` "x"; `.lootbox/src/client.ts:4` "y"'


def with_row(cells: str, sources: str = '`internal/app/server.go:4` "x"') -> str:
    """A one-row register whose table row and Sources field are replaced."""
    text = register_text(1)
    table_row = next(line for line in text.splitlines() if line.startswith("| TT-01"))
    text = text.replace(table_row, f"| TT-01 | a thing | {cells} | n/a — not examined | + low | S | low |")
    start = text.index("- **Sources.**")
    return text[:start] + f"- **Sources.** {sources}\n"


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        ("`2025-03-26 has` | `25-03 —`", [("error", "TT-01", "contradiction")]),
        ("`2025-06-18 removes` | `25-06 ✓`", [("error", "TT-01", "contradiction")]),
        ("`2026-07-28 deprecates` | `26-07 ✓`", [("warning", "TT-01", "contradiction")]),
        ("`lootbox has` | `26-07 ✓` · lootbox ✗", [("error", "TT-01", "contradiction")]),
        ("`2026-07-28 has` `some new label` | `26-07 ✓`", [("warning", "TT-01", "unknown-label")]),
        ("`2026-07-28 has` | `26-07 ✓`", []),
    ],
)
def test_each_contradiction_and_unknown_label_is_found(cells, expected):
    assert codes(lint.lint_text(with_row(cells, CITES_LOOTBOX), "one.md")) == expected


def test_status_against_labels_uncited_rows_and_uncovered_paths():
    text = with_row("`mcpx missing` `2026-07-28 has` | `26-07 ✓`").replace("n/a — not examined", "✓ — works")
    assert ("warning", "TT-01", "status") in codes(lint.lint_text(text, "one.md"))
    uncited = with_row("`2026-07-28 has` | `26-07 ✓`", sources="Nothing cited.")
    uncited = uncited.replace("Handled in `internal/cli/commands.go:385-415` and again at `:414`.", "Handled.")
    assert ("warning", "TT-01", "uncited") in codes(lint.lint_text(uncited, "one.md"))
    nowhere = with_row("`2026-07-28 has` | `26-07 ✓`", sources='`elsewhere/x.go:1` "x"')
    from registers.core.sources import SourceRoot

    roots = [SourceRoot(key="subject", name="mcpx", prefixes=("internal/",))]
    assert ("warning", "TT-01", "no-source") in codes(lint.lint_text(nowhere, "one.md", roots))
    assert ("warning", "TT-01", "no-source") not in codes(
        lint.lint_text(with_row("`2026-07-28 has` | `26-07 ✓`"), "one.md", roots)
    )


def test_duplicate_ids_and_rows_without_a_section_are_reported():
    text = register_text(2)
    duplicate = text.replace("TT-02", "TT-01")
    [finding] = lint.lint_text(duplicate, "dup.md")
    assert (finding.severity, finding.code) == ("error", "parse")
    assert "TT-01" in finding.message
    assert finding.line > 1
    assert finding.row == "", "a parse failure is the file's, not a row's"
    no_section = text[: text.index("## TT-02")].rstrip("\n") + "\n"
    [finding] = lint.lint_text(no_section, "cut.md")
    assert (finding.severity, finding.code) == ("error", "parse"), "a row that would load with no fields"
    assert "TT-02 has no `## TT-02` section" in finding.message
    first, second = text.index("## TT-01"), text.index("## TT-02")
    swapped = text[:first] + text[second:].rstrip("\n") + "\n\n" + text[first:second]
    [finding] = [f for f in lint.lint_text(swapped, "swapped.md") if f.code == "structure"]
    assert (finding.severity, finding.row) == ("warning", ""), "a warning of no one row"
    assert "not in the order" in finding.message


# --- the command ---------------------------------------------------------------------------------


def test_check_registers_on_the_shipped_registers_finds_no_error(db):
    output, code = run("check_registers", str(SHIPPED), "--json")
    payload = json.loads(output)
    assert code == 0
    assert payload["counts"]["error"] == 0
    findings = [(f["row"], f["code"]) for item in payload["files"] for f in item["findings"]]
    # The ten warnings are explained in registers/data/README.md.
    assert findings == [
        ("CT-01", "uncited"),
        ("CT-03", "uncited"),
        ("CT-12", "uncited"),
        ("CT-14", "uncited"),
        ("CT-19", "uncited"),
        ("LOG-08", "status"),
        ("PG-06", "uncited"),
        ("PC-04", "status"),
        ("PC-05", "status"),
        ("TOOL-29", "uncited"),
    ]


def test_check_registers_exits_1_on_errors_and_names_file_line_and_row(db):
    output, code = run("check_registers", str(SHAPES))
    assert code == 1
    line = next(i for i, text in enumerate(SHAPES.read_text().splitlines(), 1) if text.startswith("| QS-08"))
    assert f"{SHAPES}:{line}: error: QS-08: label `2025-03-26 has` contradicts" in output
    assert output.strip().endswith("1 error(s), 0 warning(s) in 1 register(s)")


def test_check_registers_verifies_citations_on_request(db, spec_repo):
    output, code = run("check_registers", str(SHAPES), "--verify", "--source", f"spec={spec_repo}@HEAD", "--json")
    payload = json.loads(output)
    citation = [(f["row"], f["severity"]) for f in payload["files"][0]["findings"] if f["code"] == "citation"]
    assert citation == [("QS-05", "error"), ("QS-05", "error")]
    assert code == 1
    _, code = run("check_registers", str(SHAPES), "--source", "nowhere=/tmp")
    assert code != 0


def test_check_registers_refuses_what_is_not_a_register(db, tmp_path):
    (tmp_path / "notes.md").write_text("# Just notes\n\nNothing here.\n", encoding="utf-8")
    _, code = run("check_registers", str(tmp_path / "missing.md"))
    assert code == 1


# --- the same findings on the pages --------------------------------------------------------------


def test_the_register_page_lists_its_findings_and_problem_citations(db, client, spec_repo):
    load_registers([SHAPES])
    run("verify_citations", "--register", "quote-shapes")  # no spec source configured: nothing saved as drifted
    Citation.objects.filter(row__row_id="QS-05").exclude(kind__in=["url", "wire"]).update(
        verdict="drifted", verify_detail="gone"
    )
    page = client.get("/registers/quote-shapes/").content.decode()
    assert "label `2025-03-26 has` contradicts the Where cell&#x27;s `26-07 only`" in page
    assert page.count('class="finding-error"') == 1
    assert page.count('<td><span class="verdict verdict-drifted">drifted</span></td>') == 2
    listing = client.get("/registers/").content.decode()
    assert "1 error, 0 warnings" in listing
    row_page = client.get("/registers/quote-shapes/QS-08/").content.decode()
    assert "contradicts the Where cell" in row_page
    assert "contradicts" not in client.get("/registers/quote-shapes/QS-07/").content.decode()


def test_check_registers_runs_in_a_checkout_without_a_database(tmp_path):
    from tests.support.processes import manage

    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'never-migrated.sqlite3'}"}
    output = manage("check_registers", str(SHIPPED), env=env)
    assert output.strip().endswith("0 error(s), 10 warning(s) in 7 register(s)")
