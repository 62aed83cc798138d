"""What a newcomer tripped on, round three (issue 52): each stumble as a test that failed before."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.test import Client

from comparison.tasks import start_run
from tests.relay_targets import relay_target

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
    from comparison.lab_models import HostReleases

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
