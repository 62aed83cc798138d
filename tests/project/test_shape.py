"""The code's shape, held: thin views, small modules, and the revisions named in one place."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
APPS = ("mcp_compare", "common", "evidence", "registers", "comparison", "language")
VIEW_MODULES = (
    "registers/views.py",
    "evidence/views.py",
    "comparison/views/playground.py",
    "comparison/views/probes.py",
)
SKIPPED_PARTS = {"migrations", "node_modules", "mutants", "__pycache__"}
#: Scripts other programs start by path, with no project on their import path: a default revision
#: they answer with is theirs to write.
STANDALONE_SCRIPTS = {"comparison/hostlab/stdio_result_server.py", "comparison/hostlab/protocol_server.py"}
REVISION_DATE = re.compile(r"""["']20\d\d-\d\d-\d\d["']""")


def app_modules() -> list[Path]:
    return sorted(
        path
        for app in APPS
        for path in (PROJECT / app).rglob("*.py")
        if not SKIPPED_PARTS & set(path.relative_to(PROJECT).parts)
    )


@pytest.mark.parametrize("module", VIEW_MODULES)
def test_every_view_is_parse_call_render_in_at_most_25_lines(module):
    tree = ast.parse((PROJECT / module).read_text(encoding="utf-8"))
    long = {
        node.name: node.end_lineno - min([node.lineno, *(d.lineno for d in node.decorator_list)]) + 1
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
    }
    assert {name: lines for name, lines in long.items() if lines > 25} == {}


def test_no_app_module_is_over_400_lines():
    sizes = {
        str(path.relative_to(PROJECT)): len(path.read_text(encoding="utf-8").splitlines()) for path in app_modules()
    }
    assert len(sizes) > 50, "the modules were found"
    assert {name: size for name, size in sizes.items() if size > 400} == {}


def test_revision_dates_are_written_only_in_the_vocabulary():
    """Code names a revision through `language.vocabulary.Revision`; a date typed out elsewhere is
    a second list that goes stale when a revision is added."""
    typed_out = {}
    for path in app_modules():
        name = str(path.relative_to(PROJECT))
        if name == "language/vocabulary.py" or name in STANDALONE_SCRIPTS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
                and REVISION_DATE.fullmatch(repr(node.value))
            ):
                typed_out.setdefault(name, []).append(node.lineno)
    for template in (PROJECT / "templates").rglob("*.html"):
        text = template.read_text(encoding="utf-8")
        if re.search(r"20(24-11-05|25-03-26|25-06-18|25-11-25|26-07-28)", text):
            typed_out[str(template.relative_to(PROJECT))] = ["template"]
    assert typed_out == {}


def test_every_package_is_on_a_floor_of_the_layout_the_readme_and_the_contract():
    """A package added at the top is on no floor until the README's layout, the manual's picture
    and the layers contract place it; APPS here is what the shape tests read."""
    import tomllib

    packages = {path.parent.name for path in PROJECT.glob("*/__init__.py")} - {"tests", "bench"}
    readme = (PROJECT / "README.md").read_text(encoding="utf-8").split("## Layout", 1)[1].split("\n## ", 1)[0]
    layout = (PROJECT / "docs" / "layout.md").read_text(encoding="utf-8")
    linter = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    layers = next(c["layers"] for c in linter["contracts"] if c["type"] == "layers")
    on_floors = {name.strip() for layer in layers for name in layer.split("|")}
    assert {name for name in packages if f"\n{name}/" not in readme} == set()
    assert {name for name in packages if f"\n{name}/" not in layout} == set()
    assert packages == on_floors == set(linter["root_packages"]) == set(APPS)
