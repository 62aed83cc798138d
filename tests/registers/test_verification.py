"""Citation verification end to end: git repositories built here, the command, the pages."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import CommandError, call_command
from django.test import Client

from registers.loader import load_registers
from registers.models import Citation, Row, SourceRoot
from tests.conftest import PROJECT, SHIPPED, TEST_DATA
from tests.support import gitrepo
from tests.support.register_text import register_text

pytestmark = pytest.mark.django_db

SERVER_V1 = "package app\n\nfunc call() string {\n\treturn renderResult(res)\n}\n"
SERVER_V2 = "package app\n\n// moved down\n// by two lines\nfunc call() string {\n\treturn renderResult(res)\n}\n"
SERVER_V3 = "package app\n\nfunc call() string {\n\treturn flatten(res)\n}\n"
SOURCES = (
    '- **Sources.** `internal/app/server.go:4` "return renderResult(res)"; `internal/app/missing.go:1` "x"; '
    '`internal/app/server.go:1-2`; `v1:packages/opencode/src/x.ts:1` "y"; <https://example.test/doc> "z"; wire W1'
)


@pytest.fixture
def subject_repo(tmp_path, settings):
    settings.SOURCE_CACHE_DIR = str(tmp_path / "cache")
    repo = gitrepo.init(tmp_path / "mcpx")
    commits = {
        "exact": gitrepo.commit(repo, {"internal/app/server.go": SERVER_V1}, "first"),
        "moved": gitrepo.commit(repo, {"internal/app/server.go": SERVER_V2}, "two lines above"),
        "gone": gitrepo.commit(repo, {"internal/app/server.go": SERVER_V3}, "quote gone"),
    }
    SourceRoot.objects.create(
        key="subject",
        name="mcpx",
        prefixes=["internal/"],
        repository=str(repo),
        commit=commits["exact"],
        web_url="https://git.example.test/mcpx/blob/{commit}/{path}{anchor}",
    )
    path = tmp_path / "cited.md"
    text = register_text(1)
    sources_line = next(line for line in text.splitlines() if line.startswith("- **Sources.**"))
    continuation = text.split(sources_line, 1)[1].split("\n", 2)[1]
    path.write_text(text.replace(sources_line + "\n" + continuation, SOURCES), encoding="utf-8")
    load_registers([path])
    return repo, commits


def run(*args: str) -> tuple[str, int]:
    out = StringIO()
    try:
        call_command("verify_citations", *args, stdout=out)
    except CommandError as error:
        return out.getvalue(), error.returncode
    return out.getvalue(), 0


def verdicts() -> dict[str, str]:
    return {c.locator: c.verdict for c in Citation.objects.filter(field="sources").exclude(kind__in=["url", "wire"])}


def test_every_verdict_at_the_pinned_commit(subject_repo):
    _, commits = subject_repo
    output, code = run()
    assert code == 1  # the missing file fails the run
    assert verdicts() == {
        "internal/app/server.go:4": "exact",
        "internal/app/missing.go:1": "file missing",
        "internal/app/server.go:1-2": "no quote",
        "v1:packages/opencode/src/x.ts:1": "no source",
    }
    cited = Citation.objects.get(path="internal/app/server.go", line_start=4, field="sources")
    assert cited.verified_commit == commits["exact"]
    assert cited.verified_at is not None
    assert cited.web_url == "https://git.example.test/mcpx/blob/" + commits["exact"] + "/internal/app/server.go#L4"
    assert "renderResult" in cited.excerpt_html
    assert 'class="hll"' in cited.excerpt_html
    # The row's status field also cites internal/cli/commands.go twice, absent from this repository.
    assert "6 citations in" in output
    assert "1 exact, 0 moved, 0 drifted, 3 file missing, 1 no quote, 1 no source" in output


def test_recheck_against_other_commits(subject_repo):
    _, commits = subject_repo
    output, code = run("--commit", commits["moved"], "--row", "TT-01")
    assert "internal/app/server.go:4" in output
    assert "moved        now at line 6" in output
    assert code == 1
    assert Citation.objects.filter(verdict="").count() > 0, "a re-check against another commit saves nothing"

    output, code = run("--commit", commits["gone"], "--json")
    payload = json.loads(output)
    by_locator = {item["citation"]: item for item in payload["citations"]}
    assert by_locator["internal/app/server.go:4"]["verdict"] == "drifted"
    assert payload["counts"]["drifted"] == 1
    assert code == 1

    output, _ = run("--commit", commits["moved"], "--json")
    moved = {item["citation"]: item for item in json.loads(output)["citations"]}["internal/app/server.go:4"]
    assert (moved["verdict"], moved["found_line"], moved["commit"]) == ("moved", 6, commits["moved"])


def test_source_override_and_exit_code_zero(subject_repo, tmp_path):
    repo, commits = subject_repo
    clone = tmp_path / "elsewhere.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(clone)], check=True, timeout=60)
    SourceRoot.objects.filter(key="subject").update(repository=str(tmp_path / "nowhere"))
    output, code = run("--source", f"internal/={clone}@{commits['exact']}", "--row", "TT-01", "--json")
    result = {item["citation"]: item["verdict"] for item in json.loads(output)["citations"]}
    assert result["internal/app/server.go:4"] == "exact"
    Row.objects.get(row_id="TT-01").citations.filter(
        path__in=["internal/app/missing.go", "internal/cli/commands.go"]
    ).delete()
    _, code = run("--source", f"subject={clone}@{commits['exact']}")
    assert code == 0
    with pytest.raises(CommandError, match="no source root"):
        call_command("verify_citations", "--source", f"nope/={clone}")
    with pytest.raises(CommandError, match="PREFIX=GITDIR"):
        call_command("verify_citations", "--source", "nonsense")


def test_real_exit_code_from_the_shell(subject_repo, tmp_path, lane_database):
    """The command's exit status, as a register's own CI sees it."""
    repo, commits = subject_repo
    project = Path(__file__).resolve().parents[2]
    env = {"PATH": "/usr/bin:/bin", "DATABASE_URL": lane_database}
    register = tmp_path / "cited.md"
    subprocess.run(
        [sys.executable, "manage.py", "load_registers", str(register)], cwd=project, env=env, timeout=120, check=True
    )
    base = [sys.executable, "manage.py", "verify_citations", "--row", "TT-01"]
    drifted = subprocess.run(
        [*base, "--source", f"subject={repo}@{commits['gone']}"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert drifted.returncode == 1
    assert "drifted" in drifted.stdout


def test_reload_keeps_verdicts_of_unchanged_citations(subject_repo, tmp_path):
    run()
    path = tmp_path / "cited.md"
    load_registers([path], force=True)
    assert verdicts()["internal/app/server.go:4"] == "exact"


def test_sync_sources_command(subject_repo, tmp_path):
    repo, _ = subject_repo
    SourceRoot.objects.create(key="remote-copy", name="copy", prefixes=["zz/"], repository=f"file://{repo}")
    out = StringIO()
    with pytest.raises(CommandError, match="could not reach"):
        # The default roots point at public repositories this machine cannot reach.
        call_command("sync_sources", "remote-copy", "subject", "lootbox", stdout=out)
    text = out.getvalue()
    assert "remote-copy    cloned" in text
    assert "subject        local" in text
    assert "lootbox        failed" in text
    call_command("sync_sources", "remote-copy", stdout=StringIO())
    assert (Path(tmp_path / "cache" / "remote-copy.git")).is_dir()


def test_row_page_shows_verdicts_and_cited_lines(subject_repo, client):
    _, commits = subject_repo
    run("--commit", commits["moved"])  # not saved
    run()
    html = client.get("/registers/cited/TT-01/").content.decode()
    assert 'class="verdict verdict-exact">exact<' in html
    assert 'class="verdict verdict-file-missing">file missing<' in html
    assert "Cited lines in <code>internal/app/server.go</code>" in html
    assert 'class="hll"' in html


def test_citation_filter_and_register_counts(subject_repo, client):
    assert "TT-01" in client.get("/?cite=unverified").content.decode()
    run()
    assert 'id="row-TT-01"' in client.get("/?cite=drifted").content.decode()
    assert 'id="row-TT-01"' not in client.get("/?cite=moved").content.decode()
    page = client.get("/registers/cited/").content.decode()
    assert "exact 1" in page
    assert "file missing 3" in page


def test_verify_button_needs_permission_and_csrf(subject_repo):
    url = "/registers/cited/verify/"
    anonymous = Client(enforce_csrf_checks=False)
    assert anonymous.post(url).status_code == 403
    user = User.objects.create_user("reader", password="pw-reader-1")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.post(url).status_code == 403
    user.user_permissions.add(Permission.objects.get(codename="verify_citations"))
    client = Client(enforce_csrf_checks=True)
    client.force_login(User.objects.get(pk=user.pk))
    assert client.post(url).status_code == 403, "no CSRF token"
    page = client.get("/registers/cited/")
    assert b"Verify citations now" in page.content
    token = page.cookies["csrftoken"].value
    response = client.post(url, {"csrfmiddlewaretoken": token}, follow=True)
    assert response.status_code == 200
    assert b"Checked 6 citations" in response.content
    assert verdicts()["internal/app/server.go:4"] == "exact"
    assert client.get(url).status_code == 405


def test_shipped_spec_citations_hold_against_the_spec_test_data(db, tmp_path):
    """Every spec citation of the shipped registers, against the spec files shipped as test data
    and the schema sources and pages the anchors read (comparison/data/spec, the same commit)."""
    repo, folder = tmp_path / "spec", tmp_path / "spec-files"
    shutil.copytree(TEST_DATA / "mcp-spec", folder)
    shutil.copytree(PROJECT / "comparison" / "data" / "spec", folder, dirs_exist_ok=True)
    gitrepo.from_folder(folder, repo, "spec at b0f60ba")
    load_registers([SHIPPED])
    out, code = run("--source", f"spec={repo}@HEAD", "--json")
    payload = json.loads(out)
    spec = [item for item in payload["citations"] if item["source"] == "spec"]
    counts = {}
    for item in spec:
        counts[item["verdict"]] = counts.get(item["verdict"], 0) + 1
    assert counts == {"exact": 170, "no quote": 27, "moved": 2}
    # TOOL-14, copied unchanged, cites tools.mdx:314 and :315 one line above its quotes: a real
    # drift in the register, reported as moved (the quote still says what the row claims).
    moved = sorted((i["row"], i["line_start"]) for i in spec if i["verdict"] == "moved")
    assert moved == [("TOOL-14", 314), ("TOOL-14", 315)]
    assert code == 0, "nothing drifted beyond a moved line"


def test_the_citation_filter_follows_verification(subject_repo, client):
    def listed(state: str) -> list[str]:
        return re.findall(r'<tr id="row-([A-Z]+-\d+)">', client.get(f"/?cite={state}").content.decode())

    assert (listed("unverified"), listed("drifted")) == (["TT-01"], [])
    run()
    assert listed("drifted") == ["TT-01"], "a missing file counts as drifted"
    assert listed("unverified") == ["TT-01"], "the opencode citation has no source here"
    assert listed("moved") == []
    run("--commit", "HEAD")
    assert listed("moved") == [], "a re-check against another commit saves nothing"


def test_only_drifted_or_missing_files_fail_the_command(subject_repo):
    _, commits = subject_repo
    Row.objects.get(row_id="TT-01").citations.filter(
        path__in=["internal/app/missing.go", "internal/cli/commands.go"]
    ).delete()
    output, code = run("--commit", commits["moved"], "--row", "TT-01")
    assert "moved        now at line 6" in output
    assert code == 0, "a moved quote is reported, not a failure"
    _, code = run("--commit", commits["gone"], "--row", "TT-01")
    assert code == 1, "a drifted quote fails"


def test_excerpts_keep_line_numbers_when_a_file_starts_with_blank_lines():
    from registers.core import excerpts

    kept = excerpts.cut(["", "", "def f():", "    return 1", ""], 4, 4)
    assert kept == {"first": 1, "focus": [4, 4], "lines": ["", "", "def f():", "    return 1", ""]}
    html = excerpts.render("x.py", kept)
    assert '<span class="hll"><span class="linenos">4</span>' in html
    assert "return" in html.split('class="hll"')[1]
    assert '<span class="linenos">1</span>\n' in html, "a leading blank line keeps its number"


def test_excerpts_are_cut_around_the_cited_or_found_lines_and_bounded():
    from registers.core import excerpts

    lines = [f"line {n}" for n in range(1, 201)]
    assert excerpts.cut(lines, 50, 52) == {"first": 47, "focus": [50, 52], "lines": lines[46:55]}
    moved = excerpts.cut(lines, 50, 52, found=120)
    assert (moved["first"], moved["focus"]) == (117, [120, 122]), "a moved quote is shown where it is now"
    assert excerpts.cut(lines, 199, None)["lines"] == lines[195:200], "context stops at the end of the file"
    assert excerpts.cut(lines, 2, None)["first"] == 1
    long = excerpts.cut(lines, 10, 190)
    assert long["focus"] == [10, 10 + excerpts.MAX_EXCERPT_LINES]
    assert excerpts.cut(lines, 201, None) == {}
    assert excerpts.cut(lines, None, None) == {}
    assert len(excerpts.cut(["x" * 10_000], 1, None)["lines"][0]) == excerpts.MAX_LINE_CHARS


def test_a_stored_excerpt_renders_escaped_and_a_malformed_one_renders_nothing():
    from registers.core import excerpts

    html = excerpts.render("notes.unknown-type", {"first": 3, "focus": [3, 3], "lines": ["<script>x</script>"]})
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert '<span class="linenos">3</span>' in html
    for broken in (
        {},
        {"first": "x", "focus": [1, 1], "lines": ["a"]},
        {"first": 1, "focus": 3, "lines": ["a"]},
        {"first": 1, "focus": [1, 1], "lines": [1, 2]},
        {"first": 1, "focus": [1, 1], "lines": []},
    ):
        assert excerpts.render("x.py", broken) == ""


def test_a_fresh_install_verifies_every_spec_citation_offline_and_keeps_the_verdicts(db, settings, tmp_path):
    """Issue 37, stumble 3: with nothing synced, citations stayed "never verified". The spec's
    cited files ship at the pinned commit (comparison/data/spec), so the verdicts are there."""
    settings.SOURCE_CACHE_DIR = str(tmp_path / "empty-cache")
    load_registers([SHIPPED])
    run()
    spec = Citation.objects.filter(source_key="spec")
    counts = {}
    for verdict in spec.values_list("verdict", flat=True):
        counts[verdict] = counts.get(verdict, 0) + 1
    assert counts == {"exact": 170, "no quote": 27, "moved": 2}
    assert {c.verified_commit for c in spec} == {"b0f60ba5409db7a6582440a7b473cc0398890f15"}
    others = Citation.objects.exclude(source_key="spec").exclude(kind__in=["url", "wire"]).exclude(path="")
    assert set(others.values_list("verdict", flat=True)) == {"no source"}, "nothing else is shipped"
    page = Client().get("/registers/prompts/PRM-01/").content.decode()
    assert "never verified" not in page
    assert '<span class="verdict verdict-exact">exact</span>' in page


def test_the_shipped_copy_answers_only_for_its_commit_and_its_files(tmp_path):
    from registers.core.sources import ShippedSource, SourceError

    folder = tmp_path / "spec"
    (folder / "schema" / "x").mkdir(parents=True)
    (folder / "schema" / "x" / "schema.ts").write_text("line one\n", encoding="utf-8")
    shipped = ShippedSource(folder, "b0f60ba5409db7a6582440a7b473cc0398890f15")
    assert shipped.read("b0f60ba", "schema/x/schema.ts") == "line one\n"
    with pytest.raises(SourceError, match="shipped copy holds b0f60ba5409d only"):
        shipped.read("deadbeef", "schema/x/schema.ts")
    with pytest.raises(SourceError, match="not among the files shipped"):
        shipped.read("", "seps/1.md")
    with pytest.raises(SourceError, match="unsafe path"):
        shipped.read("", "../etc/passwd")


def test_verify_citations_with_a_source_at_the_pinned_commit_keeps_what_it_verifies(subject_repo, tmp_path):
    repo, _ = subject_repo
    clone = tmp_path / "elsewhere.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(clone)], check=True, timeout=60)
    SourceRoot.objects.filter(key="subject").update(repository=str(tmp_path / "nowhere"))
    run("--source", f"subject={clone}", "--row", "TT-01")
    saved = Row.objects.get(row_id="TT-01").citations.get(path="internal/app/server.go", line_start=4)
    assert saved.verdict in ("exact", "moved", "drifted")
    assert saved.verified_commit
