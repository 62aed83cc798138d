"""Secrets on a stdio target's command line, in its environment field and in an HTTP target's
Authorization header never reach a visitor (issue 21, rows 3 and 4), with a real target that
echoes its argv, its environment and the token it was sent (tests/support/stubborn.py): what an anonymous
visitor gets from the API, the target, run and result pages, and what is stored."""

from __future__ import annotations

import json
import sys
from urllib.parse import quote

import pytest
from django.urls import reverse

from comparison.models import ProbeResult, ProbeRun, ProbeTarget
from comparison.tasks import start_run
from tests.support.processes import free_port, server

COMMAND_SECRETS = [
    "tok-aaaa1111",
    "tok-bbbb2222",
    "key-cccc3333",
    "pw-dddd4444",
    "tok-eeee5555",
    "sk-ffff6666",
    "gh-gggg7777",
]
ENV_SECRET = "env-mmmm3333"
TOKEN = "tok/row4+enc=9999"


def stubborn_command() -> list[str]:
    return [
        sys.executable,
        "-m",
        "tests.support.stubborn",
        "--stdio",
        "--echo",
        "--headers",
        "Authorization",
        "Bearer tok-aaaa1111",
        "--header",
        "Authorization: Bearer tok-bbbb2222",
        "-H",
        "X-Api-Key: key-cccc3333",
        "DATABASE_URL=postgres://u:pw-dddd4444@h/db",
        "--token",
        "tok-eeee5555",
        "-e",
        "OPENAI_API_KEY",
        "sk-ffff6666",
        "sh -c 'srv --api-key gh-gggg7777'",
    ]


def anonymous_views(client, target: ProbeTarget, run: ProbeRun) -> str:
    urls = [
        reverse("api:targets"),
        reverse("api:target", args=[target.pk]),
        reverse("api:run", args=[run.pk]),
        reverse("comparison:target_list"),
        reverse("comparison:target_detail", args=[target.pk]),
        reverse("comparison:run_detail", args=[run.pk]),
    ]
    for result in run.results.all():
        urls += [reverse("comparison:result_detail", args=[result.pk]), reverse("api:result", args=[result.pk])]
    pages = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        pages.append(response.content.decode())
    return "\n".join(pages)


def stored(run: ProbeRun) -> str:
    rows = ProbeResult.objects.filter(run=run).values("response", "exchanges", "failure", "host_views")
    return json.dumps(list(rows)) + (run.error or "")


@pytest.mark.django_db
def test_a_command_line_and_environment_that_carry_secrets_show_none(client):
    target = ProbeTarget.objects.create(
        name="echoing stdio", transport="stdio", command=stubborn_command(), env={"SECRET_ENV": ENV_SECRET}
    )
    run = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    run.refresh_from_db()
    assert run.status == "done"
    echoed = run.results.get().response["result"]["content"][0]["text"]
    assert "•••" in echoed, "the target did echo its argv and environment (masked when stored)"
    shown = anonymous_views(client, target, run) + stored(run)
    for secret in [*COMMAND_SECRETS, ENV_SECRET]:
        assert secret not in shown, secret
    assert "tests.support.stubborn" in shown, "the rest of the command stays readable"


@pytest.mark.django_db
def test_a_token_echoed_without_its_scheme_word_or_percent_encoded_is_masked(client):
    port = free_port()
    with server([sys.executable, "-m", "tests.support.stubborn", "--port", str(port), "--echo"], port):
        target = ProbeTarget.objects.create(
            name="echoing http",
            transport="http",
            url=f"http://127.0.0.1:{port}/mcp",
            headers={"Authorization": f"Bearer {TOKEN}"},
        )
        run = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    run.refresh_from_db()
    echoed = json.loads(run.results.get().response["result"]["content"][0]["text"])
    assert echoed["token"] == echoed["encoded"] == "•••"
    shown = anonymous_views(client, target, run) + stored(run)
    for form in (TOKEN, quote(TOKEN, safe=""), "row4+enc"):
        assert form not in shown, form


@pytest.mark.django_db
def test_a_secret_argument_comes_from_the_environment_field_and_is_never_shown(client):
    """`${NAME}` in the command is replaced when it starts; what is stored and shown keeps the name."""
    command = [sys.executable, "-m", "tests.support.stubborn", "--stdio", "--echo", "--token", "${PROXY_TOKEN}"]
    target = ProbeTarget.objects.create(
        name="placeholder", transport="stdio", command=command, env={"PROXY_TOKEN": "tok-nnnn4444"}
    )
    run = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    echoed = json.loads(run.results.get().response["result"]["content"][0]["text"])
    assert echoed["argv"][-1] == "•••", "the target got the value (and echoed it, masked when stored)"
    shown = anonymous_views(client, target, run) + stored(run)
    assert "tok-nnnn4444" not in shown
    assert "--token ${PROXY_TOKEN}" in shown, "the command shows the placeholder"
