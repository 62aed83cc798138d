"""Every page, as a full page and as an htmx fragment, with constant query counts."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from comparison.services.probing import ensure_builtin_target
from comparison.tasks import start_run
from registers.loader import load_registers
from registers.models import RevisionSupport
from tests.support.register_text import register_text

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def row_ids(html: str) -> list[str]:
    return re.findall(r'<tr id="row-([A-Z]+-\d+)">', html)


def count_queries(client, url: str, **headers) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)
    assert response.status_code == 200, url
    return len(captured)


@pytest.fixture
def grow(tmp_path):
    """Load a further register with many rows, to show query counts do not grow with data."""

    def load(rows: int = 60) -> None:
        path = tmp_path / "big-register.md"
        path.write_text(register_text(rows, prefix="BIG", title="Big register"), encoding="utf-8")
        load_registers([path])

    return load


PAGES = [
    "/",
    "/?revision=2025-06-18&host=opencode-v2&label=opencode+v2+has&status=yes&q=block",
    "/?revision=2025-06-18&rev_mode=introduced&host=mcpx&host_mode=partial&value=med&effort=S&risk=med",
    "/matrix/",
    "/matrix/?register=prompts&revision=2026-07-28",
    "/registers/",
    "/registers/content-types/",
    "/registers/content-types/CT-13/",
]


@pytest.mark.parametrize("url", PAGES)
def test_query_count_does_not_grow_with_rows(loaded, grow, client, url):
    before = count_queries(client, url)
    grow(60)
    after = count_queries(client, url)
    assert before == after, f"{url}: {before} queries with 43 rows, {after} with 103"
    assert after <= 16


@pytest.mark.parametrize("url", ["/", "/matrix/"])
def test_htmx_fragment_query_count_is_constant(loaded, grow, client, url):
    before = count_queries(client, url + "?host=lootbox", **HTMX)
    grow(60)
    assert count_queries(client, url + "?host=lootbox", **HTMX) == before


def test_row_list_full_page(loaded, client):
    response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert 'id="filters"' in html
    assert "htmx" in html
    assert len(row_ids(html)) == 100, "the first page"
    assert "111 rows." in html
    assert '<option value="content-types">Content types (19)</option>' in html


def test_row_list_htmx_fragment(loaded, client):
    response = client.get("/?revision=2025-06-18&rev_mode=introduced&register=content-types", **HTMX)
    html = response.content.decode()
    assert "<html" not in html
    assert 'id="filters"' not in html
    # Not CT-07: its label says 2025-06-18, its strip says it exists from 2024-11-05 (issue 37).
    assert row_ids(html) == ["CT-05", "CT-06", "CT-10", "CT-13"]
    assert response["HX-Push-Url"] == "/?register=content-types&revision=2025-06-18&rev_mode=introduced"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("revision=2024-11-05&register=content-types", ["CT-01", "CT-02", "CT-04", "CT-07", "CT-09"]),
        (
            "revision=2024-11-05&rev_mode=absent&register=content-types",
            ["CT-03", "CT-05", "CT-06", "CT-08", "CT-10", "CT-11", "CT-13"],
        ),
        ("revision=2026-07-28&rev_mode=removed&register=content-types", ["CT-08"]),
        (
            "revision=2026-07-28&rev_mode=removed&register=logging",
            ["LOG-01", "LOG-02", "LOG-05", "LOG-06", "LOG-07", "LOG-08"],
        ),
        ("host=opencode-v1&host_mode=lacks&register=content-types", ["CT-03", "CT-05", "CT-12", "CT-16", "CT-17"]),
        ("host=cloudflare&register=prompts", []),
        ("label=mcpx+missing&register=prompts", ["PRM-01", "PRM-02", "PRM-03", "PRM-04", "PRM-07"]),
        ("status=yes&register=prompts", ["PRM-08"]),
        ("value=negative&register=content-types", ["CT-08"]),
        ("effort=L", ["FG-05", "FG-06"]),
        ("risk=high&register=failure-gap", ["FG-01", "FG-02", "FG-15", "FG-16"]),
        ("q=slash+commands", ["PRM-07", "PRM-08"]),
        ("q=resource_link+opencode&register=content-types", ["CT-04", "CT-05", "CT-12", "CT-14", "CT-18"]),
    ],
)
def test_filters_select_rows(loaded, client, query, expected):
    assert row_ids(client.get(f"/?{query}").content.decode()) == expected


def test_unknown_filter_values_are_ignored_and_reported(loaded, client):
    response = client.get("/?revision=1999-01-01&host=netscape&effort=huge")
    html = response.content.decode()
    assert response.status_code == 200
    assert len(row_ids(html)) == 100
    assert "Ignored unknown filter values: revision=1999-01-01, host=netscape, effort=huge." in html


def test_facet_counts_exclude_their_own_filter(loaded, client):
    html = client.get("/?register=prompts").content.decode()
    assert '<option value="prompts" selected>Prompts (8)</option>' in html
    assert '<option value="content-types">Content types (19)</option>' in html
    assert '<option value="yes">✓ (1)</option>' in html


def test_matrix_full_and_fragment(loaded, client):
    html = client.get("/matrix/?register=content-types").content.decode()
    assert "<html" in html
    assert "Revisions" in html
    unknown = RevisionSupport.objects.filter(row__register__slug="content-types", state="unknown").count()
    assert unknown == 7 * 5
    assert html.count('class="rev rev-unknown"') == unknown + 1  # the cells and the legend
    fragment = client.get("/matrix/?register=prompts", **HTMX).content.decode()
    assert "<html" not in fragment
    assert "PRM-08" in fragment
    assert "CT-01" not in fragment


def test_register_pages(loaded, client):
    html = client.get("/registers/").content.decode()
    assert "Content types" in html
    assert "Failure gap" in html
    assert "Prompts" in html
    detail = client.get("/registers/failure-gap/").content.decode()
    assert "mcpx @ 05c78b2" in detail
    assert "The lint found nothing" in detail
    assert len(row_ids(detail)) == 16
    assert "DPCTER" in detail
    assert client.get("/registers/nope/").status_code == 404


def test_register_page_shows_warnings(db, client, tmp_path):
    text = register_text(2)
    text = text.replace(text[text.index("## TT-02") :], "")
    path = tmp_path / "warned.md"
    path.write_text(text, encoding="utf-8")
    load_registers([path], require_fields=False)  # a draft: loaded with warnings, as --allow-missing-fields does
    html = client.get("/registers/warned/").content.decode()
    assert "table row TT-02 has no `## TT-02` section" in html


def test_row_page(loaded, client):
    html = client.get("/registers/content-types/CT-05/").content.decode()
    assert "resource_link" in html
    assert "2025-06-18 has" in html
    assert 'rel="prev" href="/registers/content-types/CT-04/"' in html
    assert 'rel="next" href="/registers/content-types/CT-06/"' in html
    assert "opencode v1 direct dropped" in html
    assert "schema/2025-06-18/schema.ts:761" in html
    assert '<a href="https://modelcontextprotocol.io/specification/2025-06-18/server/prompts"' not in html
    assert '<a href="/rows/CT-07/" class="row-ref">CT-07</a>' in html
    assert client.get("/registers/content-types/CT-99/").status_code == 404


def test_row_by_id_redirects(loaded, client):
    response = client.get("/rows/PRM-07/")
    assert response.status_code == 302
    assert response["Location"] == "/registers/prompts/PRM-07/"
    assert client.get("/rows/ZZ-01/").status_code == 404


def test_register_text_is_escaped(db, client, tmp_path):
    text = register_text(1).replace("raw <b>html</b> is text", "<script>alert('x')</script>")
    text = text.replace("| `TT-01` a `text` thing |", "| <img src=x onerror=alert(1)> |")
    path = tmp_path / "hostile.md"
    path.write_text(text, encoding="utf-8")
    load_registers([path])
    for url in ("/", "/registers/hostile/", "/registers/hostile/TT-01/", "/matrix/"):
        html = client.get(url).content.decode()
        assert "<script>alert" not in html, url
        assert "<img src=x" not in html, url
    assert "&lt;script&gt;alert" in client.get("/registers/hostile/TT-01/").content.decode()


def test_pages_only_answer_get(loaded, client):
    assert client.post("/").status_code == 405
    assert client.post("/registers/content-types/CT-01/").status_code == 405


def test_pagination_keeps_filters(db, client, tmp_path):
    path = tmp_path / "big-register.md"
    path.write_text(register_text(120, prefix="BIG"), encoding="utf-8")
    load_registers([path])
    html = client.get("/?register=big-register").content.decode()
    assert len(row_ids(html)) == 100
    assert 'href="?register=big-register&amp;page=2"' in html
    second = client.get("/?register=big-register&page=2").content.decode()
    assert row_ids(second)[0] == "BIG-101"
    assert len(row_ids(second)) == 20


@pytest.mark.django_db
def test_a_row_nothing_loaded_is_text_with_a_note_not_a_dead_link(client, loaded):
    """Issue 26, a first-time user's row 10."""
    page = client.get("/registers/prompts/").content.decode()
    assert 'href="/rows/ERR-04/"' not in page
    assert 'ERR-04 <span class="muted">(not loaded)</span>' in page
    row = client.get("/registers/content-types/CT-12/").content.decode()
    assert 'href="/rows/LV-36/"' not in row
    assert 'LV-36 <span class="muted">(not loaded)</span>' in row
    assert '<a href="/rows/CT-06/" class="row-ref">CT-06</a>' in row, "a loaded row stays a link"
    for linked in re.findall(r'href="(/rows/[A-Z]+-\d+/)"', page + row):
        assert client.get(linked).status_code in (200, 302), linked


@pytest.mark.django_db
def test_the_first_screen_says_whose_status_explains_its_columns_and_folds_rare_filters(client, loaded):
    """Issue 26, a first-time user's row 13."""
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


def test_a_row_id_typed_in_lower_case_finds_its_row(loaded):
    """Issue 52, a newcomer's item 7."""
    client = Client()
    assert client.get("/rows/ct-05/")["Location"] == "/registers/content-types/CT-05/"
    assert client.get("/registers/content-types/ct-05/")["Location"] == "/registers/content-types/CT-05/"
    assert client.get("/rows/zz-99/").status_code == 404


def test_a_glossary_explains_the_words_and_pages_link_their_first_use(loaded):
    """Issue 52, a newcomer's item 6."""
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


def test_a_two_host_compare_says_how_many_rows_state_one_side_only(loaded):
    """Issue 52, a newcomer's item 7."""
    page = Client().get("/?host=opencode-v1&vs_host=cloudflare").content.decode()
    wider = Client().get("/?host=opencode-v1&vs_host=cloudflare&vs_all=1").content.decode()
    stated = int(page.split('id="result-count">', 1)[1].split(" ", 1)[0])
    every = int(wider.split('id="result-count">', 1)[1].split(" ", 1)[0])
    assert every > stated
    assert f"also list the {every - stated} rows where one side is not stated" in page
    assert f'id="unstated-count">{every - stated} more rows state only one side</a>' in page
    assert 'id="unstated-count"' not in wider


def _myproxy_register(tmp_path):
    from registers.loader import load_registers
    from tests.support.register_text import register_text

    path = tmp_path / "myproxy.md"
    path.write_text(register_text(2).replace("mcpx", "myproxy"), encoding="utf-8")
    load_registers([path])


@pytest.mark.django_db
def test_a_register_about_another_proxy_names_that_proxy_not_mcpx(client, tmp_path):
    """A newcomer following the README (the 'ready for a team' report)."""
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
    """A newcomer following the README (the 'ready for a team' report): Found trying an unseen register (subject "gatekeeper"): the Hosts section named it, the
    Evidence table's row header still said mcpx."""
    _myproxy_register(tmp_path)
    row = client.get("/registers/myproxy/TT-02/").content.decode()
    assert '<tr data-host="mcpx"><th scope="row">myproxy</th>' in row
    assert '<th scope="row">mcpx</th>' not in row


def test_the_matrix_legend_names_every_mark_a_cell_can_show(client, loaded):
    """A newcomer following the README (the 'ready for a team' report)."""
    html = client.get("/matrix/").content.decode()
    legend = html.split('aria-label="Legend"')[1].split("</ul>")[0]
    assert "· not mentioned" in legend
    assert 'class="host host-none"' in html.split("<tbody>")[1]
