"""The lint's findings as a register author reads them: severity, line, row, rule and the exact
message, for each rule (pinned after mutation testing showed that checking the rule alone let a
wrong line, a lost message or a wrong subject pass)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from registers.core import lint
from registers.core.sources import SourceRoot
from tests.conftest import SHIPPED
from tests.registers.test_unseen_registers import CITES_LOOTBOX, with_row

pytestmark = pytest.mark.django_db(databases=[])


def line_of(text: str, start: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def found(text: str, roots=None) -> list[tuple]:
    return [(f.severity, f.line, f.row, f.code, f.message) for f in lint.lint_text(text, "one.md", roots)]


@pytest.mark.parametrize(
    ("cells", "severity", "message"),
    [
        ("`2025-03-26 has` | `25-03 —`", "error", "label `2025-03-26 has` contradicts the Where cell, which says 25-03 lacks it"),
        ("`2026-07-28 deprecates` | `26-07 ✓`", "warning", "label `2026-07-28 deprecates` but the Where cell says 26-07: exists"),
        ("`2025-03-26 deprecates` | `26-07 only`", "error", "label `2025-03-26 deprecates` contradicts the Where cell's `26-07 only`"),
        ("`2025-03-26 has` | `25-11 only` · `26-07 only`", "error", "label `2025-03-26 has` contradicts the Where cell's `25-11, 26-07 only`"),
        ("`lootbox has` | `26-07 ✓` · lootbox ✗", "error", "label `lootbox has` contradicts the Where cell, which says lootbox lacks it"),
        # A label of another kind before it does not stop the revision labels being checked.
        ("`lootbox has` `2025-03-26 has` | `25-03 —`", "error", "label `2025-03-26 has` contradicts the Where cell, which says 25-03 lacks it"),
    ],
)  # fmt: skip
def test_each_contradiction_says_which_label_and_what_the_where_cell_says(cells, severity, message):
    text = with_row(cells, CITES_LOOTBOX)
    assert found(text) == [(severity, line_of(text, "| TT-01"), "TT-01", "contradiction", message)]


@pytest.mark.parametrize(
    "cells",
    [
        "`2026-07-28 removes` | `24-11..25-11 ✓ · 26-07 405`",
        "`2026-07-28 removes` | `24-11..25-11: server decides · 26-07 MUST NOT emit`",
        "`2026-07-28 removes` | `25-11 core · 26-07 extension only`",
        "`2026-07-28 removes` | `25-11 server + client · 26-07 server only`",
        "`2026-07-28 removes` | `24-11..25-11 both ways · 26-07 server → client`",
        "`2026-07-28 removes` | `26-07 per-request streams`",
        "`opencode v2 has` | `26-07 ✓` · v2 no idle TTL",
        "`2026-07-28 deprecates` `2026-07-28 has` | `26-07 ✓ (dep.)`",
    ],
)  # fmt: skip
def test_a_revision_or_host_followed_by_words_is_described_and_no_label_contradicts_it(cells):
    """The shapes of the registers nobody here wrote (issue 34, item 5): only markers (✓, —, ✗, dep,
    only, a revision alone) state a state; words describe one."""
    assert [f for f in lint.lint_text(with_row(cells), "one.md") if f.code == "contradiction"] == []


def test_a_planted_contradiction_in_a_correct_register_is_still_found():
    text = with_row("`2025-03-26 has` | `25-11 server + client · 26-07 only`")
    assert [f.message for f in lint.lint_text(text, "one.md") if f.code == "contradiction"] == [
        "label `2025-03-26 has` contradicts the Where cell's `26-07 only`"
    ]


@pytest.mark.parametrize(("status", "shown"), [("✓ — works", "✓"), ("acc. — accepted as is", "acc.")])
def test_a_missing_label_beside_a_status_that_has_it(status, shown):
    text = with_row("`mcpx missing` `2026-07-28 has` | `26-07 ✓`").replace("n/a — not examined", status)
    message = f"label `mcpx missing` but the status column says {shown}"
    assert found(text) == [("warning", line_of(text, "| TT-01"), "TT-01", "status", message)]
    absent = text.replace(status, "✗ — absent")
    assert found(absent) == [], "a status that lacks it agrees with the label"


def test_missing_and_has_others_dont_together():
    text = with_row("`mcpx missing` `mcpx has, others don't` `2026-07-28 has` | `26-07 ✓`")
    status = ("warning", line_of(text, "| TT-01"), "TT-01", "status")
    assert (*status, "labels `mcpx missing` and `mcpx has, others don't` together") in found(text)


def test_the_status_rules_use_the_registers_own_subject():
    text = with_row("`gw missing` `2026-07-28 has` | `26-07 ✓`").replace("n/a — not examined", "✓ — works")
    text = text.replace("mcpx @ 05c78b2", "gw @ 05c78b2")
    assert (
        "warning",
        line_of(text, "| TT-01"),
        "TT-01",
        "status",
        "label `gw missing` but the status column says ✓",
    ) in found(text)


def test_an_uncited_row_is_reported_at_its_section():
    text = with_row("`2026-07-28 has` | `26-07 ✓`", sources="Nothing cited.")
    text = text.replace("Handled in `internal/cli/commands.go:385-415` and again at `:414`.", "Handled.")
    assert found(text) == [("warning", line_of(text, "## TT-01"), "TT-01", "uncited", "the row cites nothing")]


def test_a_host_said_to_lack_it_with_nothing_cited_from_its_sources():
    text = with_row("`mcpx missing` `mcpx has, others don't` `2026-07-28 has` | `26-07 ✓`")
    message = "opencode v2 is said to be `lacks` with nothing cited from its sources"
    assert ("warning", line_of(text, "## TT-01"), "TT-01", "uncited", message) in found(text)


def test_a_host_label_with_nothing_cited_from_that_host_is_reported_though_prose_names_it():
    # The row's prose says "lootbox keeps it raw", which let the label off before.
    text = with_row("`lootbox has` `2026-07-28 has` | `26-07 ✓`", sources='`internal/app/server.go:4` "x"')
    message = "label `lootbox has` with nothing cited from lootbox's sources"
    assert ("warning", line_of(text, "## TT-01"), "TT-01", "uncited", message) in found(text)
    cited = with_row("`lootbox has` `2026-07-28 has` | `26-07 ✓`", sources='`.lootbox/src/client.ts:4` "x"')
    assert not [f for f in found(cited) if "lootbox" in f[4]]


def test_a_citation_in_no_source_root_cannot_be_verified():
    roots = [SourceRoot(key="subject", name="mcpx", prefixes=("internal/",))]
    text = with_row("`2026-07-28 has` | `26-07 ✓`", sources='`elsewhere/x.go:1` "x"; https://example.com/a')
    message = "`elsewhere/x.go` is in no source root: it cannot be verified"
    assert found(text, roots) == [("warning", line_of(text, "## TT-01"), "TT-01", "no-source", message)]
    assert found(text) == [], "without roots nothing is checked"


def test_a_tick_marked_deprecated_reads_as_deprecated_and_words_are_no_marker():
    from language.vocabulary import ABSENT, DEPRECATED, EXISTS
    from registers.core.support import marked_states, support_from_where

    assert support_from_where("26-07 ✓ (dep.)")["2026-07-28"].state == DEPRECATED
    assert marked_states("24-11..25-11 ✓ · 26-07 —") == {
        "2024-11-05": EXISTS,
        "2025-03-26": EXISTS,
        "2025-06-18": EXISTS,
        "2025-11-25": EXISTS,
        "2026-07-28": ABSENT,
    }
    assert marked_states("25-11 core · 26-07 MUST NOT emit") == {}, "words describe; they mark nothing"
    assert marked_states("25-03+ · 26-07 only") == {
        "2025-03-26": EXISTS,
        "2025-06-18": EXISTS,
        "2025-11-25": EXISTS,
        "2026-07-28": EXISTS,
    }


@pytest.mark.parametrize("name", ["pagination-caching", "logging", "progress-cancellation", "tools"])
def test_the_four_new_registers_have_no_contradiction_and_a_planted_one_is_found(name):
    text = (SHIPPED / f"{name}.md").read_text(encoding="utf-8")
    assert [f for f in lint.lint_text(text, f"{name}.md") if f.code == "contradiction"] == []
    first = next(line for line in text.splitlines() if re.match(r"^\| [A-Z]+-01 \|", line))
    cells = first.split(" | ")
    planted = first.replace(cells[2], "`2024-11-05 has`", 1).replace(cells[3], "`26-07 only`", 1)
    found_ = [f for f in lint.lint_text(text.replace(first, planted), f"{name}.md") if f.code == "contradiction"]
    assert [f.message for f in found_] == ["label `2024-11-05 has` contradicts the Where cell's `26-07 only`"]


def contradicting_register(tmp_path) -> Path:
    from tests.registers.test_unseen_registers import with_row

    path = tmp_path / "contradicts.md"
    path.write_text(with_row("`2024-11-05 has` | `24-11 —` · `25-03 ✓`"), encoding="utf-8")
    return path


@pytest.mark.django_db
def test_a_load_names_each_lint_error_and_strict_refuses_it(tmp_path):
    """Issue 26, a first-time user's row 3."""
    from django.core.management import CommandError, call_command

    from registers.models import Register, Row

    path = contradicting_register(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    call_command("load_registers", str(path), stdout=out, stderr=err)
    assert "1 created" in out.getvalue()
    assert f"lint error: {path}:" in err.getvalue()
    assert "TT-01 label `2024-11-05 has` contradicts the Where cell, which says 24-11 lacks it" in err.getvalue()

    Register.objects.all().delete()
    with pytest.raises(CommandError, match=r"--strict: 1 lint error\(s\), first .*contradicts\.md:\d+: TT-01"):
        call_command("load_registers", str(path), "--strict", stdout=io.StringIO(), stderr=io.StringIO())
    assert not Register.objects.exists(), "a refused load changes nothing"
    assert not Row.objects.exists()


@pytest.mark.django_db
def test_the_register_page_leads_with_its_findings_and_the_row_page_does_not_contradict_itself(tmp_path, client):
    """Issue 26, a first-time user's row 3."""
    from registers.loader import load_registers

    load_registers([contradicting_register(tmp_path)])
    page = client.get("/registers/contradicts/").content.decode()
    assert page.index('id="lint-h"') < page.index('id="citations-h"') < page.index('id="rows-h"')
    assert "<strong>1 error</strong>" in page
    row = client.get("/registers/contradicts/TT-01/").content.decode()
    assert row.index('id="row-lint-h"') < row.index('id="revisions-h"'), "the contradiction comes first"
    assert "· introduced in 2024-11-05" not in row, "never stated beside a strip that says absent"
    assert "its labels say introduced in 2024-11-05, which the Where cell, and the strip above, do not" in row


def test_removes_beside_a_deprecated_where_cell_is_a_contradiction():
    """Issue 22."""
    [finding] = lint.lint_text(with_row("`2025-06-18 removes` | `25-06 dep`"), "one.md")
    assert (finding.severity, finding.row, finding.code) == ("error", "TT-01", "contradiction")
    assert finding.message == (
        "label `2025-06-18 removes` contradicts the Where cell, which says 25-06 has it (deprecated)"
    )


def test_a_lint_warning_names_its_row_line_and_message():
    """Issue 22: Mutation survivors of the lint: which row a parser warning is about, and what an unknown
    label's finding says and where."""
    text = with_row("`2026-07-28 has` stray | `26-07 ✓`")
    [warning] = [f for f in lint.lint_text(text, "one.md") if f.code == "structure"]
    assert (warning.severity, warning.row) == ("warning", "TT-01")
    assert "text outside code spans in the Labels cell: 'stray'" in warning.message
    row_line = text.split("\n").index(next(line for line in text.split("\n") if line.startswith("| TT-01"))) + 1
    [unknown] = lint.lint_text(with_row("`2026-07-28 has` `some new label` | `26-07 ✓`"), "one.md")
    assert (unknown.line, unknown.message) == (row_line, "label `some new label` is of no known kind")
