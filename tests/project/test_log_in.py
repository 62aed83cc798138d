"""Log-in throttling on both log-in pages (issue 21, row 11): a name locked after five wrong
passwords, an address trying many names locked, and how long the lockout lasts."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

PASSWORD = "right-pw-12345"


@pytest.fixture
def user(db):
    return User.objects.create_user("alice", password=PASSWORD)


def log_in(client, username: str, password: str, path: str = "/accounts/login/", address: str = "198.51.100.7"):
    return client.post(path, {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.mark.django_db
def test_five_wrong_passwords_lock_the_name_even_against_the_right_one(client, user, settings):
    """Issue 21, row 11."""
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


@pytest.mark.django_db
def test_one_address_trying_many_names_is_locked_and_a_success_clears_the_names_count(client, user, settings):
    """Issue 21, row 11."""
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


@pytest.mark.django_db
@pytest.mark.parametrize(("lockout", "says"), [(60, "about 1 minute."), (900, "about 15 minutes.")])
def test_the_lockout_says_how_long_in_minutes(client, user, settings, lockout, says):
    """Issue 21, row 11."""
    settings.LOGIN_FAILURES_PER_USER, settings.LOGIN_LOCKOUT_SECONDS = 2, lockout
    for _ in range(2):
        log_in(client, "alice", "wrong")
    text = log_in(client, "alice", PASSWORD).content.decode()
    assert f"from this address: try again in {says}" in text
