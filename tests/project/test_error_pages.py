"""Error pages (issue 21, row 9, and issue 26, row 15): a 404 that says only what was not found, in
the caller's language; a 503 when the database is away, a 400 for a value it refuses, a plain 500
otherwise; each a whole page, or JSON for the API."""

from __future__ import annotations

import pytest

from comparison.services.probing import ensure_builtin_target
from comparison.tasks import start_run
from tests.conftest import PROJECT


@pytest.mark.django_db
def test_errors_say_what_was_not_found_in_the_callers_language(client, loaded):
    """Issue 26, a first-time user's row 15."""
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
def test_a_404_says_what_was_not_found_and_nothing_of_the_url_table(client):
    """Issue 21, row 9."""
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    text = response.content.decode()
    assert "There is nothing at <code>/no/such/page/</code>." in text
    # What Django's resolver message carried: every pattern it tried and the URLconf's module path.
    for leak in (
        "api/v1/",
        "mcp_compare.urls",
        "registers.urls",
        "tried",
        str(PROJECT),
        "URLconf",
        "<int:pk>",
        "<str:",
    ):
        assert leak not in text, leak
    assert "No loaded register has a row NOPE-1." in client.get("/rows/NOPE-1/").content.decode()


@pytest.mark.django_db
def test_a_404_is_a_whole_page_and_cuts_long_paths_and_messages_at_300_characters(client):
    """Issue 21, row 9."""
    long_path = "/" + "p" * 400
    text = client.get(long_path).content.decode()
    assert f"<code>{long_path[:300]}</code>" in text
    assert "Revisions 2024-11-05" in text, "the page's own context (the footer's revisions) is there"
    row_id = "X" * 400
    message = f"No loaded register has a row {row_id}."
    text = client.get(f"/rows/{row_id}/").content.decode()
    assert f"<p>{message[:300]}</p>" in text


@pytest.fixture
def failing_rows(monkeypatch, settings):
    """The row list's read fails as it does when the database is gone (or with another error)."""
    from django.db import OperationalError

    from registers import selectors

    failure = {"error": OperationalError("connection refused: the database is gone")}

    def fail(*args, **kwargs):
        raise failure["error"]

    monkeypatch.setattr(selectors, "rows_by_id", fail)
    return failure


@pytest.mark.django_db
def test_a_database_error_is_a_503_page_or_json_with_retry_after(client, failing_rows):
    """Issue 21."""
    client.raise_request_exception = False
    page = client.get("/rows/CT-01/")
    assert page.status_code == 503
    assert page["Retry-After"] == "5"
    assert page["Cache-Control"] == "no-store"
    assert "<h1>The database is unavailable</h1>" in page.content.decode()
    assert "this page can be reloaded in 5 seconds" in page.content.decode()
    api = client.get("/api/v1/rows/CT-01/")
    assert (api.status_code, api["Content-Type"]) == (503, "application/json")
    assert api.json() == {"error": "The database is unavailable; retry shortly.", "status": 503}
    asked = client.get("/rows/CT-01/", HTTP_ACCEPT="application/json")
    assert asked.json()["status"] == 503, "a client that asks for JSON gets JSON"


@pytest.mark.django_db
def test_a_value_the_database_refuses_is_a_400_not_an_outage(client, failing_rows):
    """Issue 21: PostgreSQL refuses an integer past its range or a NUL in text with a DataError; the database
    is up, so "unavailable, retry" would be wrong: the request is at fault."""
    from django.db import DataError

    client.raise_request_exception = False
    failing_rows["error"] = DataError("integer out of range")
    page = client.get("/rows/CT-01/")
    assert page.status_code == 400
    assert "Retry-After" not in page
    assert "cannot hold or compare" in page.content.decode()
    assert "integer out of range" not in page.content.decode()
    api = client.get("/api/v1/rows/CT-01/")
    assert (api.status_code, api.json()["status"]) == (400, 400)
    assert "out of range, or a NUL" in api.json()["error"]


@pytest.mark.django_db
def test_any_other_error_is_a_plain_500_page_or_json(client, failing_rows):
    """Issue 21."""
    client.raise_request_exception = False
    failing_rows["error"] = ValueError("a bug of ours")
    page = client.get("/rows/CT-01/")
    assert page.status_code == 500
    assert "<h1>Server error</h1>" in page.content.decode()
    assert "a bug of ours" not in page.content.decode()
    api = client.get("/api/v1/rows/CT-01/")
    assert (api.status_code, api.json()) == (500, {"error": "Server error.", "status": 500})
