"""The hosts page: every host × every scenario beyond request → answer, from the host × protocol
model (comparison.hosts.protocol), escaped, without touching the database."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from comparison.hosts import protocol
from comparison.probes import families

pytestmark = pytest.mark.django_db


def test_the_hosts_page_shows_every_host_and_aspect_with_its_source(client):
    """The hand models' protocol table, on its own page (also folded into /hosts/, below the lab)."""
    assert 'id="aspect-list-changed"' in client.get("/hosts/").content.decode()
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/hosts/protocol/")
    assert response.status_code == 200
    assert len(queries) == 0, "the table is code, not data"
    html = response.content.decode()
    played = [s for f in families.FAMILIES if f.play for s in f.scenarios]
    aspects = {protocol.aspect(s.key) for s in played}
    assert set(re.findall(r'<tr id="aspect-([a-z-]+)">', html)) == aspects
    assert len(aspects) == len(played) - 4, "the four MRTR forms share their question's row"
    header = html[html.index("<thead>") : html.index("</thead>")]
    assert header.count('<th scope="col">') == 6
    assert 'lootbox<br><span class="muted">up to 2025-06-18</span>' in header
    pages = re.search(r'<tr id="aspect-pages-tools">(.*?)</tr>', html, re.S).group(1)
    cells = re.findall(r'<td class="(host-[a-z-]+)">', pages)
    assert cells == ["host-uses", "host-uses", "host-ignores", "host-ignores", "host-not-modelled"]
    assert "mcp_schema_fetcher.ts:69" in pages
    assert "onprogress:()=&gt;{}" in html, "sources are escaped, never raw"


def test_a_family_cell_links_to_its_row_of_the_hosts_page(client):
    from comparison.models import ProbeResult
    from comparison.services.probing import ensure_builtin_target
    from comparison.tasks import start_run

    run = start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["list-changed"])
    result = ProbeResult.objects.get(run=run, scenario="list-changed")
    html = client.get(result.get_absolute_url()).content.decode()
    assert 'href="/hosts/#aspect-list-changed"' in html


def test_backtick_spans_become_code_and_everything_else_stays_escaped():
    from comparison.templatetags.host_views import inline_code

    assert inline_code("a `<b>` and <i>") == "a <code>&lt;b&gt;</code> and &lt;i&gt;"
    assert inline_code("one ` alone <x>") == "one ` alone &lt;x&gt;"
    assert inline_code("") == ""
