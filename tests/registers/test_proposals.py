"""Register edits the evidence decides (issue 51): an error planted in a copy of a shipped register,
one of each kind, is proposed back; the patch applies with `patch -p1` and the result loads again;
an untouched register gets no edit; mixed evidence is "needs a person", never an edit."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from common.pagecache import bump_data_version
from comparison.selectors.lab import SHIPPED_SNAPSHOT
from evidence.proposals import register_proposals
from registers.core.proposals.edits import CITATION, HOST, REVISION, STATUS
from registers.core.proposals.revision_edits import compact_where, revision_edits, revision_labels
from registers.core.proposals.text_edits import EditConflict, apply_edits
from registers.loader import load_registers
from registers.models import Register, RegisterSource, SourceRoot
from tests.conftest import SHIPPED
from tests.support import gitrepo

pytestmark = pytest.mark.django_db
PRESENT_FROM_25_06 = {
    "2024-11-05": False,
    "2025-03-26": False,
    "2025-06-18": True,
    "2025-11-25": True,
    "2026-07-28": True,
}


def plant(tmp_path: Path, name: str, replacements: list[tuple[str, str]]) -> tuple[Path, str]:
    """A copy of a shipped register under tmp/registers/, with each replacement made once."""
    original = (SHIPPED / name).read_text(encoding="utf-8")
    planted = original
    for old, new in replacements:
        assert old in planted, old
        planted = planted.replace(old, new, 1)
    folder = tmp_path / "registers"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(planted, encoding="utf-8")
    return path, original


def verify(register: str) -> None:
    """Verify the register's citations (the command fails the run on drifted ones: that is fine here)."""
    try:
        call_command("verify_citations", "--register", register, stdout=io.StringIO(), stderr=io.StringIO())
    except CommandError:
        pass


def apply_patch(patch: str, cwd: Path) -> None:
    subprocess.run(["patch", "-p1", "--forward", "--batch"], input=patch, text=True, cwd=cwd, check=True, timeout=60)


def load_lab() -> None:
    call_command("host_lab", "--load-snapshot", str(SHIPPED_SNAPSHOT), stdout=io.StringIO())


def proposals_of(slug: str, kinds: tuple[str, ...]):
    return register_proposals(Register.objects.get(slug=slug), kinds)


# --- the pure parts ---------------------------------------------------------------------------


def test_labels_and_the_compact_where_cell_follow_the_schemas_span():
    assert revision_labels("`2025-03-26 has` `mcpx missing`", "2025-06-18", "") == "`2025-06-18 has` `mcpx missing`"
    assert revision_labels("`2024-11-05 has`", "2024-11-05", "2026-07-28") == "`2024-11-05 has` `2026-07-28 removes`"
    assert revision_labels("`2024-11-05 has` `2025-06-18 removes`", "2024-11-05", "") == "`2024-11-05 has`"
    cell = "`24-11 — · 25-03 ✓ (schema) · 25-06 ✓ · 25-11 ✓ · 26-07 ✓`"
    assert compact_where(cell, PRESENT_FROM_25_06) == "`24-11 — · 25-03 — · 25-06 ✓ · 25-11 ✓ · 26-07 ✓`"
    assert compact_where("25-03 ✓ · 25-06 ✓ (schema) · 25-11 ✓ · 26-07 ✓", PRESENT_FROM_25_06) == (
        "25-06 ✓ (schema) · 25-11 ✓ · 26-07 ✓"
    ), "a cell that lists only where it exists keeps doing so, with what it said beside a kept mark"
    assert compact_where("every revision allows it", PRESENT_FROM_25_06) is None


def test_a_presence_no_label_can_say_needs_a_person():
    from registers.core.proposals.edits import Evidence

    gaps = {**PRESENT_FROM_25_06, "2025-11-25": False}
    edits, people = revision_edits("X-01", "`2025-06-18 has`", "25-06 ✓", "", gaps, Evidence("schema", "…"))
    assert edits == []
    assert "not one span" in people[0].why
    edits, people = revision_edits(
        "X-01", "`2025-03-26 has`", "from 2025-03-26", "", PRESENT_FROM_25_06, Evidence("s", "")
    )
    assert edits == []
    assert "Where cell is prose" in people[0].why, "labels and cell must keep agreeing"


def test_an_edit_touches_its_cell_and_nothing_else_and_refuses_a_changed_text():
    from registers.core.proposals.edits import Edit

    text = "| ID | A | B | C |\n| --- | --- | --- | --- |\n| X-01 | a \\| b | `x` |  c  |\n\n## X-01 t\n\n- **Where.** 2025-03-26 onward.\n"
    edit = Edit("X-01", REVISION, "labels", "`x`", "`y`")
    assert apply_edits(text, [edit]) == text.replace("| `x` |", "| `y` |")
    field = Edit("X-01", REVISION, "field:Where", "2025-03-26 onward", "2025-06-18 onward")
    assert apply_edits(text, [field]).endswith("- **Where.** 2025-06-18 onward.\n")
    with pytest.raises(EditConflict, match="says '`x`', not '`z`'"):
        apply_edits(text, [Edit("X-01", REVISION, "labels", "`z`", "`y`")])


# --- planted errors, proposed back -------------------------------------------------------------


def test_a_where_cell_and_label_the_schemas_contradict_are_proposed_back_exactly(tmp_path):
    path, original = plant(
        tmp_path,
        "prompts.md",
        [
            ("| PRM-01 | `Prompt.title` | `2025-06-18 has` `mcpx missing` | `24-11 — · 25-03 —",
             "| PRM-01 | `Prompt.title` | `2025-03-26 has` `mcpx missing` | `24-11 — · 25-03 ✓"),
            ("- **Where.** 2025-06-18 onward;", "- **Where.** 2025-03-26 onward;"),
        ],
    )  # fmt: skip
    load_registers([path])
    found = proposals_of("prompts", (REVISION,))
    assert [(e.row_id, e.place) for e in found.edits] == [
        ("PRM-01", "labels"),
        ("PRM-01", "where"),
        ("PRM-01", "field:Where"),
    ]
    assert "Prompt.title at 2025-06-18, 2025-11-25, 2026-07-28" in found.edits[0].evidence[0].says
    apply_patch(found.patch("registers/prompts.md"), tmp_path)
    assert path.read_text(encoding="utf-8") == original
    report = load_registers([path])
    assert report.lint_errors() == []
    assert proposals_of("prompts", (REVISION,)).edits == [], "nothing left that a proposal covered"


def test_a_host_label_the_lab_contradicts_is_proposed_back(tmp_path):
    load_lab()
    path, original = plant(
        tmp_path,
        "prompts.md",
        [("| PRM-06 | `resource_link` allowed in prompt messages; prose lags until 2026 | `2025-06-18 has` `specs conflict` |",
          "| PRM-06 | `resource_link` allowed in prompt messages; prose lags until 2026 | `2025-06-18 has` `specs conflict` `opencode v1 has` |")],
    )  # fmt: skip
    load_registers([path])
    found = proposals_of("prompts", (HOST,))
    assert [(e.row_id, e.old, e.new) for e in found.edits] == [
        ("PRM-06", "`2025-06-18 has` `specs conflict` `opencode v1 has`", "`2025-06-18 has` `specs conflict`")
    ]
    assert any("1.18.31" in e.says and "dropped" in e.says for e in found.edits[0].evidence), found.edits[0].evidence
    apply_patch(found.patch("registers/prompts.md"), tmp_path)
    assert path.read_text(encoding="utf-8") == original
    load_registers([path])
    assert proposals_of("prompts", (HOST,)).edits == []


def test_a_status_a_probe_of_the_subject_contradicts_is_proposed(tmp_path):
    from comparison.models import ProbeTarget
    from comparison.tasks import start_run
    from tests.support.relay_targets import relay_target

    path, _ = plant(
        tmp_path,
        "content-types.md",
        [("| partial — `mcpx_call` drops it; scripts keep it |", "| ✓ — passes images on |")],
    )
    load_registers([path])
    target = relay_target("images")
    ProbeTarget.objects.filter(pk=target.pk).update(name="mcpx (a relay that drops images)")
    run = start_run(target=ProbeTarget.objects.get(pk=target.pk), revisions=["2025-06-18"], scenarios=["image"])
    assert run.status == "done", run.error
    found = proposals_of("content-types", (STATUS,))
    edit = next(e for e in found.edits if e.row_id == "CT-02")
    assert edit.old == "✓ — passes images on"
    assert edit.new.startswith("✗ — ")
    assert "mcpx (a relay that drops images)" in edit.new
    assert edit.evidence[0].link.startswith("/probes/results/")
    apply_patch(found.patch("registers/content-types.md"), tmp_path)
    report = load_registers([path])
    assert report.lint_errors() == []
    assert [e.row_id for e in proposals_of("content-types", (STATUS,)).edits if e.row_id == "CT-02"] == []


SERVER_V1 = "package app\n\nfunc call() string {\n\treturn renderResult(res)\n}\n"
SERVER_V2 = "package app\n\n// moved down\n// by two lines\nfunc call() string {\n\treturn renderResult(res)\n}\n"


def test_a_moved_quote_is_re_pointed_to_the_line_that_holds_it(tmp_path, settings):
    settings.SOURCE_CACHE_DIR = str(tmp_path / "cache")
    repo = gitrepo.init(tmp_path / "mcpx")
    gitrepo.commit(repo, {"internal/app/server.go": SERVER_V1}, "first")
    moved = gitrepo.commit(repo, {"internal/app/server.go": SERVER_V2}, "two lines above")
    SourceRoot.objects.create(key="subject", name="mcpx", prefixes=["internal/"], repository=str(repo), commit=moved)
    path, _ = plant(
        tmp_path,
        "prompts.md",
        [("- **Where.** 2025-06-18 onward; documented in 2025-06-18 prose.",
          '- **Where.** 2025-06-18 onward; documented in 2025-06-18 prose; `internal/app/server.go:4` "return renderResult(res)"; `internal/app/server.go:2` "gone away".')],
    )  # fmt: skip
    load_registers([path])
    verify("prompts")
    found = proposals_of("prompts", (CITATION,))
    assert [(e.row_id, e.place, e.old, e.new) for e in found.edits] == [
        ("PRM-01", "field:Where", "internal/app/server.go:4", "internal/app/server.go:6")
    ]
    assert [(p.row_id, p.kind) for p in found.people] == [("PRM-01", "citation")]
    assert "internal/app/server.go:2" in found.people[0].why, "a quote no line holds needs a person"
    apply_patch(found.patch("registers/prompts.md"), tmp_path)
    assert '`internal/app/server.go:6` "return renderResult(res)"' in path.read_text(encoding="utf-8")
    load_registers([path])
    verify("prompts")
    assert proposals_of("prompts", (CITATION,)).edits == []


# --- untouched registers, the command, the page and the API --------------------------------------


def test_the_shipped_registers_get_no_edit_and_mixed_evidence_needs_a_person(loaded):
    load_lab()
    for register in Register.objects.all():
        found = register_proposals(register)
        assert found.edits == [], (register.slug, [e.as_dict() for e in found.edits])
    tools = register_proposals(Register.objects.get(slug="tools"))
    assert {item.row_id for item in tools.people} >= {"TOOL-27"}
    assert all(item.evidence for item in tools.people)


def test_the_command_prints_the_patch_and_names_the_rows_needing_a_person(tmp_path, monkeypatch):
    path, original = plant(tmp_path, "prompts.md", [("`2025-06-18 has` `mcpx missing` | `24-11 — · 25-03 —",
                                                     "`2025-03-26 has` `mcpx missing` | `24-11 — · 25-03 ✓")])  # fmt: skip
    monkeypatch.chdir(tmp_path)
    load_registers([Path("registers/prompts.md")])
    out, err = io.StringIO(), io.StringIO()
    call_command("propose_edits", "--register", "prompts", stdout=out, stderr=err)
    assert out.getvalue().startswith("--- a/registers/prompts.md\n+++ b/registers/prompts.md\n")
    assert "prompts: 2 edit(s) (2 revision, 0 host, 0 status, 0 citation)" in err.getvalue()
    apply_patch(out.getvalue(), tmp_path)
    assert path.read_text(encoding="utf-8") == original
    data = io.StringIO()
    call_command(
        "propose_edits", "--register", "prompts", "--kinds", "host", "--json", stdout=data, stderr=io.StringIO()
    )
    assert json.loads(data.getvalue())["counts"] == {"revision": 0, "host": 0, "status": 0, "citation": 0}


def test_the_register_page_api_and_patch_carry_the_edits(tmp_path):
    path, _ = plant(tmp_path, "prompts.md", [("`2025-06-18 has` `mcpx missing` | `24-11 — · 25-03 —",
                                              "`2025-03-26 has` `mcpx missing` | `24-11 — · 25-03 ✓")])  # fmt: skip
    load_registers([path])
    client = Client()
    page = client.get("/registers/prompts/").content.decode()
    assert 'hx-get="/registers/prompts/proposals/"' in page
    section = client.get("/registers/prompts/proposals/", HTTP_HX_REQUEST="true").content.decode()
    assert section.startswith('\n<div id="proposals">') or section.lstrip().startswith('<div id="proposals">')
    assert "2 edits the evidence decides (2 revision" in section
    assert 'href="/registers/prompts/PRM-01/"' in section
    assert "MCP JSON Schema of each revision" in section
    patch = client.get("/registers/prompts/proposals/?format=patch")
    assert patch["Content-Type"].startswith("text/x-diff")
    assert "+| PRM-01 | `Prompt.title` | `2025-06-18 has`" in patch.content.decode()
    api = client.get("/api/v1/registers/prompts/proposals/").json()
    assert api["counts"]["revision"] == 2
    assert api["patch"] == patch.content.decode()
    RegisterSource.objects.all().delete()
    bump_data_version()  # as a load does: the cached answer was the text's
    gone = client.get("/api/v1/registers/prompts/proposals/")
    assert gone.status_code == 409
    assert "load the register again" in gone.json()["error"]


def test_a_register_loaded_before_its_text_was_kept_is_read_again(tmp_path):
    path = tmp_path / "prompts.md"
    shutil.copy(SHIPPED / "prompts.md", path)
    load_registers([path])
    RegisterSource.objects.all().delete()
    report = load_registers([path])
    assert report.unchanged_registers == [], "read again to keep its text"
    assert RegisterSource.objects.get(register__slug="prompts").text == path.read_text(encoding="utf-8")
    assert load_registers([path]).unchanged_registers == ["prompts"]


def test_the_proposals_page_reads_the_database_a_fixed_number_of_times(loaded):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    load_lab()
    counts = []
    for slug in ("prompts", "tools"):  # 8 rows and 31
        with CaptureQueriesContext(connection) as captured:
            assert Client().get(f"/registers/{slug}/proposals/").status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1], counts


def test_the_subject_commit_a_probe_of_the_subject_reports_is_proposed_for_the_status_column(tmp_path):
    from comparison.models import ProbeRun, ProbeTarget

    path, original = plant(tmp_path, "prompts.md", [])
    load_registers([path])
    target = ProbeTarget.objects.create(name="mcpx (stdio)", transport="stdio", command=["mcpx"], upstream="fixture")
    ProbeRun.objects.create(target=target, status=ProbeRun.DONE, server_identity="mcpx 1a2b3c4d5e6f")
    found = proposals_of("prompts", (STATUS,))
    assert [(e.row_id, e.place, e.old, e.new) for e in found.edits] == [
        ("", "subject header", "mcpx @ 05c78b2", "mcpx @ 1a2b3c4d5e6f")
    ]
    assert "said it is mcpx 1a2b3c4d5e6f" in found.edits[0].evidence[0].says
    assert '<th scope="row">every row</th>' in Client().get("/registers/prompts/proposals/").content.decode()
    patch = found.patch("registers/prompts.md")
    added = [line for line in patch.splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert len(added) == 2 + original.count("- **mcpx @ 05c78b2.**"), "status line, header, every bullet"
    apply_patch(patch, tmp_path)
    report = load_registers([path])
    assert report.lint_errors() == []
    assert Register.objects.get(slug="prompts").subject_commit == "1a2b3c4d5e6f"
    assert proposals_of("prompts", (STATUS,)).edits == []
