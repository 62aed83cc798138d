"""Pages and exports bounded as rows grow (issue 32, rows 2 and 3): the Disagreements page and its
API read each row's flat columns once, never its register's JSON, and are paginated; an export
either arrives whole with its length or is refused with a 503 that says why, never a 200 whose
body was cut short. Times are measured in bench/bench_scale.py, not here."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from registers.loader import load_registers
from tests.support.register_text import register_text


def load_rows(tmp_path, rows: int, *, registers: int = 1) -> None:
    for index in range(registers):
        prefix = "L" + "".join(chr(65 + int(d)) for d in f"{index:02d}")
        path = tmp_path / f"large-{index}.md"
        path.write_text(register_text(rows, prefix=prefix, title=f"Large {index}"), encoding="utf-8")
    load_registers([tmp_path])


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def queries(client, url: str) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    body(response)
    return len(captured), [query["sql"] for query in captured]


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/disagreements/", "/api/v1/disagreements/"])
def test_the_disagreements_list_never_reads_a_registers_json_per_row(client, tmp_path, url):
    load_rows(tmp_path, 30)
    _, sql = queries(client, url)
    row_reads = [query for query in sql if 'FROM "registers_row"' in query]
    assert row_reads, sql
    for query in row_reads:
        assert '"registers_register"."findings"' not in query, "a register's lint findings decoded for every row"
        assert '"registers_register"."warnings"' not in query


@pytest.mark.django_db
def test_the_disagreements_page_costs_the_same_queries_at_any_row_count(client, tmp_path, page_cache):
    (tmp_path / "few").mkdir()
    (tmp_path / "many").mkdir()
    load_rows(tmp_path / "few", 10)
    few, _ = queries(client, "/disagreements/")
    load_rows(tmp_path / "many", 400, registers=2)
    page_cache.clear()
    many, _ = queries(client, "/disagreements/")
    assert many == few


@pytest.mark.django_db
def test_the_disagreements_api_is_paginated(client, tmp_path):
    load_rows(tmp_path, 5)
    data = json.loads(client.get("/api/v1/disagreements/").content)
    assert {"count", "page", "pages", "row_counts", "disagreements"} <= set(data)
    assert data["page"] == 1
    assert len(data["disagreements"]) == min(data["count"], 100)
    missing = client.get(f"/api/v1/disagreements/?page={data['pages'] + 1}")
    assert missing.status_code == 404
    assert client.get("/disagreements/?page=abc").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["csv", "json", "md", "html"])
def test_an_export_arrives_with_its_length(client, tmp_path, fmt):
    load_rows(tmp_path, 120, registers=2)
    response = client.get(f"/export.{fmt}")
    assert response.status_code == 200
    content = body(response)
    assert int(response["Content-Length"]) == len(content), "a client can tell a cut body from a whole one"
    if fmt == "csv":
        assert len(list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))) == 241
    elif fmt == "json":
        assert len(json.loads(content)["rows"]) == 240
    elif fmt == "html":
        assert content.decode().count('<section class="row"') == 240
    else:
        assert content.decode().count("\n## LAA-") == 120


@pytest.mark.django_db
def test_the_markdown_export_of_two_registers_keeps_each_registers_rows_together(client, tmp_path):
    load_rows(tmp_path, 3, registers=2)
    text = body(client.get("/export.md")).decode()
    first, second = text.index("# Large 0"), text.index("# Large 1")
    assert all(first < text.index(f"## LAA-0{n}") < second for n in (1, 2, 3))
    assert all(second < text.index(f"## LAB-0{n}") for n in (1, 2, 3))


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/export.csv", "/export.json", "/disagreements/?format=csv"])
def test_an_export_that_outlasts_its_time_is_refused_whole_never_cut(client, tmp_path, settings, url):
    load_rows(tmp_path, 30)
    settings.EXPORT_SECONDS = 1e-9
    response = client.get(url)
    assert response.status_code == 503
    assert response["Retry-After"]
    text = response.content.decode()
    assert "was not sent" in text
    assert "export_report" in text


@pytest.mark.django_db
def test_export_queries_grow_with_chunks_not_rows(client, tmp_path):
    (tmp_path / "few").mkdir()
    (tmp_path / "more").mkdir()
    load_rows(tmp_path / "few", 20)
    few, _ = queries(client, "/export.csv")
    load_rows(tmp_path / "more", 400)  # 420 rows: still one chunk
    more, _ = queries(client, "/export.csv")
    assert more == few


@pytest.mark.django_db
def test_a_register_page_lists_its_rows_a_page_at_a_time(client, tmp_path):
    load_rows(tmp_path, 250)
    first = client.get("/registers/large-0/").content.decode()
    assert "Rows 1–100 of 250." in first
    assert "Page 1 of 3" in first
    last = client.get("/registers/large-0/?page=3").content.decode()
    assert "Rows 201–250 of 250." in last
    assert "/registers/large-0/LAA-250/" in last
    assert "/registers/large-0/LAA-250/" not in first
    assert client.get("/registers/large-0/?page=4").status_code == 404


@pytest.mark.django_db
def test_a_register_page_lists_its_first_findings_and_counts_the_rest(client, tmp_path, monkeypatch):
    from registers import selectors

    monkeypatch.setattr(selectors, "MAX_FINDINGS_SHOWN", 5)
    load_rows(tmp_path, 60)
    page = client.get("/registers/large-0/").content.decode()
    table = page[page.index('class="findings"') : page.index("</table>", page.index('class="findings"'))]
    assert table.count('<tr class="finding-') == 5
    assert "more findings not listed here" in page
