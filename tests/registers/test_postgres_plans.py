"""Every page that lists or counts rows stays fast when PostgreSQL's statistics say the tables are
empty although they are not (rows written and rolled back, then ANALYZE, as CI's earlier tests and
a production database between a load and autovacuum both leave them).

Once, the facet counts nested `IN` subqueries; under these statistics the planner chose nested
loops with join filters and one request ran for over 29 minutes. The pages now read one flat
query per listing; each statement here runs under a 3-second limit.
"""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from registers import loader
from registers.loader import REGISTER_TABLES, load_registers
from tests.conftest import SHIPPED
from tests.support.register_text import register_text

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL planner statistics"),
]

TABLES = [model._meta.db_table for model in REGISTER_TABLES]

# The filters of the view tests, and the URL that hung CI.
URLS = [
    "/",
    "/?revision=2025-06-18&host=opencode-v1&host_mode=lacks",
    "/?revision=2025-06-18&host=opencode-v2&label=opencode+v2+has&status=yes&q=block",
    "/?revision=2025-06-18&rev_mode=introduced&host=mcpx&host_mode=partial&value=med&effort=S&risk=med",
    "/?revision=2024-11-05&register=content-types",
    "/?revision=2024-11-05&rev_mode=absent&register=content-types",
    "/?revision=2025-06-18&rev_mode=unknown",
    "/?revision=2026-07-28&rev_mode=removed",
    "/?host=opencode-v1&host_mode=lacks&register=content-types",
    "/?host=cloudflare&register=prompts",
    "/?label=mcpx+missing&register=prompts",
    "/?status=yes&register=prompts",
    "/?value=negative",
    "/?effort=L",
    "/?risk=high&register=failure-gap",
    "/?q=slash+commands",
    "/?q=resource_link+opencode&register=content-types",
    "/?cite=unverified&register=prompts&revision=2026-07-28",
    "/?changed_since=1",
    "/?register=prompts&revision=2026-07-28&host=mcpx&host_mode=has&label=mcpx+missing",
    "/matrix/",
    "/matrix/?register=prompts&revision=2026-07-28",
    "/matrix/?revision=2025-06-18&host=opencode-v1&host_mode=lacks",
    "/registers/",
    "/registers/content-types/",
    "/registers/prompts/",
    "/registers/content-types/CT-13/",
    "/registers/failure-gap/FG-01/",
    "/export.json?revision=2025-06-18&host=opencode-v1&host_mode=lacks",
    "/export.csv?register=content-types&revision=2025-06-18&rev_mode=introduced",
    "/export.md?register=prompts",
    "/export.html?host=lootbox",
    "/probes/",
]


def _reltuples() -> dict[str, float]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT relname, reltuples FROM pg_class WHERE relname = ANY(%s)", [TABLES])
        return dict(cursor.fetchall())


def make_statistics_stale(tmp_path) -> None:
    """Write a large register set, roll it back, ANALYZE: pages counted, no live row."""
    with connection.cursor() as cursor:
        for table in TABLES:
            cursor.execute(f"ALTER TABLE {connection.ops.quote_name(table)} SET (autovacuum_enabled = false)")
    big = tmp_path / "big-register.md"
    big.write_text(register_text(300, prefix="BIG", title="Big register"), encoding="utf-8")

    class RolledBack(Exception):
        pass

    try:
        with transaction.atomic():
            load_registers([SHIPPED, big])
            raise RolledBack
    except RolledBack:
        pass
    with connection.cursor() as cursor:
        for table in TABLES:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(table)}")
    stale = _reltuples()
    assert stale["registers_row"] == 0, stale
    assert stale["registers_hostnote"] == 0, stale


def test_every_listing_page_answers_under_stale_statistics(client, tmp_path, monkeypatch):
    make_statistics_stale(tmp_path)
    # Load without the loader's own ANALYZE, so the planner keeps believing the tables are empty.
    monkeypatch.setattr(loader, "analyze_register_tables", lambda: None)
    big = tmp_path / "big-register.md"
    load_registers([SHIPPED, big])
    assert _reltuples()["registers_row"] == 0, "the statistics must still look empty"
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL statement_timeout = '3s'")
    for url in URLS:
        response = client.get(url)
        assert response.status_code == 200, url
        if response.streaming:
            b"".join(response.streaming_content)


def test_a_load_refreshes_the_statistics(tmp_path):
    make_statistics_stale(tmp_path)
    load_registers([SHIPPED, tmp_path / "big-register.md"])
    counted = _reltuples()
    assert counted["registers_row"] > 300
    assert counted["registers_hostnote"] > 0
    assert counted["registers_revisionsupport"] > 1500


def test_a_statement_over_the_limit_is_a_clear_503(rf, caplog):
    """A real statement cancelled by PostgreSQL's statement_timeout becomes the 503 page."""
    from django.contrib.auth.models import AnonymousUser
    from django.db import OperationalError

    from mcp_compare.middleware import DatabaseTimeoutMiddleware

    # The savepoint is rolled back by the error leaving it, so the test's transaction goes on.
    with pytest.raises(OperationalError) as raised, transaction.atomic(), connection.cursor() as cursor:  # noqa: PT012
        cursor.execute("SET LOCAL statement_timeout = '50ms'")
        cursor.execute("SELECT pg_sleep(2)")
    request = rf.get("/?revision=2025-06-18")
    request.user = AnonymousUser()
    request.htmx = False
    with caplog.at_level("ERROR", logger="mcp_compare.database"):
        response = DatabaseTimeoutMiddleware(lambda r: None).process_exception(request, raised.value)
    assert response.status_code == 503
    assert "The database took too long" in response.content.decode()
    assert response["Retry-After"] == "30"
    assert "statement timeout" in caplog.text
    assert "/?revision=2025-06-18" in caplog.text


def test_web_requests_run_under_a_statement_timeout():
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == "5s"
