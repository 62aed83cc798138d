"""Every page, as a full page and as an htmx fragment, with constant query counts."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

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
