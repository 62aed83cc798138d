"""What a first-time user stumbled on (issue 26), row by row, as the pages, exports and commands
show it now. Rows 2 and 14 are in tests/e2e/test_browser_pages.py, row 1 and the folded filters of row 13
in tests/e2e/test_browser.py."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from comparison.services.probing import ensure_builtin_target
from comparison.tasks import start_run
from language import linking
from tests.support.relay_targets import relay_target


@pytest.mark.django_db
def test_row_7_an_absent_field_says_absent_and_each_host_says_whether_it_was_affected(client):
    decorated = start_run(target=relay_target("decorate-lists"), revisions=["2025-06-18"], scenarios=["tools-list"])
    assert decorated.status == "done", decorated.error
    added = decorated.results.get(scenario="tools-list")
    html = client.get(added.get_absolute_url()).content.decode()
    diff_row = html[html.index("<code>result.tools[name=text].title</code>") :].split("</tr>")[0]
    assert "<td>added</td>" in diff_row
    assert '<span class="muted">absent</span>' in diff_row, 'the upstream sent no title: absent, never ""'

    run = start_run(target=relay_target("is-error"), revisions=["2025-06-18"], scenarios=["text", "is-error"])
    assert run.status == "done", run.error
    # `isError: false` where the upstream sent none is the schema's default: the same answer.
    assert run.results.get(scenario="text").verdict == "as expected"
    lost = run.results.get(scenario="is-error")
    html = client.get(lost.get_absolute_url()).content.decode()
    assert affected_hosts(html) == {host for host, same in lost.interop.items() if not same}
    assert set(host_lines(html)) == set(lost.interop) - {"mcpx"}, "one line per scored host: the subject is none"
    affected = affected_hosts(html)
    assert {"opencode-v2", "claude-code", "gemini-cli"} <= affected, "a tool error turned success reaches the model"
    # The lab measured Codex CLI and opencode dropping the flag: their models never saw it.
    assert not {"codex", "opencode-v1"} & affected


def host_lines(html: str) -> dict[str, str]:
    block = html[html.index('class="host-lines"') :].split("</ul>")[0]
    return {line.split('"')[1]: line for line in block.split("<li data-host=")[1:]}


def affected_hosts(html: str) -> set[str]:
    lines = host_lines(html)
    for line in lines.values():
        assert ("affected</strong>, gets something other" in line) != ("not affected</span>, gets what" in line)
    return {host for host, line in lines.items() if "affected</strong>" in line}


@pytest.mark.django_db
def test_row_10_a_row_nothing_loaded_is_text_with_a_note_not_a_dead_link(client, loaded):
    page = client.get("/registers/prompts/").content.decode()
    assert 'href="/rows/ERR-04/"' not in page
    assert 'ERR-04 <span class="muted">(not loaded)</span>' in page
    row = client.get("/registers/content-types/CT-12/").content.decode()
    assert 'href="/rows/LV-36/"' not in row
    assert 'LV-36 <span class="muted">(not loaded)</span>' in row
    assert '<a href="/rows/CT-06/" class="row-ref">CT-06</a>' in row, "a loaded row stays a link"
    for linked in re.findall(r'href="(/rows/[A-Z]+-\d+/)"', page + row):
        assert client.get(linked).status_code in (200, 302), linked


def test_row_10_settling_links_is_pure_and_leaves_other_markup_alone():
    html = (
        '<p><a href="/rows/CT-01/" class="row-ref">CT-01</a> and <a href="/rows/ZZ-99/" class="row-ref">ZZ-99</a></p>'
    )
    assert linking.settle_row_links(html, {"CT-01"}) == (
        '<p><a href="/rows/CT-01/" class="row-ref">CT-01</a> and <span class="row-ref-missing" '
        'title="ZZ-99 is in a register this dashboard has not loaded">ZZ-99 <span class="muted">(not loaded)</span>'
        "</span></p>"
    )
    assert linking.settle_row_links(html, {"CT-01", "ZZ-99"}) == html


@pytest.mark.django_db
def test_row_8_the_html_exports_link_to_the_dashboard_and_to_each_citations_permalink(client, loaded, settings):
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


@pytest.mark.django_db
def test_row_13_the_first_screen_says_whose_status_explains_its_columns_and_folds_rare_filters(client, loaded):
    html = client.get("/").content.decode()
    assert '<th scope="col">Status in mcpx</th>' in html
    legend = html[html.index('class="columns-legend"') : html.index("</dl>", html.index('class="columns-legend"'))]
    for term in ("Status in mcpx", "Value", "+ what mcpx gains", "Effort", "S hours", "Risk", "Revisions"):
        assert term in legend, term
    bar = html[html.index('class="filter-bar"') : html.index("</fieldset>")]
    common, folded = bar.split('<details class="more-filters"')
    assert re.findall(r'<select id="f-(\w+)"', common) == [
        "register",
        "revision",
        "rev_mode",
        "vs_revision",
        "host",
        "host_mode",
        "vs_host",
        "evidence",
    ]
    assert "f-status" in folded
    assert "f-changed_since" not in html, "no reload changed a row yet: no select that offers only 'any time'"
    assert 'class="more-filters" open' in client.get("/?risk=high").content.decode()


def contradicting_register(tmp_path) -> Path:
    from tests.registers.test_unseen_registers import with_row

    path = tmp_path / "contradicts.md"
    path.write_text(with_row("`2024-11-05 has` | `24-11 —` · `25-03 ✓`"), encoding="utf-8")
    return path


@pytest.mark.django_db
def test_row_3_a_load_names_each_lint_error_and_strict_refuses_it(tmp_path):
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
def test_row_3_the_register_page_leads_with_its_findings_and_the_row_page_does_not_contradict_itself(tmp_path, client):
    from registers.loader import load_registers

    load_registers([contradicting_register(tmp_path)])
    page = client.get("/registers/contradicts/").content.decode()
    assert page.index('id="lint-h"') < page.index('id="citations-h"') < page.index('id="rows-h"')
    assert "<strong>1 error</strong>" in page
    row = client.get("/registers/contradicts/TT-01/").content.decode()
    assert row.index('id="row-lint-h"') < row.index('id="revisions-h"'), "the contradiction comes first"
    assert "· introduced in 2024-11-05" not in row, "never stated beside a strip that says absent"
    assert "its labels say introduced in 2024-11-05, which the Where cell, and the strip above, do not" in row


@pytest.mark.django_db
def test_row_6_the_comparison_leads_with_its_summary_and_lists_only_what_differs(client):
    from comparison.selectors.compare import SCENARIO_TITLES

    built_in = ensure_builtin_target()
    scenarios = ["is-error", "rpc-error"]
    direct = start_run(target=built_in, revisions=["2025-06-18"], scenarios=scenarios)
    relayed = start_run(target=relay_target("is-error"), revisions=["2025-06-18"], scenarios=scenarios)
    url = f"/probes/compare/?run={direct.pk}&run={relayed.pk}"
    html = client.get(url).content.decode()
    assert html.index('id="summary-h"') < html.index('id="charts-h"') < html.index('id="cells-h"')
    cells = html[html.index('id="compare-cells"') :]
    title = SCENARIO_TITLES["is-error"]
    assert f"<td>{title} <code>is-error</code></td>" in cells, "named as the run page names it"
    assert "<code>rpc-error</code>" not in cells, "both runs agree on it: not listed by default"
    assert "1 of 2 scenario × revision cells: the cells that differ" in html
    assert 'href="?run=' in html
    assert "Show every cell" in html
    assert "a bar on the left: the runs' verdicts differ on this line" in html
    every = client.get(url + "&only=all").content.decode()
    assert "<code>rpc-error</code>" in every[every.index('id="compare-cells"') :]
    assert "Show every cell" not in every
    for run in (direct, relayed):
        assert f'<input type="checkbox" name="run" value="{run.pk}" checked>' in html, (
            "runs are ticked, not Ctrl-clicked"
        )
    assert 'multiple size="6"' not in html


@pytest.mark.django_db
def test_row_15_errors_say_what_was_not_found_in_the_callers_language(client, loaded):
    missing = client.get("/api/v1/rows/NOPE-99/")
    assert missing.status_code == 404
    assert missing["Content-Type"] == "application/json"
    assert missing.json()["status"] == 404
    assert missing.json()["error"]
    unknown_path = client.get("/api/v1/no-such-endpoint/").json()
    assert unknown_path == {"error": "Not found: /api/v1/no-such-endpoint/", "status": 404}
    assert client.get("/rows/NOPE-99/")["Content-Type"].startswith("text/html"), "pages stay pages"

    for url in ("/?page=99", "/matrix/?page=99", "/api/v1/rows/?page=99", "/api/v1/runs/?page=99", "/?page=x"):
        assert client.get(url).status_code == 404, url
    assert "No page 99: there are 2." in client.get("/?page=99").content.decode()
    assert client.get("/?page=1").status_code == 200

    run = start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text"])
    for url in (f"/probes/compare/?run={run.pk}&run=99999", f"/api/v1/compare/?run={run.pk}&run=99999"):
        answer = client.get(url)
        assert answer.status_code == 404, url
        assert "No probe run #99999." in answer.content.decode()
    assert client.get(f"/api/v1/compare/?run={run.pk}&run=abc").status_code == 404


@pytest.mark.django_db
def test_row_15_a_run_and_its_results_use_one_naming(client):
    run = start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text"])
    listed = client.get(f"/api/v1/runs/{run.pk}/").json()["results"][0]
    detail = client.get(listed["url"]).json()
    shared = {"scenario", "family", "requested_revision", "negotiated_revision", "verdict"}
    assert shared <= set(listed)
    assert {key: listed[key] for key in shared} == {key: detail[key] for key in shared}
    assert not {"revision", "negotiated"} & set(listed)


@pytest.mark.django_db
def test_row_15_the_schedule_form_ticks_revisions_and_scenarios(admin_client):
    target = ensure_builtin_target()
    form = admin_client.get("/admin/comparison/probeschedule/add/").content.decode()
    assert 'type="checkbox" name="revisions" value="2025-06-18"' in form
    assert 'type="checkbox" name="scenarios" value="text"' in form
    answer = admin_client.post(
        "/admin/comparison/probeschedule/add/",
        {"target": target.pk, "every_seconds": 3600, "revisions": ["2025-06-18", "2025-11-25"], "scenarios": ["text"]},
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert (target.schedule.revisions, target.schedule.scenarios) == (["2025-06-18", "2025-11-25"], ["text"])


def test_row_15_cli_columns_stay_aligned_whatever_the_names():
    from comparison.core.pipeline import aligned

    lines = aligned(
        [["a→b", "text", "as expected", "x"], ["a→b", "fail-argument-value-envelope", "lost by proxy", "y"]]
    )
    assert lines[0].index("as expected") == lines[1].index("lost by proxy")
    assert lines[0].endswith(" x")
    assert lines[1].index(" y") == lines[0].index(" x")


@pytest.mark.django_db
def test_row_15_a_favicon(client):
    found = client.get("/favicon.ico")
    assert found.status_code == 302
    # Hashed once `scripts/start.sh` has collected the static files (the manifest storage), plain before.
    assert re.search(r"/img/favicon(\.[0-9a-f]{12})?\.svg$", found["Location"]), found["Location"]
    assert 'rel="icon"' in client.get("/").content.decode()


@pytest.mark.django_db
def test_the_favicon_holds_after_start_has_collected_the_static_files(client, settings, tmp_path):
    """Following the README (start, then test) switches the storage to hashed names; the favicon
    redirect then names the hashed file that collectstatic wrote."""
    from django.core.management import call_command

    settings.STATIC_ROOT = str(tmp_path)
    settings.STORAGES = dict(
        settings.STORAGES, staticfiles={"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}
    )
    call_command("collectstatic", "--noinput", verbosity=0)
    found = client.get("/favicon.ico")
    assert found.status_code == 302
    name = re.search(r"/img/(favicon\.[0-9a-f]{12}\.svg)$", found["Location"])
    assert name, found["Location"]
    assert (tmp_path / "img" / name.group(1)).is_file()


def test_row_15_the_fixture_server_says_where_it_listens(tmp_path):
    from comparison.probes.processes.launch import free_port

    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "fixture_server", "--port", str(port)],
        cwd=Path(__file__).resolve().parents[2],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        first = process.stderr.readline()
        assert first.strip() == f"fixture MCP server: http://127.0.0.1:{port}/mcp (Ctrl-C stops it)"
    finally:
        process.terminate()
        process.wait(timeout=10)
