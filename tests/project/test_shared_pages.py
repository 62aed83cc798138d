"""Issue 53, item 1: every main page and API read is served to logged-in users from a copy shared
by the users holding the same permissions, and nothing of one user's reaches another: each page
served from another user's copy is the page rendered for that user alone, its forms' CSRF tokens
are that user's own, and a form only some permissions show stays with them."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission, User
from django.core.cache import cache
from django.db import connection
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
GRANTED = ("comparison.run_probe", "registers.verify_citations", "comparison.add_probetarget")


def main_pages(target_pk: int, run_pk: int) -> list[str]:
    return [
        "/", "/matrix/?risk=high", "/registers/", "/registers/tools/", "/registers/tools/TOOL-14/",
        "/registers/tools/proposals/", "/disagreements/", "/probes/", f"/probes/targets/{target_pk}/",
        "/hosts/", "/hosts/codex/", "/hosts/compare/?a=codex&b=claude-code", "/hosts/features/image/",
        "/glossary/", "/api/v1/rows/?revision=2025-06-18", "/api/v1/rows/TOOL-14/", "/api/v1/registers/",
        "/api/v1/disagreements/", f"/api/v1/runs/{run_pk}/", "/api/v1/targets/", "/api/v1/hosts/",
    ]  # fmt: skip


@pytest.fixture
def team(loaded):
    from django.core.management import call_command

    from comparison.services.probing import ensure_builtin_target
    from comparison.tasks import start_run
    from tests.conftest import LAB_SNAPSHOT

    call_command("host_lab", "--load-snapshot", str(LAB_SNAPSHOT))

    granted = User.objects.create_user("granted", password="pw-granted-12345", is_staff=True)
    for name in GRANTED:
        app, codename = name.split(".")
        granted.user_permissions.add(Permission.objects.get(content_type__app_label=app, codename=codename))
    User.objects.create_user("plain", password="pw-plain-12345")
    User.objects.create_user("other", password="pw-other-12345")
    target = ensure_builtin_target()
    run = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    return target, run


def logged_in(name: str) -> Client:
    client = Client()
    assert client.login(username=name, password=f"pw-{name}-12345")
    return client


def without_tokens(page: str) -> str:
    return TOKEN.sub('name="csrfmiddlewaretoken" value=""', page)


def own_tokens(client: Client, page: str) -> bool:
    """Every token of the page is this client's (the cookie holds the secret each one masks)."""
    secret = client.cookies["csrftoken"].value
    return all(_unmask_cipher_token(token) == secret for token in TOKEN.findall(page))


def test_a_page_from_another_users_copy_is_the_page_rendered_for_this_user_alone(team):
    target, run = team
    for url in main_pages(target.pk, run.pk):
        alone = {}
        for name in ("granted", "plain"):
            cache.clear()
            alone[name] = without_tokens(logged_in(name).get(url).content.decode())
        cache.clear()
        granted, plain = logged_in("granted"), logged_in("plain")
        for first, then in ((granted, plain), (plain, granted)):
            cache.clear()
            first.get(url)
            served = then.get(url)
            assert served.status_code == 200, url
            name = "granted" if then is granted else "plain"
            assert without_tokens(served.content.decode()) == alone[name], (url, name)
            if TOKEN.search(served.content.decode()):
                assert own_tokens(then, served.content.decode()), (url, name)


def test_users_with_the_same_permissions_share_one_copy(team):
    target, run = team
    for url in main_pages(target.pk, run.pk):
        cache.clear()
        logged_in("plain").get(url)
        other = logged_in("other")
        with CaptureQueriesContext(connection) as served:
            page = other.get(url)
        assert page.status_code == 200, url
        rendered = [
            q["sql"] for q in served.captured_queries if "registers_row" in q["sql"] or "comparison_probe" in q["sql"]
        ]
        assert rendered == [], (url, rendered[:2])
        assert "Log out other" in page.content.decode() or url.startswith("/api/"), url


def test_the_forms_only_a_permission_shows_are_in_that_users_copy_alone(team):
    target, _ = team
    forms = {
        "/registers/tools/": 'action="/registers/tools/verify/"',
        f"/probes/targets/{target.pk}/": 'class="run-form"',
        "/probes/": "add one</a>",
    }
    for url, form in forms.items():
        cache.clear()
        granted = logged_in("granted").get(url).content.decode()
        plain = logged_in("plain")
        page = plain.get(url).content.decode()
        assert form in granted, url
        assert form not in page, url
        token = TOKEN.search(granted)
        if token and form != "add one</a>":
            posted = plain.post(url, {"csrfmiddlewaretoken": token.group(1)})
            assert posted.status_code in (403, 405), url


def test_a_change_is_seen_by_the_next_request_of_a_visitor_and_of_a_user(team):
    from registers.models import Row

    user, visitor = logged_in("plain"), Client()
    url = "/registers/tools/TOOL-14/"
    for client in (user, visitor):
        assert "A title changed" not in client.get(url).content.decode()
    row = Row.objects.get(register__slug="tools", row_id="TOOL-14")
    row.title, row.title_html = "A title changed", "A title changed"
    row.save()
    for client in (user, visitor):
        assert "A title changed" in client.get(url).content.decode()


def test_a_permission_granted_or_taken_is_seen_by_the_users_next_request(team):
    """The permission profiles are kept per process: a grant, a group joined and a revocation are
    each seen at once, by every process (the data version's permissions token)."""
    from django.contrib.auth.models import Group

    url, form = "/registers/tools/", 'action="/registers/tools/verify/"'
    plain = logged_in("plain")
    assert form not in plain.get(url).content.decode()
    user = User.objects.get(username="plain")
    verify = Permission.objects.get(content_type__app_label="registers", codename="verify_citations")
    user.user_permissions.add(verify)
    assert form in plain.get(url).content.decode(), "a grant is seen at once"
    user.user_permissions.remove(verify)
    assert form not in plain.get(url).content.decode(), "a revocation is seen at once"
    group = Group.objects.create(name="verifiers")
    group.permissions.add(verify)
    user.groups.add(group)
    assert form in plain.get(url).content.decode(), "a group joined is seen at once"
    group.permissions.remove(verify)
    assert form not in plain.get(url).content.decode(), "a group's permission taken is seen at once"
