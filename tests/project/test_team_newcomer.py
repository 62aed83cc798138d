"""What a newcomer following the README tripped on (the 'ready for a team' report), each as what
the user sees: the probes page's "Compare runs side by side" opens the picker."""

from __future__ import annotations

import json

import pytest

from comparison.services.probing import ensure_builtin_target
from comparison.tasks import start_run


@pytest.mark.django_db
def test_compare_runs_side_by_side_opens_the_picker_with_nothing_chosen(client):
    run = start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text"])
    probes = client.get("/probes/").content.decode()
    assert 'href="/probes/compare/?run="' in probes
    picker = client.get("/probes/compare/?run=")
    assert picker.status_code == 200
    html = picker.content.decode()
    assert 'id="compare-many-form"' in html
    assert f'value="{run.pk}"' in html, "the runs to choose from"
    assert client.get("/probes/compare/?run=x").status_code == 404, "a value that is not a number still says so"


@pytest.mark.django_db
def test_the_built_in_fixtures_own_run_says_its_invalid_cells_are_deliberate(client):
    from comparison.models import ProbeResult

    run = start_run(target=ensure_builtin_target(), revisions=["2024-11-05"], scenarios=["text", "audio"])
    assert ProbeResult.objects.filter(run=run, verdict="invalid for revision").exists()
    html = client.get(run.get_absolute_url()).content.decode()
    assert 'id="fixture-invalid-note"' in html
    assert "on purpose" in html


@pytest.mark.django_db
def test_a_run_records_what_the_target_said_it_is_and_the_target_page_groups_runs_by_it(client):
    from comparison.models import ProbeRun

    target = ensure_builtin_target()
    first = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    first.refresh_from_db()
    assert first.server_identity == "mcp-compare-fixture 1.0.0", "from the first answer's serverInfo"
    assert "the target said it is" in client.get(first.get_absolute_url()).content.decode()
    assert client.get(f"/api/v1/runs/{first.pk}/").json()["server_identity"] == "mcp-compare-fixture 1.0.0"
    # A later run, as if the proxy had been rolled back and answered with another serverInfo.
    older = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    ProbeRun.objects.filter(pk=older.pk).update(server_identity="mcp-compare-fixture 0.9.0")
    html = client.get(target.get_absolute_url()).content.decode()
    assert 'id="by-version"' in html
    assert html.index("mcp-compare-fixture 0.9.0") < html.index("mcp-compare-fixture 1.0.0</th>"), "newest first"


def test_runs_group_by_identity_newest_first_and_a_silent_target_is_named_so():
    from comparison.core.version_groups import UNSAID, by_version

    groups = by_version([(5, "proxy 2.0", "t5", (3, 4)), (4, "", "t4", (0, 0)), (3, "proxy 2.0", "t3", (1, 4)),
                         (2, "proxy 1.0", "t2", (2, 2))])  # fmt: skip
    assert [(g.identity, g.run_ids, g.percent) for g in groups] == [
        ("proxy 2.0", [5, 3], 75.0),
        (UNSAID, [4], None),
        ("proxy 1.0", [2], 100.0),
    ]
    assert (groups[0].first_seen, groups[0].last_seen) == ("t3", "t5")


def _myproxy_register(tmp_path):
    from registers.loader import load_registers
    from tests.support.register_text import register_text

    path = tmp_path / "myproxy.md"
    path.write_text(register_text(2).replace("mcpx", "myproxy"), encoding="utf-8")
    load_registers([path])


@pytest.mark.django_db
def test_a_register_about_another_proxy_names_that_proxy_not_mcpx(client, tmp_path):
    _myproxy_register(tmp_path)
    row = client.get("/registers/myproxy/TT-02/").content.decode()
    assert 'id="host-mcpx">myproxy <span' in row
    assert ">mcpx <span" not in row
    matrix = client.get("/matrix/").content.decode()
    assert '<th scope="col">myproxy</th>' in matrix
    assert '<th scope="col">mcpx</th>' not in matrix
    assert 'title="myproxy: lacks' in matrix or 'title="myproxy: partial' in matrix
    assert 'title="mcpx:' not in matrix
    rows = client.get("/").content.decode()
    assert ">myproxy</option>" in rows or "myproxy (" in rows


@pytest.mark.django_db
def test_the_evidence_table_names_the_registers_proxy_not_mcpx(client, tmp_path):
    """Found trying an unseen register (subject "gatekeeper"): the Hosts section named it, the
    Evidence table's row header still said mcpx."""
    _myproxy_register(tmp_path)
    row = client.get("/registers/myproxy/TT-02/").content.decode()
    assert '<tr data-host="mcpx"><th scope="row">myproxy</th>' in row
    assert '<th scope="row">mcpx</th>' not in row


@pytest.mark.django_db
def test_the_playground_says_every_host_drops_an_errors_image(client):
    image = {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
    result = {"isError": True, "content": [{"type": "text", "text": "bad"}, image]}
    html = client.post("/playground/", {"result": json.dumps(result), "provider": "anthropic"}).content.decode()
    sections = html.split("data-host-path=")[1:]
    said = {section.split('"')[1]: "non-text blocks of the error" in section for section in sections}
    assert {path for path, says in said.items() if not says} <= {"lootbox", "mcpx"}, said
    assert said["opencode-v2"]
    assert said["cloudflare"]
    assert said["opencode-v1-codemode"]
    assert "image lost" in html


def test_the_matrix_legend_names_every_mark_a_cell_can_show(client, loaded):
    html = client.get("/matrix/").content.decode()
    legend = html.split('aria-label="Legend"')[1].split("</ul>")[0]
    assert "· not mentioned" in legend
    assert 'class="host host-none"' in html.split("<tbody>")[1]


def test_pages_go_out_compressed_to_a_client_that_asks(client, loaded):
    import gzip

    response = client.get("/matrix/", HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    page = gzip.decompress(response.content).decode()
    assert "<h1>Matrix</h1>" in page
    assert len(response.content) * 4 < len(page.encode())
    assert "Content-Encoding" not in client.get("/matrix/")


def test_the_html_export_lays_out_at_a_phones_width(client, loaded):
    from tests.registers.test_reports import body

    html = body(client.get("/export.html?register=prompts"))
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html


def test_behind_tls_the_settings_a_reverse_proxy_needs_are_on(tmp_path):
    from tests.support.processes import manage

    env = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'tls.sqlite3'}",
        "MCP_COMPARE_BEHIND_TLS": "1",
        "MCP_COMPARE_HSTS_SECONDS": "31536000",
        "MCP_COMPARE_SECRET_KEY": "x" * 60,
        "MCP_COMPARE_ALLOWED_HOSTS": "compare.example.org",
    }
    script = (
        "from django.conf import settings as s; from django.test import Client;"
        "print(s.SECURE_PROXY_SSL_HEADER, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS);"
        "c = Client(HTTP_HOST='compare.example.org');"
        "print(c.get('/playground/').status_code, c.get('/playground/').get('Location'));"
        "r = c.get('/playground/', HTTP_X_FORWARDED_PROTO='https');"
        "print(r.status_code, r.get('Strict-Transport-Security'))"
    )
    lines = [line for line in manage("shell", "-c", script, env=env).splitlines() if line and "imported" not in line]
    assert lines[0] == "('HTTP_X_FORWARDED_PROTO', 'https') True True 31536000"
    assert lines[1] == "301 https://compare.example.org/playground/"
    assert lines[2] == "200 max-age=31536000"


@pytest.mark.django_db
def test_runs_compared_side_by_side_say_what_each_target_said_it_was(client):
    from comparison.models import ProbeRun

    target = ensure_builtin_target()
    first = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    second = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    ProbeRun.objects.filter(pk=second.pk).update(server_identity="mcp-compare-fixture 0.9.0")
    query = f"run={first.pk}&run={second.pk}"
    html = client.get(f"/probes/compare/?{query}").content.decode()
    assert "said: mcp-compare-fixture 1.0.0" in html
    assert "said: mcp-compare-fixture 0.9.0" in html
    columns = client.get(f"/api/v1/compare/?{query}").json()["runs"]
    assert [c["identity"] for c in columns] == ["mcp-compare-fixture 1.0.0", "mcp-compare-fixture 0.9.0"]
    markdown = client.get(f"/probes/compare/?{query}&format=md").content.decode()
    assert f"#{second.pk} {target.name} (mcp-compare-fixture 0.9.0)" in markdown
