"""Hostile round four, who gets in where: a delegated token permission never reaches another user,
uploads are a permission of each target, tokens are scoped and expire, revocation holds, a moved
URL never takes its stored credential along, users' own lab runs stay theirs, the log-in throttle
holds under concurrent guesses, and HEAD is answered everywhere. The authorisation matrix of the
writes is `MATRIX` below: caller × surface → answer."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client
from django.utils import timezone

from comparison.models import ProbeRun, ProbeTarget
from comparison.models.lab import HostObservation
from comparison.models.tokens import SCOPES, ApiToken
from comparison.services.probing import ensure_builtin_target
from tests.support.processes import PROJECT, manage
from tests.support.upload_reports import probe_report

pytestmark = pytest.mark.django_db
PASSWORD = "pw-for-the-hostile-round-4"
ALL_SCOPES = [code for code, _ in SCOPES]


def _user(name: str, *perms: str, staff: bool = False, superuser: bool = False) -> User:
    if superuser:
        return User.objects.create_superuser(name, password=PASSWORD)
    user = User.objects.create_user(name, password=PASSWORD, is_staff=staff)
    for codename in perms:
        user.user_permissions.add(Permission.objects.get(codename=codename))
    return user


def _bearer(secret: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def _logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- 1. a delegated token permission stays with its holder --------------------------------------


def test_a_staff_user_who_may_add_tokens_makes_them_for_themselves_alone():
    root = _user("root", superuser=True)
    eve = _user("eve", "add_apitoken", "view_apitoken", staff=True)
    client = _logged_in(eve)
    form = client.get("/admin/comparison/apitoken/add/").content.decode()
    assert 'name="user"' not in form, "the form offers no other user"
    expires = (timezone.now() + timedelta(days=10)).date().isoformat()
    answer = client.post(
        "/admin/comparison/apitoken/add/",
        {"user": root.pk, "name": "mine", "scopes": ALL_SCOPES, "expires_0": expires, "expires_1": "00:00"},
    )
    assert answer.status_code == 200, answer.content[:500]
    made = ApiToken.objects.get()
    assert made.user == eve, "a forged user field is ignored"
    assert not ApiToken.objects.filter(user=root).exists()
    secret = answer.content.decode().split('<code id="token-secret">')[1].split("<")[0]
    # The escalation: with the superuser's token a stdio target with a shell command, then a run.
    stdio = {"name": "shell", "transport": "stdio", "command": ["sh", "-c", "id > /tmp/owned"]}
    refused = Client().post("/api/v1/targets/", stdio, content_type="application/json", **_bearer(secret))
    assert refused.status_code == 403
    assert not ProbeTarget.objects.filter(name="shell").exists()


def test_a_staff_user_who_may_change_tokens_never_reaches_anothers_nor_moves_or_unrevokes_their_own():
    root = _user("root", superuser=True)
    roots, _ = ApiToken.issue(root, "root CI", scopes=ALL_SCOPES)
    mallory = _user("mallory", "change_apitoken", "view_apitoken", staff=True)
    own, _ = ApiToken.issue(mallory, "mine")
    ApiToken.objects.filter(pk=own.pk).update(revoked=timezone.now())
    client = _logged_in(mallory)
    assert client.get(f"/admin/comparison/apitoken/{roots.pk}/change/").status_code == 302  # "does not exist"
    listing = client.get("/admin/comparison/apitoken/").content.decode()
    assert "root CI" not in listing
    expires = (timezone.now() + timedelta(days=5)).date().isoformat()
    client.post(
        f"/admin/comparison/apitoken/{own.pk}/change/",
        {"user": root.pk, "name": "renamed", "scopes": ["upload"], "expires_0": expires, "expires_1": "00:00",
         "revoked_0": "", "revoked_1": "", "revoked": ""},
    )  # fmt: skip
    own.refresh_from_db()
    assert own.name == "renamed", "the change went through"
    assert own.user == mallory, "a token's user never changes"
    assert own.revoked is not None, "revoked stays revoked"


def test_even_a_superuser_cannot_clear_a_revocation():
    root = _user("root", superuser=True)
    token, secret = ApiToken.issue(root, "CI", scopes=ALL_SCOPES)
    client = _logged_in(root)
    client.post("/admin/comparison/apitoken/", {"action": "revoke", "_selected_action": [token.pk]})
    expires = (timezone.now() + timedelta(days=5)).date().isoformat()
    client.post(
        f"/admin/comparison/apitoken/{token.pk}/change/",
        {"name": "CI", "scopes": ALL_SCOPES, "expires_0": expires, "expires_1": "00:00", "revoked": ""},
    )
    token.refresh_from_db()
    assert token.revoked is not None
    assert Client().post("/api/v1/runs/", {}, content_type="application/json", **_bearer(secret)).status_code == 401


# --- 2 and 4. the writes, caller by caller -------------------------------------------------------


@pytest.fixture
def world(db):
    builtin = ensure_builtin_target()
    proxy = ProbeTarget.objects.create(name="myproxy", transport="http", url="http://127.0.0.1:3301/mcp")
    other = ProbeTarget.objects.create(name="other", transport="http", url="http://127.0.0.1:3302/mcp")
    ci = _user("ci")
    proxy.uploaders.add(ci)
    people = {
        "ci": ci,
        "runner": _user("runner", "run_probe"),
        "nobody": _user("nobody"),
        "staff-one-permission": _user("staffer", "add_apitoken", staff=True),
        "root": _user("root", superuser=True),
        "target-editor": _user("editor", "add_probetarget", "change_probetarget"),
    }
    return {"builtin": builtin, "myproxy": proxy, "other": other, "people": people}


def _secret(world, caller: str) -> str | None:
    """The caller's token: `person` (every scope) or `person:scope` or `person@target` (limited)."""
    if caller == "anonymous":
        return None
    person, _, limit = caller.replace("@", ":@").partition(":")
    scopes = [limit] if limit and not limit.startswith("@") else ALL_SCOPES
    targets = [world[limit[1:]]] if limit.startswith("@") else []
    return ApiToken.issue(world["people"][person], caller, scopes=scopes, targets=targets)[1]


#: caller × surface → the answer the API gives (the tests below hold every cell).
MATRIX = {
    ("anonymous", "upload into myproxy"): 401,
    ("nobody", "upload into myproxy"): 403,
    ("runner", "upload into myproxy"): 403,
    ("ci:run", "upload into myproxy"): 403,
    ("ci@other", "upload into myproxy"): 403,
    ("ci", "upload into myproxy"): 201,
    ("ci:upload", "upload into myproxy"): 201,
    ("ci", "upload into other"): 403,
    ("root", "upload into myproxy"): 201,
    ("root", "upload into the built-in target"): 403,
    ("anonymous", "start a run of myproxy"): 401,
    ("ci:upload", "start a run of myproxy"): 403,
    ("runner:upload", "start a run of myproxy"): 403,
    ("runner@other", "start a run of myproxy"): 403,
    ("runner", "start a run of myproxy"): 201,
    ("staff-one-permission", "create a stdio target"): 403,
    ("runner", "create a stdio target"): 403,
    ("root:run", "create a stdio target"): 403,
    ("root", "create a stdio target"): 201,
    ("target-editor", "create a stdio target"): 403,
    ("target-editor", "create an HTTP target"): 201,
    ("target-editor", "give myproxy a command"): 403,
}


def _surface(surface: str, world, client: Client, headers: dict, report: dict):
    if surface.startswith("upload into"):
        name = {"upload into myproxy": "myproxy", "upload into other": "other"}.get(surface, world["builtin"].name)
        return client.post(
            f"/api/v1/runs/upload/?target={name}", report, content_type="application/json", **headers
        )  # fmt: skip
    if surface == "start a run of myproxy":
        body = {"target": world["myproxy"].pk, "revisions": ["2025-06-18"], "scenarios": ["text"]}
        return client.post("/api/v1/runs/", body, content_type="application/json", **headers)
    if surface == "give myproxy a command":
        path = f"/api/v1/targets/{world['myproxy'].pk}/"
        return client.patch(path, {"command": ["sh", "-c", "id"]}, content_type="application/json", **headers)
    if surface == "create an HTTP target":
        body = {"name": "http-made", "transport": "http", "url": "http://127.0.0.1:3999/mcp"}
        return client.post("/api/v1/targets/", body, content_type="application/json", **headers)
    body = {"name": f"stdio-{len(headers)}", "transport": "stdio", "command": ["true"]}
    return client.post("/api/v1/targets/", body, content_type="application/json", **headers)


def test_the_authorisation_matrix_of_the_writes(world, settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}  # queued, not run
    report = probe_report()
    found = {}
    for (caller, surface), _ in MATRIX.items():
        secret = _secret(world, caller)
        headers = _bearer(secret) if secret else {}
        # A fresh body per upload: a replay would be answered 200 with the run already made.
        body = {**report, "results": [dict(report["results"][0], duration_ms=len(found))]}
        found[(caller, surface)] = _surface(surface, world, Client(), headers, body).status_code
        ProbeRun.objects.filter(status__in=["queued", "running"]).update(status="cancelled")
    assert found == MATRIX


def test_an_expired_token_is_no_token_and_a_new_one_can_only_upload_by_default(world):
    token, secret = ApiToken.issue(world["people"]["ci"], "CI")
    assert token.scopes == ["upload"]
    assert token.expires - timezone.now() > timedelta(days=80)
    ApiToken.objects.filter(pk=token.pk).update(expires=timezone.now() - timedelta(seconds=1))
    answer = Client().post(
        "/api/v1/runs/upload/?target=myproxy", probe_report(), content_type="application/json", **_bearer(secret)
    )
    assert answer.status_code == 401


# --- 4. a moved URL never takes its stored credential along -------------------------------------


def test_moving_a_targets_url_to_another_origin_needs_its_headers_again(world):
    proxy = world["myproxy"]
    proxy.headers = {"X-Key": "s3cret-4821"}
    proxy.save()
    headers = _bearer(_secret(world, "root"))
    client = Client()
    path = f"/api/v1/targets/{proxy.pk}/"
    moved = client.patch(path, {"url": "http://127.0.0.1:9999/mcp"}, content_type="application/json", **headers)
    assert moved.status_code == 409
    assert "enter them again" in moved.json()["error"].lower()
    proxy.refresh_from_db()
    assert (proxy.url, proxy.headers) == ("http://127.0.0.1:3301/mcp", {"X-Key": "s3cret-4821"})
    same_origin = client.patch(
        path, {"url": "http://127.0.0.1:3301/v2/mcp"}, content_type="application/json", **headers
    )
    assert same_origin.status_code == 200
    proxy.refresh_from_db()
    assert proxy.headers == {"X-Key": "s3cret-4821"}
    again = {"url": "http://127.0.0.1:9999/mcp", "headers": {"X-Key": "for-the-new-place"}}
    assert client.patch(path, again, content_type="application/json", **headers).status_code == 200
    dropped = client.patch(
        path, {"url": "http://127.0.0.1:9000/mcp", "headers": {}}, content_type="application/json", **headers
    )
    assert dropped.status_code == 200
    proxy.refresh_from_db()
    assert proxy.headers == {}


def test_an_admin_who_may_edit_targets_but_not_commands_sees_them_read_only(world):
    editor = _user("editor2", "add_probetarget", "change_probetarget", "view_probetarget", staff=True)
    client = _logged_in(editor)
    form = client.get("/admin/comparison/probetarget/add/").content.decode()
    assert 'name="command"' not in form
    assert 'name="launch"' not in form
    assert 'name="env"' not in form
    assert (
        'name="command"'
        in _logged_in(world["people"]["root"]).get("/admin/comparison/probetarget/add/").content.decode()
    )


def test_the_admin_form_refuses_a_moved_url_with_its_headers_left_blank(world):
    proxy = world["myproxy"]
    proxy.headers = {"X-Key": "s3cret-4821"}
    proxy.save()
    client = _logged_in(world["people"]["root"])
    form = {
        "name": "myproxy", "transport": "http", "url": "http://198.51.100.1:80/mcp", "command": "[]",
        "headers": '{"X-Key": ""}', "upstream_headers": "{}", "env": "{}", "upstream_description": "",
        "suite": "fixture", "upstream": "", "launch": "[]", "enabled": "on",
    }  # fmt: skip
    page = client.post(f"/admin/comparison/probetarget/{proxy.pk}/change/", form)
    assert page.status_code == 200
    assert "moved to another origin" in page.content.decode()
    proxy.refresh_from_db()
    assert proxy.url == "http://127.0.0.1:3301/mcp"


# --- 4. a user's own-server lab runs are theirs --------------------------------------------------


def test_own_server_lab_runs_are_hidden_from_visitors(world):
    fields = {
        "host": "codex",
        "label": "Codex CLI",
        "version": "1",
        "scenario": "my_tool",
        "measured_at": timezone.now(),
    }
    mine = HostObservation.objects.create(key="codex@1/my_tool/user-server/abc", server="user", **fields)
    shared = HostObservation.objects.create(key="codex@1/text/fixture-x/lab-y", server="fixture", **fields)
    for path in (f"/hosts/observations/{mine.pk}/", f"/api/v1/hosts/observations/{mine.pk}/"):
        assert Client().get(path).status_code == 404, path
        assert _logged_in(world["people"]["nobody"]).get(path).status_code == 404, path
        assert _logged_in(world["people"]["runner"]).get(path).status_code == 200, path
    assert Client().get(f"/hosts/observations/{shared.pk}/").status_code == 200
    assert Client().get("/hosts/lab/abc/").status_code == 403


# --- 4. the log-in throttle under concurrent guesses ---------------------------------------------


GUESSER = """
import sys, time, django
django.setup()
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.test import RequestFactory
checked, original = 0, User.check_password
def counted(user, raw):  # the password check itself, as it is, counted
    global checked
    checked += 1
    return original(user, raw)
User.check_password = counted
start = float(sys.argv[1])
while time.time() < start:
    time.sleep(0.005)
for pair in sys.argv[2:]:
    name, address = pair.split("@")
    authenticate(RequestFactory().post("/accounts/login/", REMOTE_ADDR=address), username=name, password="wrong")
print(checked)
"""


def _concurrent_guesses(pairs: list[tuple[str, str]], database: str, cache: Path, per_user: int, per_address: int):
    """Every (name, address) guessed with a wrong password at once, as web workers would: ten
    processes sharing the database and the page cache's folder, each starting at the same moment;
    how many guesses had their password checked."""
    env = {**os.environ, "DATABASE_URL": database, "DJANGO_SETTINGS_MODULE": "mcp_compare.settings",
           "MCP_COMPARE_CACHE_DIR": str(cache), "MCP_COMPARE_LOGIN_FAILURES_PER_USER": str(per_user),
           "MCP_COMPARE_LOGIN_FAILURES_PER_ADDRESS": str(per_address), "MCP_COMPARE_SECRET_KEY": "k" * 50}  # fmt: skip
    names = sorted({name for name, _ in pairs})
    make = "from django.contrib.auth.models import User; from django.contrib.auth.hashers import make_password; "
    make += f"p = make_password('right'); User.objects.bulk_create([User(username=n, password=p) for n in {names!r}])"
    manage("shell", "-c", make, env=env)
    start = time.time() + 8  # every process has imported Django by then
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", GUESSER, str(start), *(f"{name}@{address}" for name, address in pairs[i::10])],
            cwd=PROJECT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(10)
    ]
    counted = []
    for process in processes:
        try:
            out, err = process.communicate(timeout=120)
        finally:
            process.kill()
        assert process.returncode == 0, err[-2000:]
        counted.append(int(out.split()[-1]))
    return sum(counted)


def test_thirty_guesses_at_once_for_one_name_check_no_more_than_the_limit(lane_database, tmp_path):
    guesses = [("alice", f"198.51.100.{i}") for i in range(30)]
    assert _concurrent_guesses(guesses, lane_database, tmp_path / "cache", per_user=5, per_address=1000) == 5


def test_a_hundred_names_at_once_from_one_address_check_no_more_than_the_limit(lane_database, tmp_path):
    guesses = [(f"name{i}", "203.0.113.5") for i in range(100)]
    assert _concurrent_guesses(guesses, lane_database, tmp_path / "cache", per_user=5, per_address=20) == 20


# --- 8. HEAD ---------------------------------------------------------------------------------------


def test_head_is_answered_like_get_without_a_body(loaded):
    target = ensure_builtin_target()
    for path in ("/", "/matrix/", "/probes/", "/hosts/", "/healthz", f"/probes/targets/{target.pk}/badge.svg",
                 "/api/v1/rows/", "/api/v1/targets/"):  # fmt: skip
        answer = Client().head(path)
        assert answer.status_code == 200, (path, answer.status_code)
        assert answer.content == b"", path
        assert int(answer["Content-Length"]) > 0, path


def test_an_origin_is_scheme_host_and_port_with_the_default_port_filled_in():
    from comparison.services.target_credentials import moved, origin

    assert origin("http://Example.org/mcp") == origin("http://example.org:80/other") == ("http", "example.org", 80)
    assert origin("https://example.org/") != origin("http://example.org/")
    kept = {"url": "http://127.0.0.1:3301/mcp", "headers": {"X-Key": "k"}}
    assert moved(kept, {**kept, "url": "http://127.0.0.1:3301/v2"}, {}) == []
    assert moved(kept, {**kept, "url": "http://127.0.0.1:3302/mcp"}, {}) == ["url"]
    assert moved(kept, {**kept, "url": "http://127.0.0.1:3302/mcp"}, {"headers": {"X-Key": ""}}) == ["url"]
    assert moved(kept, {**kept, "url": "http://127.0.0.1:3302/mcp"}, {"headers": {"X-Key": "new"}}) == []
    assert moved({**kept, "headers": {}}, {"url": "http://elsewhere/"}, {}) == [], "nothing stored, nothing to keep"
