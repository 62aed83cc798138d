"""The register parser on the shipped registers, on synthetic variations, and on malformed input."""

from __future__ import annotations

import pytest

from language.vocabulary import REVISIONS
from registers.core.format import RegisterParseError, looks_like_register, parse_register
from tests.conftest import SHIPPED
from tests.support.register_text import register_text

STANDARD_KEYS = ["what", "where", "status", "value", "effort", "risk", "detail", "sources"]


def parse_shipped(slug: str):
    path = SHIPPED / f"{slug}.md"
    return parse_register(path.read_text(encoding="utf-8"), str(path))


@pytest.fixture(scope="module")
def content_types():
    return parse_shipped("content-types")


@pytest.fixture(scope="module")
def prompts():
    return parse_shipped("prompts")


@pytest.fixture(scope="module")
def failure_gap():
    return parse_shipped("failure-gap")


def test_row_counts(content_types, prompts, failure_gap):
    assert [r.row_id for r in content_types.rows] == [f"CT-{n:02d}" for n in range(1, 20)]
    assert [r.row_id for r in prompts.rows] == [f"PRM-{n:02d}" for n in range(1, 9)]
    assert [r.row_id for r in failure_gap.rows] == [f"FG-{n:02d}" for n in range(1, 17)]


def test_register_metadata(content_types):
    assert content_types.title == "Content types"
    assert content_types.slug == "content-types"
    assert content_types.subject == "mcpx"
    assert content_types.subject_commit == "05c78b2"
    assert content_types.increment == 1
    assert content_types.status == "standard"
    assert content_types.tags == ["area:compare"]
    assert content_types.created.isoformat() == "2026-09-30T08:00:00-05:00"
    assert content_types.description.startswith("Every MCP content type")
    assert content_types.intro.startswith("A tool result, a prompt message")
    assert content_types.warnings == []


@pytest.mark.parametrize("slug", ["content-types", "prompts", "failure-gap"])
def test_every_row_is_complete(slug):
    doc = parse_shipped(slug)
    assert doc.warnings == []
    for row in doc.rows:
        keys = [f.key for f in row.fields]
        assert [k for k in keys if k in STANDARD_KEYS] == STANDARD_KEYS, row.row_id
        assert row.labels, row.row_id
        assert [s.revision for s in row.support] == list(REVISIONS)
        assert row.status_verdict in {"yes", "no", "partial", "na", "acc"}
        assert row.effort in {"S", "M", "L", "XL"}
        assert row.risk in {"low", "med", "high"}
        assert any(c.field == "sources" for c in row.citations), row.row_id
        assert row.difference
        assert row.title


def test_ct05_exists_from_2025_06_18(content_types):
    ct05 = content_types.rows[4]
    states = {s.revision: s.state for s in ct05.support}
    assert states == {
        "2024-11-05": "absent",
        "2025-03-26": "absent",
        "2025-06-18": "exists",
        "2025-11-25": "exists",
        "2026-07-28": "exists",
    }
    assert ct05.introduced_in == "2025-06-18"
    assert {s.revision: s.source for s in ct05.support}["2024-11-05"] == "inferred"
    assert {s.revision: s.source for s in ct05.support}["2025-03-26"] == "where"


def test_prm07_status_is_missing(prompts):
    prm07 = prompts.rows[6]
    assert prm07.status_verdict == "no"
    assert prm07.status_note.startswith("roles, order and non-text content lost")
    assert prm07.issue_refs == [206]
    assert [label.text for label in prm07.labels] == ["2024-11-05 has", "mcpx missing"]
    assert [label.kind for label in prm07.labels] == ["revision", "subject"]


def test_deprecation_and_unknown_kept_apart(content_types):
    ct08 = content_types.rows[7]
    assert [s.state for s in ct08.support] == ["absent", "absent", "absent", "exists", "deprecated"]
    assert ct08.deprecated_in == "2026-07-28"
    ct16 = content_types.rows[15]
    assert {s.state for s in ct16.support} == {"unknown"}


def test_labels_classified(content_types, failure_gap):
    ct12 = content_types.rows[11]
    assert [(label.text, label.kind) for label in ct12.labels] == [("mcpx has, others don't", "subject")]
    ct01 = content_types.rows[0]
    hosts = [label.host for label in ct01.labels if label.kind == "host"]
    assert hosts == ["opencode-v1", "opencode-v2"]
    fg11 = failure_gap.rows[10]
    assert fg11.labels[0].kind == "spec"


def test_host_notes(content_types, prompts):
    ct05 = {n.host: n for n in content_types.rows[4].host_notes}
    assert ct05["opencode-v1"].state == "lacks"
    assert ct05["opencode-v1"].where == ["opencode v1 direct dropped"]
    assert ct05["opencode-v2"].state == "has"
    assert any("opencode v2 renders it as its bare" in s for s in ct05["opencode-v2"].statements)
    assert ct05["mcpx"].state == "has"
    assert ct05["mcpx"].state_source == "status"
    ct19 = {n.host: n for n in content_types.rows[18].host_notes}
    assert set(ct19) == {"opencode-v1", "opencode-v2", "lootbox", "cloudflare", "mcpx"}
    cloudflare_citations = [content_types.rows[18].citations[i] for i in ct19["cloudflare"].citation_indexes]
    assert [c.url for c in cloudflare_citations] == [
        "https://developers.cloudflare.com/agents/tools/codemode/api-reference/#mcpconnector"
    ]
    lootbox_citations = [content_types.rows[18].citations[i] for i in ct19["lootbox"].citation_indexes]
    assert [c.path for c in lootbox_citations] == [".lootbox/src/lib/rpc/execute_mcp.ts"]
    prm08 = {n.host: n for n in prompts.rows[7].host_notes}
    assert prm08["opencode-v1"].where == ["opencode v1 ✓ ($1..$n)"]
    assert prm08["opencode-v1"].state == "has"


def test_citations_of_ct13(content_types):
    ct13 = content_types.rows[12]
    sources = [c for c in ct13.citations if c.field == "sources"]
    assert [c.locator for c in sources] == [
        "internal/cli/commands.go:383-384",
        "internal/cli/commands.go:414",
        "internal/cli/serve.go:116",
        "wire W21",
        "internal/cli/commands.go:383",
        "internal/cli/commands.go:385-415",
    ]
    assert sources[1].quote == "return string(raw)"
    assert ct13.wire_refs == ["W21"]
    continuation = [c for c in ct13.citations if c.continuation]
    assert continuation == []
    ct01 = content_types.rows[0]
    short = [c for c in ct01.citations if c.continuation]
    assert [(c.path, c.line_start, c.line_end) for c in short] == [("internal/mcpserver/revisions.go", 224, 226)]


def test_synthetic_register_variations():
    doc = parse_register(register_text(5), "synthetic.md")
    rows = {r.row_id: r for r in doc.rows}
    assert rows["TT-04"].difference == "pipe `a|b` in TT-04"
    assert rows["TT-04"].status_verdict == "no"
    assert rows["TT-04"].status_broken
    assert rows["TT-04"].wire_refs == ["W5", "W6", "W21"]
    assert rows["TT-04"].issue_refs == [205]
    assert rows["TT-05"].status_verdict == "acc"
    assert (rows["TT-03"].value_sign, rows["TT-03"].value_level) == ("−", "moot")
    assert [s.state for s in rows["TT-03"].support] == ["absent", "exists", "absent", "absent", "absent"]
    assert rows["TT-03"].removed_in == "2025-06-18"
    assert doc.description.endswith("like the README's does.")
    cloudflare = next(c for c in rows["TT-01"].citations if c.kind == "url")
    assert cloudflare.quote == "MCP error results become thrown connector errors."


def test_extra_field_kept_by_name():
    text = register_text(1).replace(
        "- **Sources.**", "- **Also recorded from the tools register.** Same row there.\n- **Sources.**"
    )
    row = parse_register(text, "x.md").rows[0]
    extra = [f for f in row.fields if f.key == "also-recorded-from-the-tools-register"]
    assert extra
    assert extra[0].name == "Also recorded from the tools register"
    assert extra[0].text == "Same row there."


def test_unknown_label_kept_as_other():
    text = register_text(1).replace("`2024-11-05 has` `opencode v1 has`", "`2024-11-05 has` `brand new label`")
    labels = parse_register(text, "x.md").rows[0].labels
    assert [(label.text, label.kind) for label in labels] == [
        ("2024-11-05 has", "revision"),
        ("brand new label", "other"),
    ]


def test_rows_that_would_load_without_their_section_or_cells_fail_unless_drafts_are_allowed():
    """Issue 21 row 7: a table row without its section loaded with none of its eight fields, a
    section without its table row with no status, labels or revision cells; both are errors now,
    warnings only for a draft (`require_fields=False`, `--allow-missing-fields`)."""
    text = register_text(3)
    start = text.index("## TT-02")
    end = text.index("## TT-03")
    without_section = text[:start] + text[end:]
    table_line = text.split("\n").index(next(line for line in text.split("\n") if line.startswith("| TT-02 "))) + 1
    with pytest.raises(RegisterParseError) as raised:
        parse_register(without_section, "x.md")
    assert str(raised.value) == (
        f"x.md:{table_line}: table row TT-02 has no `## TT-02` section (every row needs its section)"
    )
    doc = parse_register(without_section, "x.md", require_fields=False)
    assert [r.row_id for r in doc.rows] == ["TT-01", "TT-02", "TT-03"]
    assert any("TT-02 has no `## TT-02` section" in w.message for w in doc.warnings)

    lines = text.split("\n")
    no_row = "\n".join(line for line in lines if not line.startswith("| TT-03 "))
    with pytest.raises(RegisterParseError, match="section TT-03 has no row in the summary table"):
        parse_register(no_row, "x.md")
    doc = parse_register(no_row, "x.md", require_fields=False)
    assert [r.row_id for r in doc.rows] == ["TT-01", "TT-02", "TT-03"]
    assert any("section TT-03 has no row in the summary table" in w.message for w in doc.warnings)


def test_a_register_cut_in_the_middle_of_a_section_fails_naming_the_row():
    text = register_text(3)
    middle = text.index("## TT-02")
    cut = text[: text.index("\n", text.index("- **", middle)) + 1]
    with pytest.raises(RegisterParseError, match="TT-02 has no"):
        parse_register(cut, "cut.md")


@pytest.mark.parametrize(
    "separator",
    ["| --- | --- |", "| --- | --- | --- | --- | --- | --- | --- | x |", "| text | --- |", ""],
    ids=["too-few-cells", "a-cell-that-is-no-dashes", "words", "missing"],
)
def test_a_summary_table_whose_separator_row_does_not_parse_fails(separator):
    text = register_text(2)
    lines = text.split("\n")
    header = next(index for index, line in enumerate(lines) if line.startswith("| ID |"))
    width = len(lines[header + 1].strip().strip("|").split("|"))
    if separator.endswith("x |"):
        separator = "|" + " --- |" * (width - 1) + " x |"
    lines[header + 1 : header + 2] = [separator] if separator else []
    with pytest.raises(RegisterParseError) as raised:
        parse_register("\n".join(lines), "sep.md")
    assert str(raised.value).startswith(f"sep.md:{header + 2}: expected the table's separator row"), str(raised.value)


def test_ambiguity_is_refused_naming_both_lines():
    text = register_text(3)
    lines = text.split("\n")
    dup_line = next(line for line in lines if line.startswith("| TT-01 "))
    first = lines.index(dup_line) + 1
    with pytest.raises(RegisterParseError) as raised:
        parse_register(text.replace(dup_line, dup_line + "\n" + dup_line), "x.md")
    assert (
        str(raised.value)
        == f"x.md:{first + 1}: duplicate row ID TT-01 in the summary table (the first is on line {first})"
    )

    section = text[text.index("## TT-02") : text.index("## TT-03")]
    section_line = _line_of(text, "## TT-02")
    with pytest.raises(
        RegisterParseError, match=rf"duplicate section `## TT-02` \(the first is on line {section_line}\)"
    ):
        parse_register(text.replace(section, section + section), "x.md")


def test_a_missing_standard_field_fails_unless_allowed():
    text = register_text(2)
    risk = next(line for line in text.split("\n") if line.startswith("- **Risk.**"))
    broken = text.replace(risk + "\n", "", 1)
    line = _line_of(text, "## TT-01")
    with pytest.raises(RegisterParseError) as raised:
        parse_register(broken, "x.md")
    assert str(raised.value) == f"x.md:{line}: TT-01 has no `- **Risk.**` field (every row needs all eight)"
    status = next(line for line in text.split("\n") if line.startswith("- **mcpx @"))
    with pytest.raises(RegisterParseError, match=r"TT-01 has no `- \*\*mcpx @ <commit>\.\*\*` field"):
        parse_register(text.replace(status + "\n", "", 1), "x.md")
    doc = parse_register(broken, "x.md", require_fields=False)
    assert [w.message for w in doc.warnings if "field" in w.message] == ["TT-01 has no `- **Risk.**` field"]


def test_essays_are_not_registers():
    assert looks_like_register(register_text(1))
    assert not looks_like_register("# Stateless\n\n```\ncreated: x\n```\n\nJust prose.\n")


def _line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


MALFORMED = [
    ("no H1", lambda t: t.replace("# Test register\n", "Test register\n", 1), "Test register", "H1"),
    (
        "unclosed front matter",
        lambda t: t.replace(
            "description long enough to wrap onto\n              a second line like the README's does.\n```", "x"
        ),
        "```\ncreated",
        "never closed",
    ),
    (
        "bad timestamp",
        lambda t: t.replace("created:      2026-09-30T08:00:00-05:00", "created:      yesterday"),
        "created:      yesterday",
        "ISO-8601",
    ),
    ("bad increment", lambda t: t.replace("increment:    1", "increment:    one"), "increment:    one", "whole number"),
    (
        "missing status line",
        lambda t: t.replace("Status column: **mcpx @ 05c78b2**.", "Status: fine."),
        "| ID |",
        "status line",
    ),
    ("wrong header", lambda t: t.replace("| Risk |\n| ---", "| Danger |\n| ---"), "| ID |", "table header"),
    (
        "wrong cell count",
        lambda t: t.replace("| + high | S | low |", "| + high | S | low | extra |"),
        "| TT-01 |",
        "expected 8 table cells",
    ),
    ("bad status", lambda t: t.replace("✓ — works", "works fine"), "| TT-01 |", "status cell"),
    ("bad value", lambda t: t.replace("| + high |", "| lots |"), "| TT-01 |", "value cell"),
    ("bad effort", lambda t: t.replace("| + high | S |", "| + high | XXL |"), "| TT-01 |", "effort"),
    (
        "bad section heading",
        lambda t: t.replace("## TT-02 audio", "## Notes about audio"),
        "## Notes about audio",
        "section heading",
    ),
    (
        "stray prose in a section",
        lambda t: t.replace("- **Effort.** S — small.", "Effort is small."),
        "Effort is small.",
        "bullet field",
    ),
]


@pytest.mark.parametrize(("name", "mutate", "needle", "expected"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_input_names_file_and_line(name, mutate, needle, expected):
    text = mutate(register_text(2))
    with pytest.raises(RegisterParseError) as caught:
        parse_register(text, "registers/broken.md")
    error = caught.value
    assert error.path == "registers/broken.md"
    assert error.line == _line_of(text, needle), str(error)
    assert expected in error.message
    assert str(error).startswith(f"registers/broken.md:{error.line}: ")
