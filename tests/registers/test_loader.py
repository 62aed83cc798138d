"""The loader and `manage.py load_registers`: idempotent, in place, removals, all-or-nothing."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from registers.loader import RegisterLoadError, load_registers
from registers.models import Citation, HostNote, Label, Register, RevisionSupport, Row
from tests.support.register_text import register_text

pytestmark = pytest.mark.django_db


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def snapshot() -> dict:
    """Everything the loader writes, in a comparable form."""
    return {
        "registers": list(Register.objects.order_by("slug").values_list("slug", "content_hash", "title")),
        "rows": list(Row.objects.order_by("register__slug", "row_id").values_list("row_id", "content_hash", "title")),
        "labels": Label.objects.count(),
        "support": RevisionSupport.objects.count(),
        "hosts": HostNote.objects.count(),
        "citations": Citation.objects.count(),
    }


def test_loads_the_shipped_registers(loaded):
    assert loaded.created == 19 + 8 + 16 + 9 + 14 + 14 + 31
    assert sorted(loaded.registers) == [
        "content-types",
        "failure-gap",
        "logging",
        "pagination-caching",
        "progress-cancellation",
        "prompts",
        "tools",
    ]
    assert Row.objects.count() == 111
    assert RevisionSupport.objects.count() == 111 * 5
    ct13 = Row.objects.get(row_id="CT-13")
    assert ct13.fields[0]["key"] == "what"
    assert "<code>" in ct13.fields[0]["html"]
    assert ct13.citations.filter(kind="wire").get().wire_ids == ["W21"]
    page = Citation.objects.get(row__row_id="CT-03", path="2025-03-26/changelog.mdx")
    assert page.web_url == (
        "https://github.com/modelcontextprotocol/modelcontextprotocol/blob/"
        "b0f60ba5409db7a6582440a7b473cc0398890f15/docs/specification/2025-03-26/changelog.mdx#L25"
    )
    schema = Citation.objects.get(row__row_id="PRM-01", path="schema/2025-03-26/schema.ts")
    assert schema.web_url.endswith("/schema/2025-03-26/schema.ts#L599-L612")
    assert Citation.objects.get(row__row_id="CT-19", kind="url").web_url.startswith("https://developers.cloudflare")


def test_reload_is_idempotent(loaded, shipped_dir):
    before = snapshot()
    again = load_registers([shipped_dir])
    assert (again.created, again.updated, again.removed, again.unchanged) == (0, 0, 0, 111)
    assert snapshot() == before
    forced = load_registers([shipped_dir], force=True)
    assert (forced.created, forced.updated, forced.removed) == (0, 111, 0)
    assert snapshot() == before


def test_update_in_place_and_removal(tmp_path):
    path = write(tmp_path, "test-register.md", register_text(4))
    load_registers([path])
    original = {row.row_id: row.pk for row in Row.objects.all()}

    changed = register_text(3, titles={"TT-02": "a new difference"})
    write(tmp_path, "test-register.md", changed)
    report = load_registers([path])
    assert (report.created, report.updated, report.unchanged, report.removed) == (0, 1, 2, 1)
    rows = {row.row_id: row for row in Row.objects.all()}
    assert set(rows) == {"TT-01", "TT-02", "TT-03"}
    assert rows["TT-02"].pk == original["TT-02"], "updated in place, not recreated"
    assert rows["TT-02"].difference == "a new difference"
    assert not Label.objects.filter(row_id=original["TT-04"]).exists()


def test_failing_load_changes_nothing(tmp_path, loaded, shipped_dir):
    before = snapshot()
    good = write(tmp_path, "good.md", register_text(2, prefix="GD"))
    broken = write(tmp_path, "zz-broken.md", register_text(2, prefix="BR").replace("| + high |", "| plenty |"))
    with pytest.raises(RegisterLoadError) as caught:
        load_registers([good, broken])
    assert str(broken) in str(caught.value)
    assert ":20: BR-01: expected the value cell" in str(caught.value)
    assert snapshot() == before


def test_failure_inside_the_transaction_rolls_back(tmp_path, loaded, monkeypatch):
    """A database error midway (after earlier registers were written) leaves nothing behind."""
    from registers import loadwrite

    before = snapshot()
    first = write(tmp_path, "a-first.md", register_text(2, prefix="AA"))
    second = write(tmp_path, "b-second.md", register_text(2, prefix="BB"))
    real_children = loadwrite.RunWriter._children
    calls = []

    def write_then_fail(self, to_write, citations_by_row):
        real_children(self, to_write, citations_by_row)  # every row and child is written ...
        calls.append(len(to_write))
        raise RuntimeError("disk full")  # ... and then the database fails

    monkeypatch.setattr(loadwrite.RunWriter, "_children", write_then_fail)
    with pytest.raises(RuntimeError):
        load_registers([first, second])
    assert calls == [4]
    assert snapshot() == before


def test_directory_skips_documents_that_are_not_registers(tmp_path):
    write(tmp_path, "README.md", "# Registers\n\nThe legend.\n")
    write(tmp_path, "essay.md", "# Stateless\n\n```\ncreated: 2026\n```\n\nProse only.\n")
    write(tmp_path, "real.md", register_text(2))
    report = load_registers([tmp_path])
    assert report.registers == ["real"]
    assert sorted(Path(p).name for p in report.skipped_files) == ["README.md", "essay.md"]


def test_duplicate_slug_and_missing_path(tmp_path):
    one = tmp_path / "a"
    two = tmp_path / "b"
    one.mkdir()
    two.mkdir()
    write(one, "same.md", register_text(1))
    write(two, "same.md", register_text(1))
    with pytest.raises(RegisterLoadError, match="slug 'same'"):
        load_registers([one, two])
    with pytest.raises(RegisterLoadError, match="no such file"):
        load_registers([tmp_path / "missing.md"])
    assert Register.objects.count() == 0


def test_command_prints_counts_and_fails_cleanly(tmp_path, shipped_dir):
    out = StringIO()
    call_command("load_registers", str(shipped_dir), stdout=out)
    assert "7 register(s): 111 created, 0 updated, 0 unchanged, 0 removed" in out.getvalue()
    out = StringIO()
    call_command("load_registers", stdout=out)
    assert "0 created, 0 updated, 111 unchanged, 0 removed" in out.getvalue()
    broken = write(tmp_path, "broken.md", register_text(1).replace("increment:    1", "increment:    x"))
    with pytest.raises(CommandError, match=r"nothing loaded: .*broken\.md:6: `increment:` expected a whole number"):
        call_command("load_registers", str(broken))
    assert Row.objects.count() == 111


def test_command_exit_code_from_the_shell(tmp_path, lane_database):
    import subprocess
    import sys

    broken = write(tmp_path, "broken.md", "# Title only\n")
    project = Path(__file__).resolve().parents[2]
    env = {"PATH": "/usr/bin:/bin", "DATABASE_URL": lane_database}
    result = subprocess.run(
        [sys.executable, "manage.py", "load_registers", str(broken)],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )
    assert result.returncode != 0
    assert f"{broken}:1: expected the front-matter block" in result.stderr
    assert "(reached the end of the file)" in result.stderr


def test_ambiguous_registers_fail_the_load_and_change_nothing(tmp_path, loaded):
    before = Row.objects.count()
    text = register_text(2)
    dup_line = next(line for line in text.split("\n") if line.startswith("| TT-02 "))
    path = tmp_path / "dup.md"
    path.write_text(text.replace(dup_line, dup_line + "\n" + dup_line), encoding="utf-8")
    with pytest.raises(RegisterLoadError, match=r"dup\.md:\d+: duplicate row ID TT-02 .*the first is on line \d+"):
        load_registers([path])
    assert Row.objects.count() == before


def test_missing_field_fails_by_default_and_loads_when_allowed(tmp_path, db):
    text = register_text(2)
    detail = next(line for line in text.split("\n") if line.startswith("- **Detail.**"))
    path = tmp_path / "draft.md"
    path.write_text(text.replace(detail + "\n", "", 1), encoding="utf-8")
    with pytest.raises(RegisterLoadError, match=r"draft\.md:\d+: TT-01 has no `- \*\*Detail\.\*\*` field"):
        load_registers([path])
    assert Row.objects.count() == 0
    out = StringIO()
    call_command("load_registers", str(path), "--allow-missing-fields", stdout=out)
    assert Row.objects.count() == 2
    assert "TT-01 has no `- **Detail.**` field" in Register.objects.get(slug="draft").warnings[0]["message"]


def test_a_file_that_is_not_utf8_names_its_line(tmp_path, db):
    path = tmp_path / "latin.md"
    text = register_text(1)
    data = text.encode("utf-8").replace(b"a `text` thing", "a caf\xe9 thing".encode("latin-1"), 1)
    path.write_bytes(data)
    line = text[: text.index("a `text` thing")].count("\n") + 1
    with pytest.raises(RegisterLoadError, match=rf"latin\.md:{line}: not UTF-8 text \(invalid continuation byte"):
        load_registers([path])


def test_a_row_id_in_two_registers_is_reported_and_its_link_names_both(tmp_path, db, client):
    """Issue 21 row 7: /rows/<ID>/ used to open whichever register sorted first."""
    (tmp_path / "first.md").write_text(register_text(2))
    (tmp_path / "second.md").write_text(register_text(2).replace("TT-02", "UU-02"))
    out, err = StringIO(), StringIO()
    call_command("load_registers", str(tmp_path), stdout=out, stderr=err)
    assert "row ID TT-01 is in 2 registers (first, second): /rows/TT-01/ lists them" in err.getvalue()
    assert "TT-02" not in err.getvalue()
    assert "UU-02" not in err.getvalue()
    page = client.get("/rows/TT-01/")
    assert page.status_code == 300
    text = page.content.decode()
    assert "TT-01 is in 2 registers" in text
    for slug in ("first", "second"):
        assert f'href="/registers/{slug}/TT-01/"' in text
    api = client.get("/api/v1/rows/TT-01/")
    assert api.status_code == 300
    assert [choice["register"] for choice in api.json()["choices"]] == ["first", "second"]
    assert client.get("/rows/UU-02/").status_code == 302, "an ID of one register still opens its row"
