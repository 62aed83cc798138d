"""What a newcomer tripped on, round three (issue 52): each stumble as a test that failed before."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.test import Client

from comparison.tasks import start_run
from tests.support.relay_targets import relay_target

pytestmark = pytest.mark.django_db


def test_3_the_run_page_names_the_cells_where_a_modelled_host_differs():
    run = start_run(target=relay_target("is-error"), revisions=["2025-06-18"], scenarios=["is-error", "text"])
    assert run.status == "done", run.error
    differing = run.results.get(scenario="is-error")
    assert False in differing.interop.values(), "the relay turns the error flag: some host sees another result"
    page = Client().get(run.get_absolute_url()).content.decode()
    table = page.split('id="host-interop-table"', 1)[1].split("</table>", 1)[0]
    assert f'<a href="/probes/results/{differing.pk}/"><code>is-error</code> @ 2025-06-18</a>' in table
    same = [host for host, kept in differing.interop.items() if kept]
    assert table.count("<code>is-error</code> @ 2025-06-18") == len(differing.interop) - len(same)


def test_7_a_row_id_typed_in_lower_case_finds_its_row(loaded):
    client = Client()
    assert client.get("/rows/ct-05/")["Location"] == "/registers/content-types/CT-05/"
    assert client.get("/registers/content-types/ct-05/")["Location"] == "/registers/content-types/CT-05/"
    assert client.get("/rows/zz-99/").status_code == 404


def test_8_a_queued_sweep_answers_in_json_when_asked(settings, capsys):
    from comparison.models.lab import HostReleases

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}  # queued, not run at once
    HostReleases.objects.create(host="opencode", package="opencode-ai", versions=["1.0.1", "1.0.2", "1.0.3"])
    call_command("host_lab", "--host", "opencode", "--versions", "latest:2", "--enqueue", "--json")
    printed = json.loads(capsys.readouterr().out)
    assert printed["versions"] == ["1.0.2", "1.0.3"]
    assert printed["queued"] is True


def test_2_the_manual_loads_no_font_from_a_cdn(tmp_path):
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


def test_4_a_result_page_puts_what_the_proxy_did_first_and_counts_every_difference():
    run = start_run(target=relay_target("decorate-lists"), revisions=["2025-06-18"], scenarios=["tools-list"])
    assert run.status == "done", run.error
    result = run.results.get()
    tools = len(result.exchanges[-1]["response"]["result"]["tools"])
    assert len(result.diff) == 2 * tools > 40, "each tool gets _meta and a title: every change is kept"
    page = Client().get(result.get_absolute_url()).content.decode()
    did, hosts, table = (page.index(f'id="{h}"') for h in ("kinds-h", "hosts-h", "diff-h"))
    assert did < table, "what the proxy did comes before the field-by-field table"
    assert hosts < table, "and what each host would see too"
    assert f"{len(result.diff)} differences from the fixture probed directly, of 2 kinds" in page
    assert f"<code>result.tools[…]._meta</code> added <strong>× {tools}</strong>" in page
    assert f"<summary>and {len(result.diff) - 40} more</summary>" in page
    assert page.count("<tr><td><code>result.tools[name=") == len(result.diff)
    from language.vocabulary import SCORED_HOSTS

    affected = [host for host, kept in result.interop.items() if not kept and host in SCORED_HOSTS]
    assert affected, "the decorations reach some host"
    for host in affected:
        assert f'<li data-host="{host}">' in page
    api = Client().get(f"/api/v1/results/{result.pk}/").json()
    assert len(api["diff"]) == len(result.diff)


def test_6_a_glossary_explains_the_words_and_pages_link_their_first_use(loaded):
    from comparison.services.probing import ensure_builtin_target
    from registers.core.glossary import TERMS

    client = Client()
    glossary = client.get("/glossary/").content.decode()
    for term in TERMS:
        assert f'<dt id="{term.key}">' in glossary
    for word in ("DPCTER", "Anchor", "Not compared", "Model (hand model)", "Captures"):
        assert f">{word}</dt>" in glossary
    run = start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text", "rpc-error"])
    pages = {
        run.get_absolute_url(): ("not-compared", "dpcter", "model", "captures"),
        f"/probes/runs/{run.pk}/audit/": ("dpcter",),
        run.results.first().get_absolute_url(): ("anchor",),
        "/rows/CT-05/": ("anchor",),
        "/disagreements/": ("dpcter",),
    }
    for url, keys in pages.items():
        page = client.get(url, follow=True).content.decode()
        for key in keys:
            assert f'<a class="term" href="/glossary/#{key}"' in page, (url, key)


def test_7_a_two_host_compare_says_how_many_rows_state_one_side_only(loaded):
    page = Client().get("/?host=opencode-v1&vs_host=cloudflare").content.decode()
    wider = Client().get("/?host=opencode-v1&vs_host=cloudflare&vs_all=1").content.decode()
    stated = int(page.split('id="result-count">', 1)[1].split(" ", 1)[0])
    every = int(wider.split('id="result-count">', 1)[1].split(" ", 1)[0])
    assert every > stated
    assert f"also list the {every - stated} rows where one side is not stated" in page
    assert f'id="unstated-count">{every - stated} more rows state only one side</a>' in page
    assert 'id="unstated-count"' not in wider


def test_7_no_source_citations_say_why_and_how_to_fetch_the_sources(loaded, capsys):
    from io import StringIO

    out = StringIO()
    call_command("verify_citations", stdout=out)
    last = out.getvalue().splitlines()[-1]
    no_source = int(out.getvalue().splitlines()[-2].rsplit(", ", 1)[1].split()[0])
    assert no_source > 0
    assert last.startswith(f"{no_source} no source: their repositories (")
    assert "`manage.py sync_sources` fetches them" in last
    page = Client().get("/registers/tools/").content.decode()
    assert 'id="no-source"' in page
    assert "<code>manage.py sync_sources</code> fetches them" in page
