"""Every configured credential stays secret everywhere: every page (anonymous and admin), every
export, every command's output and the logs, whatever the header is called."""

from __future__ import annotations

import json
import logging
import sys
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from comparison.models import ProbeResult, ProbeRun, ProbeTarget
from comparison.probes.targets.secrets import display_command, display_url
from comparison.tasks import start_run
from tests.support.processes import free_port, server

pytestmark = pytest.mark.django_db

# Header names the old name-based masking let through, and the usual ones.
HEADERS = {
    "Api-Key": "val-api-key-111",
    "X-Auth": "val-x-auth-222",
    "apikey": "val-apikey-333",
    "X-Access-Key": "val-access-444",
    "X-Password": "val-password-555",
    "Ocp-Apim-Subscription-Key": "val-ocp-666",
    "Authorization": "Bearer val-bearer-777",
    "X-Tenant": "val-tenant-888",
}
QUERY_SECRET = "val-query-999"
UPSTREAM_SECRET = "val-upstream-000"
SECRETS = [*HEADERS.values(), QUERY_SECRET, UPSTREAM_SECRET]


@pytest.fixture(scope="module")
def fixture_port():
    port = free_port()
    with server([sys.executable, "-m", "comparison.probes.fixture.fixture_server", "--port", str(port)], port):
        yield port


@pytest.fixture
def probed(fixture_port, loaded, caplog):
    url = f"http://127.0.0.1:{fixture_port}/mcp?api_key={QUERY_SECRET}&tenant=acme"
    target = ProbeTarget.objects.create(
        name="secret proxy",
        transport="http",
        url=url,
        headers=HEADERS,
        upstream=f"http://127.0.0.1:{fixture_port}/mcp",
        upstream_headers={"Authorization": f"Bearer {UPSTREAM_SECRET}"},
    )
    with caplog.at_level(logging.DEBUG):
        run = start_run(target=target, revisions=["2025-06-18"], scenarios=["text", "rpc-error", "is-error"])
    run.refresh_from_db()
    assert run.status == ProbeRun.DONE
    return target, run


def assert_clean(text: str, where: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"{secret} shown in {where}"


def body(response) -> str:
    return (b"".join(response.streaming_content) if response.streaming else response.content).decode()


def pages(target: ProbeTarget, run: ProbeRun) -> list[str]:
    results = list(ProbeResult.objects.filter(run=run).values_list("pk", flat=True))
    return [
        "/",
        "/matrix/",
        "/registers/",
        "/registers/content-types/",
        "/registers/content-types/CT-01/",
        "/registers/failure-gap/FG-16/",
        "/playground/",
        "/probes/",
        target.get_absolute_url(),
        run.get_absolute_url(),
        f"/probes/runs/{run.pk}/audit/",
        f"/probes/runs/{run.pk}/audit/?format=json",
        f"/probes/runs/{run.pk}/audit/?format=csv",
        f"/probes/compare/?a={run.pk}&b={run.pk}",
        f"/probes/compare/?run={run.pk}&run={run.pk}",
        f"/probes/compare/?run={run.pk}&format=md",
        f"/probes/compare/?run={run.pk}&format=html",
        f"/probes/compare/?run={run.pk}&format=json",
        f"/probes/compare/?run={run.pk}&format=csv",
        f"/probes/targets/{target.pk}/badge.svg",
        "/disagreements/",
        *(f"/probes/results/{pk}/" for pk in results),
        *(f"/export.{fmt}" for fmt in ("md", "html", "json", "csv")),
        "/api/v1/targets/",
        f"/api/v1/targets/{target.pk}/",
        "/api/v1/runs/",
        f"/api/v1/runs/{run.pk}/",
        f"/api/v1/compare/?run={run.pk}",
        "/api/v1/rows/?register=content-types",
        "/api/v1/rows/CT-01/",
        *(f"/api/v1/results/{pk}/" for pk in results),
    ]


ADMIN_PAGES = [
    "/admin/",
    "/admin/comparison/probetarget/",
    "/admin/comparison/probetarget/{target}/change/",
    "/admin/comparison/proberun/",
    "/admin/comparison/proberun/{run}/change/",
    "/admin/comparison/proberesult/",
    "/admin/django_tasks_database/dbtaskresult/",
]


def test_no_page_shows_a_credential(probed, client, admin_client, caplog):
    target, run = probed
    for page in pages(target, run):
        for who, visitor in (("anonymous", client), ("admin", admin_client)):
            response = visitor.get(page)
            assert response.status_code == 200, (who, page)
            assert_clean(body(response), f"{page} ({who})")
    for page in ADMIN_PAGES:
        response = admin_client.get(page.format(target=target.pk, run=run.pk))
        assert response.status_code == 200, page
        assert_clean(body(response), page)
    for pk in ProbeResult.objects.filter(run=run).values_list("pk", flat=True):
        assert_clean(body(admin_client.get(f"/admin/comparison/proberesult/{pk}/change/")), "result admin")
    logged = [record.getMessage() for phase in ("setup", "call") for record in caplog.get_records(phase)]
    assert any("api_key=•••" in line for line in logged), "the probe's exchanges were logged, URL masked"
    assert_clean("\n".join(logged), "the logs")
    detail = client.get(target.get_absolute_url()).content.decode()
    for name in HEADERS:
        assert f"{name}: ••• (configured)" in detail
    assert "api_key=•••" in detail
    assert "tenant=acme" in detail


def test_every_exchange_masks_every_configured_header(probed):
    _, run = probed
    for result in ProbeResult.objects.filter(run=run):
        for exchange in result.exchanges:
            shown = exchange["request_headers"]
            assert {shown[name] for name in HEADERS} == {"••• (configured)"}
        assert_clean(json.dumps(result.exchanges), "stored exchanges")


def test_the_admin_keeps_stored_credentials_it_never_shows(probed, admin_client):
    target, _ = probed
    form = admin_client.get(f"/admin/comparison/probetarget/{target.pk}/change/").content.decode()
    assert "api_key=•••" in form
    data = {
        "name": target.name,
        "transport": "http",
        "url": display_url(target.url),
        "command": "[]",
        "headers": json.dumps(dict.fromkeys(HEADERS, "")),
        "upstream_headers": json.dumps({"Authorization": ""}),
        "upstream_description": "",
        "suite": "fixture",
        "upstream": target.upstream,
        "enabled": "on",
    }
    response = admin_client.post(f"/admin/comparison/probetarget/{target.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[-3000:]
    target.refresh_from_db()
    assert target.headers == HEADERS
    assert QUERY_SECRET in target.url


def test_userinfo_in_a_url_is_refused_with_a_pointer_to_headers(admin_client):
    data = {
        "name": "userinfo",
        "transport": "http",
        "url": "http://user:pa55word@127.0.0.1:9/mcp",
        "command": "[]",
        "headers": "{}",
        "upstream_headers": "{}",
        "suite": "fixture",
        "upstream": "http://u:p@127.0.0.1:10/mcp",
        "enabled": "on",
    }
    response = admin_client.post("/admin/comparison/probetarget/add/", data)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Credentials in the URL" in html
    assert "put the credential in Headers instead" in html
    assert "put the credential in Upstream headers instead" in html
    assert not ProbeTarget.objects.filter(name="userinfo").exists()


def test_the_migration_moves_userinfo_into_an_authorization_header():
    from importlib import import_module

    from django.apps import apps

    migration = import_module("comparison.migrations.0003_run_lease_and_credentials")
    target = ProbeTarget.objects.create(name="old", transport="http", url="http://al:s3cr3tpw@127.0.0.1:9/mcp")
    run = ProbeRun.objects.create(target=target, error="failed at http://al:s3cr3tpw@127.0.0.1:9/mcp")
    ProbeTarget.objects.filter(pk=target.pk).update(url="http://al:s3cr3tpw@127.0.0.1:9/mcp")
    migration.move_credentials_out_of_urls(apps, None)
    target.refresh_from_db()
    run.refresh_from_db()
    assert target.url == "http://127.0.0.1:9/mcp"
    assert target.headers == {"Authorization": "Basic YWw6czNjcjN0cHc="}
    assert "s3cr3tpw" not in run.error


def test_command_outputs_never_show_a_credential(probed, fixture_port, capsys, monkeypatch):
    target, _ = probed
    outputs = []
    for args in (
        [target.name, "--json", "--revisions", "2025-06-18", "--scenarios", "text", "rpc-error"],
        [target.name, "--revisions", "2025-06-18", "--scenarios", "text", "is-error", "--audit"],
    ):
        try:
            call_command("probe", *args)
        except CommandError as error:
            outputs.append(str(error))
        captured = capsys.readouterr()
        outputs += [captured.out, captured.err]
    for fmt in ("md", "html", "json", "csv"):
        out = StringIO()
        call_command("export_report", "--format", fmt, stdout=out)
        outputs.append(out.getvalue())
    captured = capsys.readouterr()
    outputs += [captured.out, captured.err]
    monkeypatch.setenv("PROBE_KEY", HEADERS["X-Access-Key"])
    url = f"http://127.0.0.1:{fixture_port}/mcp?token={QUERY_SECRET}"
    call_command(
        "probe",
        "--url",
        url,
        "--header-env",
        "X-Access-Key=PROBE_KEY",
        "--json",
        "--revisions",
        "2025-06-18",
        "--scenarios",
        "text",
    )
    captured = capsys.readouterr()
    outputs += [captured.out, captured.err]
    assert json.loads(captured.out)["target"] == display_url(url), captured
    for output in outputs:
        assert_clean(output, "command output")
    with pytest.raises(CommandError, match="credentials in the URL"):
        call_command("probe", "--url", "http://me:pw@127.0.0.1:9/mcp")


def test_display_helpers():
    assert display_url("http://u:p@h:1/mcp?key=abc&x=1&sig=zz") == "http://u:•••@h:1/mcp?key=•••&x=1&sig=•••"
    assert display_url("http://h/mcp?access_token=abc") == "http://h/mcp?access_token=•••"
    assert display_url("http://user:p@ss@127.0.0.1:9/mcp") == "http://user:•••@127.0.0.1:9/mcp", "an @ in the password"
    assert display_command(["proxy", "--api-key", "k1", "--token=k2", "SECRET=k3", "--port", "8"]) == [
        "proxy",
        "--api-key",
        "•••",
        "--token=•••",
        "SECRET=•••",
        "--port",
        "8",
    ]
    assert reverse("login") == "/accounts/login/"


def test_a_secret_is_masked_in_keys_values_and_lists_and_nothing_else_changes():
    from comparison.probes.targets.secrets import MASK, Redactor

    redactor = Redactor(["s3cret-token"])
    data = {"s3cret-token": ["a s3cret-token b", 7], 2: None, "plain": {"k": "s3cret-token"}}
    assert redactor.data(data) == {MASK: [f"a {MASK} b", 7], 2: None, "plain": {"k": MASK}}
    assert Redactor([]).data(data) is data, "nothing configured: the data as it is"


def test_the_log_filter_masks_urls_and_never_drops_a_line():
    from comparison.probes.targets.secrets import RedactingFilter

    log_filter = RedactingFilter()
    record = logging.LogRecord("httpx", logging.INFO, __file__, 1, "GET %s", ("http://user:pw-99@127.0.0.1/x",), None)
    assert log_filter.filter(record) is True
    assert "pw-99" not in record.getMessage()
    assert "127.0.0.1/x" in record.getMessage()
    plain = logging.LogRecord("x", logging.INFO, __file__, 1, "no address %s", ("here",), None)
    assert log_filter.filter(plain) is True
    assert plain.getMessage() == "no address here"


def test_options_are_named_without_their_dashes():
    """`--www-authenticate` names a header that is no credential, as `www-authenticate` does; the
    dashes in front are not part of the name."""
    from comparison.probes.targets.secrets import command_secrets

    assert command_secrets(["srv", "--www-authenticate=Basic", "--www-authenticate", "Basic"]) == []
    assert command_secrets(["srv", "--key=k-1", "--key", "k-2", "-token", "k-3"]) == ["k-1", "k-2", "k-3"]


def test_userinfo_of_every_shape_is_hidden():
    from comparison.probes.targets.secrets import command_secrets, url_secrets

    assert display_url("http://user:pa:ss@h/") == "http://user:•••@h/", "a colon in the password"
    assert "pa:ss" in url_secrets("http://user:pa:ss@h/")
    assert display_url("http://s3cret@h/mcp") == "http://•••@h/mcp", "a token given as the user name"
    assert display_url("http://h/mcp?token=&x=1") == "http://h/mcp?token=•••&x=1", "an empty value keeps its place"
    assert command_secrets(["srv", "--token"]) == [], "an option with no value after it"


def test_an_object_is_an_envelope_only_by_its_schema():
    from comparison.core.envelope import find_envelope

    assert find_envelope({"a": 1}) is None
    assert find_envelope({"schema": "mcp-error/2", "code": "x"}) is None


def test_the_secrets_a_url_carries():
    from comparison.probes.targets.secrets import url_secrets, url_userinfo

    assert url_userinfo("http://u:p@h:1/") == "u:p"
    assert url_userinfo("http://u:p@ss@h/") == "u:p@ss"
    assert url_userinfo("http://h:1/") == ""
    assert url_userinfo("http://[::1/") == "", "a URL that does not parse carries none"
    assert url_secrets("http://u:p@ss@h/mcp?token=abc&x=1") == ["p@ss", "u", "abc"]
    assert url_secrets("http://h/mcp?token=&x=1") == [], "an empty value is no secret"


def test_header_names_are_read_whatever_their_case():
    from comparison.probes.targets.secrets import looks_like_credential

    assert not looks_like_credential("WWW-Authenticate"), "names a scheme, carries no credential"
    assert looks_like_credential("X-API-KEY")
    assert looks_like_credential(" Authorization ")


def test_a_secret_that_contains_another_is_masked_whole_and_short_values_are_no_secrets():
    from comparison.probes.targets.secrets import MASK, Redactor

    assert Redactor(["efgh", "abcdefgh"]).text("x abcdefgh y") == f"x {MASK} y"
    assert Redactor(["abcd", "abcdefgh"]).text("x abcdefgh y") == f"x {MASK} y", "not a mask and a tail"
    assert Redactor(["abcd"]).text("abcd abc") == f"{MASK} abc", "four characters are a secret"
    assert Redactor(["abc"]).text("abc") == "abc", "three are too common to mask"
    assert not Redactor(["abc", None, 1234])


#: Issue 21 row 3: command lines with secrets in the forms proxies take them, each with the
#: secret that must never be shown.
COMMAND_FORMS = [
    (["mcp-proxy", "--headers", "Authorization", "Bearer tok-aaaa1111", "http://h/mcp"], "tok-aaaa1111"),
    (["supergateway", "--header", "Authorization: Bearer tok-bbbb2222"], "tok-bbbb2222"),
    (["supergateway", "-H", "X-Api-Key: key-cccc3333", "--port", "8000"], "key-cccc3333"),
    (["env", "DATABASE_URL=postgres://u:pw-dddd4444@h/db", "srv"], "pw-dddd4444"),
    (["sh", "-c", "srv --token tok-eeee5555 --port 1"], "tok-eeee5555"),
    (["mcp-proxy", "-e", "OPENAI_API_KEY", "sk-ffff6666", "srv"], "sk-ffff6666"),
    (["mcp-proxy", "--env", "GITHUB_TOKEN=gh-gggg7777", "srv"], "gh-gggg7777"),
    (["srv", "--upstream", "https://user:pw-hhhh8888@example.test/mcp"], "pw-hhhh8888"),
    (["srv", "--auth-header=Bearer tok-iiii9999"], "tok-iiii9999"),
    (["srv", "--header=Cookie: session=ck-jjjj0000"], "ck-jjjj0000"),
    (["srv", "Authorization: Basic YmFzaWMtc2VjcmV0"], "YmFzaWMtc2VjcmV0"),
    (["docker", "run", "-e", "API_KEY=ak-kkkk1111", "image"], "ak-kkkk1111"),
    (["sh", "-c", "curl -H 'Authorization: Bearer tok-llll2222' http://h"], "tok-llll2222"),
]


@pytest.mark.parametrize(
    ("command", "secret"), COMMAND_FORMS, ids=[f"{c[0][0]}-{i}" for i, c in enumerate(COMMAND_FORMS)]
)
def test_every_command_line_form_of_a_secret_is_masked(command, secret):
    from comparison.probes.targets.secrets import Redactor, command_secrets

    shown = " ".join(display_command(command))
    assert secret not in shown, shown
    assert "•••" in shown
    assert secret not in Redactor(command_secrets(command)).text(f"echoed: {' '.join(command)}")


def test_ordinary_options_stay_readable():
    assert display_command(["srv", "-h", "127.0.0.1", "--port", "8000", "-v"]) == [
        "srv",
        "-h",
        "127.0.0.1",
        "--port",
        "8000",
        "-v",
    ]
    assert display_command(["python", "-m", "server", "--stdio"]) == ["python", "-m", "server", "--stdio"]


def test_a_credential_comes_back_masked_without_its_scheme_word_or_percent_encoded():
    """Issue 21 row 4: a target echoed the token of `Authorization: Bearer tok…` without `Bearer`,
    or percent-encoded, and it was stored and shown."""
    from urllib.parse import quote

    from comparison.probes.targets.secrets import MASK, Redactor

    redactor = Redactor(["Bearer tok/with+odd=chars"])
    for echo in ("tok/with+odd=chars", quote("tok/with+odd=chars", safe=""), "Bearer tok/with+odd=chars"):
        assert redactor.text(f"x {echo} y") == f"x {MASK} y", echo


@pytest.mark.parametrize(
    ("command", "secrets"),
    [
        (["srv", "-H"], []),
        (["srv", "-H", "X-Custom: v-2222"], ["v-2222"]),
        (["srv", "--header=X-Custom: v-2223"], ["v-2223"]),
        (["srv", "-e", "FOO=v-3333", "image"], ["v-3333"]),
        (["srv", "--env", "FOO=val=ue-4444"], ["val=ue-4444"]),
        (["srv", "-e", "NAME"], []),
        (["srv", "-e", "NAME", "v-5555"], ["v-5555"]),
        (["srv", "-h", "127.0.0.1", "--port", "8000"], []),
        (["srv", "--headers", "X-Custom", "v-6666"], ["v-6666"]),
        (["srv", "--headers", "X-Custom"], []),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) and value and value[0] == "srv" else None,
)
def test_header_and_environment_options_take_exactly_their_value(command, secrets):
    """The option's own value, found whether the option ends the line or not, named or not."""
    from comparison.probes.targets.secrets import command_secrets

    assert command_secrets(command) == secrets


def test_a_secret_with_a_space_and_a_slash_is_masked_in_each_percent_encoding():
    from comparison.probes.targets.secrets import MASK, Redactor

    redactor = Redactor(["se cret/x-1"])
    for echo in ("se%20cret%2Fx-1", "se+cret%2Fx-1", "se cret/x-1"):
        assert redactor.text(f"[{echo}]") == f"[{MASK}]", echo


def test_placeholders_take_the_environment_and_leave_other_text():
    from comparison.probes.targets.secrets import expand_placeholders

    env = {"TOKEN": "t-1", "HOST": "h"}
    command = ["srv", "Bearer ${TOKEN}", "${HOST}:${MISSING}", "$TOKEN", "${TOKEN}${TOKEN}"]
    assert expand_placeholders(command, env) == ["srv", "Bearer t-1", "h:${MISSING}", "$TOKEN", "t-1t-1"]


@pytest.mark.parametrize(
    ("command", "secrets"),
    [
        (["srv", "token", "visible-1"], []),
        (["srv", "X-Api-Key: k-7777"], ["k-7777"]),
        (["sh", "-c", "bash -c 'srv --token t-2level'"], ["t-2level"]),
        (["sh", "-c", "srv --token 'tok en-8888'"], ["tok en-8888"]),
        (["sh", "-c", "srv --token tok-9999 'unbalanced"], ["tok-9999"]),
        (["srv", "--secret s-2222"], ["s-2222"]),
    ],
    ids=["a-word-is-no-option", "bare-header", "two-shells", "quoted", "unbalanced-quote", "one-argument"],
)
def test_secrets_inside_arguments_and_shell_strings(command, secrets):
    from comparison.probes.targets.secrets import command_secrets

    assert command_secrets(command) == secrets
