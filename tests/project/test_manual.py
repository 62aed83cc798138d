"""The manual (docs/, built strictly by scripts/docs.sh in the test command) says what the code
does: its register template loads and lints clean, every management command is in the command
line page, and the README's figures are the shipped registers'."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from registers.core.format import parse_register
from registers.core.lint import lint_text
from tests.conftest import SHIPPED

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def test_the_register_template_parses_and_the_lint_finds_nothing():
    page = (DOCS / "writing-registers.md").read_text(encoding="utf-8")
    template = page.split("````markdown\n", 1)[1].split("````", 1)[0]
    doc = parse_register(template, "my-topic.md")
    assert doc.warnings == []
    assert doc.subject == "myproxy"
    assert [row.row_id for row in doc.rows] == ["MT-01"]
    assert lint_text(template, "my-topic.md") == []


def test_every_management_command_is_in_the_command_line_page():
    page = (DOCS / "cli.md").read_text(encoding="utf-8")
    commands = sorted(
        path.stem
        for app in ("registers", "comparison", "evidence")
        for path in (ROOT / app / "management" / "commands").glob("*.py")
        if path.stem != "__init__"
    )
    assert commands, "the apps have commands"
    assert [name for name in commands if f"`{name}" not in page] == []


def test_every_page_of_the_manual_is_in_its_navigation():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = sorted(path.name for path in DOCS.glob("*.md"))
    assert [page for page in pages if page not in nav] == []


def test_the_readme_has_two_commands_and_the_shipped_figures():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^    (\S.*)$", readme, re.M)
    assert commands == ["scripts/start.sh", "scripts/test.sh"]
    registers = [
        parse_register(p.read_text(encoding="utf-8"), p.name)
        for p in sorted(SHIPPED.glob("*.md"))
        if p.name != "README.md"
    ]
    rows = sum(len(doc.rows) for doc in registers)
    assert f"({len(registers)} registers, {rows} rows)" in readme
    assert not re.search(r"\b(554|511)\b", readme)
    for link in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / link).is_file(), link


@pytest.mark.django_db
def test_the_manual_loads_no_font_from_a_cdn(tmp_path):
    """Issue 52, a newcomer's item 2."""
    import subprocess

    from tests.conftest import PROJECT

    site = tmp_path / "site"
    subprocess.run(
        [str(PROJECT / ".venv" / "bin" / "mkdocs"), "build", "--clean", "--site-dir", str(site)],
        cwd=PROJECT, check=True, timeout=300, capture_output=True, env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"},
    )  # fmt: skip
    pages = list(site.rglob("*.html"))
    assert pages
    assert [page.name for page in pages if "fonts.googleapis.com" in page.read_text(encoding="utf-8")] == []
