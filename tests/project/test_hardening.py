"""Hardening (issue 21, rows 9–11): a 404 page that says only what was not found, a
Content-Security-Policy that every page keeps, and login throttling on both log-in pages."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from tests.conftest import PROJECT

pytestmark = pytest.mark.django_db
PASSWORD = "right-pw-12345"


def test_a_404_says_what_was_not_found_and_nothing_of_the_url_table(client):
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


PAGES = ["/", "/matrix/", "/registers/", "/disagreements/", "/playground/", "/probes/", "/accounts/login/"]


def test_every_page_carries_a_policy_without_inline_script_or_eval(loaded, client):
    for url in [*PAGES, "/no/such/page/"]:
        policy = client.get(url)["Content-Security-Policy"]
        directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
        assert directives["script-src"] == "'self'", url
        assert directives["style-src"] == "'self'", url
        assert directives["object-src"] == "'none'"
        assert directives["frame-ancestors"] == "'none'"
        assert "unsafe" not in policy, url


def test_the_html_export_is_served_with_its_own_policy(loaded, client):
    policy = client.get("/export.html")["Content-Security-Policy"]
    assert "style-src 'unsafe-inline'" in policy
    assert "default-src 'none'" in policy
    assert "script" not in policy, "no script may run in an export"


def test_no_template_needs_inline_script_inline_style_or_eval():
    """What the policy would block, caught before a browser sees it."""
    offences = []
    for template in (PROJECT / "templates").rglob("*.html"):
        if template.parts[-2] == "reports":  # exports: inline CSS by design, served with their own policy
            continue
        text = template.read_text()
        for pattern in (r"<script(?![^>]*\bsrc=)[^>]*>", r"\bhx-on", r"\son[a-z]+=", r'\sstyle="', r"<style"):
            offences += [f"{template.name}: {match}" for match in re.findall(pattern, text)]
    assert offences == []


@pytest.fixture
def user(db):
    return User.objects.create_user("alice", password=PASSWORD)


def log_in(client, username: str, password: str, path: str = "/accounts/login/", address: str = "198.51.100.7"):
    return client.post(path, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_five_wrong_passwords_lock_the_name_even_against_the_right_one(client, user, settings):
    settings.LOGIN_FAILURES_PER_USER, settings.LOGIN_FAILURES_PER_ADDRESS = 5, 20
    for _ in range(5):
        assert log_in(client, "alice", "wrong").status_code == 200
    locked = log_in(client, "alice", PASSWORD)
    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.content.decode()
    assert settings.LOGIN_LOCKOUT_SECONDS - 60 < int(locked["Retry-After"]) <= settings.LOGIN_LOCKOUT_SECONDS
    assert "_auth_user_id" not in client.session
    # The admin's own login page is throttled as well: the backend refuses the name (alice is staff,
    # so nothing else would keep her out).
    User.objects.filter(username="alice").update(is_staff=True)
    admin = log_in(client, "alice", PASSWORD, path="/admin/login/")
    assert "_auth_user_id" not in client.session
    assert admin.status_code == 200
    # Another user from another address is not held up.
    User.objects.create_user("bob", password=PASSWORD)
    assert log_in(client, "bob", PASSWORD, address="203.0.113.9").status_code == 302


def test_one_address_trying_many_names_is_locked_and_a_success_clears_the_names_count(client, user, settings):
    settings.LOGIN_FAILURES_PER_USER, settings.LOGIN_FAILURES_PER_ADDRESS = 3, 6
    for _ in range(2):
        log_in(client, "alice", "wrong")
    assert log_in(client, "alice", PASSWORD).status_code == 302, "two failures lock nothing"
    client.logout()
    log_in(client, "alice", "wrong")
    assert log_in(client, "alice", PASSWORD).status_code == 302, "the success forgot the name's two failures"
    client.logout()
    for n in range(6):
        log_in(client, f"guess-{n}", "wrong", address="192.0.2.50")
    by_address = log_in(client, "alice", PASSWORD, address="192.0.2.50")
    assert by_address.status_code == 429
    wait = int(by_address["Retry-After"])
    assert settings.LOGIN_LOCKOUT_SECONDS - 60 < wait <= settings.LOGIN_LOCKOUT_SECONDS, "the address's lock"
    assert log_in(client, "alice", PASSWORD, address="192.0.2.51").status_code == 302, "the name itself is not locked"


def test_a_404_is_a_whole_page_and_cuts_long_paths_and_messages_at_300_characters(client):
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


def test_a_database_error_is_a_503_page_or_json_with_retry_after(client, failing_rows):
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


def test_a_value_the_database_refuses_is_a_400_not_an_outage(client, failing_rows):
    """PostgreSQL refuses an integer past its range or a NUL in text with a DataError; the database
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


def test_any_other_error_is_a_plain_500_page_or_json(client, failing_rows):
    client.raise_request_exception = False
    failing_rows["error"] = ValueError("a bug of ours")
    page = client.get("/rows/CT-01/")
    assert page.status_code == 500
    assert "<h1>Server error</h1>" in page.content.decode()
    assert "a bug of ours" not in page.content.decode()
    api = client.get("/api/v1/rows/CT-01/")
    assert (api.status_code, api.json()) == (500, {"error": "Server error.", "status": 500})


@pytest.mark.parametrize(("lockout", "says"), [(60, "about 1 minute."), (900, "about 15 minutes.")])
def test_the_lockout_says_how_long_in_minutes(client, user, settings, lockout, says):
    settings.LOGIN_FAILURES_PER_USER, settings.LOGIN_LOCKOUT_SECONDS = 2, lockout
    for _ in range(2):
        log_in(client, "alice", "wrong")
    text = log_in(client, "alice", PASSWORD).content.decode()
    assert f"from this address: try again in {says}" in text
