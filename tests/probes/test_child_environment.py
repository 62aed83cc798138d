"""A probed program gets only what its target was given (issue 32, row 1): a stdio target and a
launched HTTP target that echo their whole environment (tests/support/stubborn.py --echo) receive none
of the dashboard's secrets, and no page shows one."""

from __future__ import annotations

import json
import sys

import pytest
from django.test import override_settings

from comparison.models import ProbeTarget
from comparison.probes.processes.child_env import child_environment
from comparison.probes.processes.process_tree import MARK_NAME
from comparison.tasks import start_run
from tests.probes.test_command_secrets import anonymous_views, stored
from tests.support.processes import free_port

SECRET_KEY = "dashboard-secret-key-5d1f0c9e7a"
ADMIN_PASSWORD = "admin-pw-77aa19bc"
DATABASE_PASSWORD = "db-pw-4e8c21f0"
DASHBOARD_ENVIRONMENT = {
    "MCP_COMPARE_SECRET_KEY": SECRET_KEY,
    "MCP_COMPARE_ADMIN_PASSWORD": ADMIN_PASSWORD,
    "DATABASE_URL": f"postgres://mcp:{DATABASE_PASSWORD}@127.0.0.1:5432/mcp_compare",
    "MCP_COMPARE_CACHE_URL": f"redis://:{DATABASE_PASSWORD}@127.0.0.1:6379/0",
    "AWS_SECRET_ACCESS_KEY": "aws-secret-0b3c",
}
DASHBOARD_SECRETS = [SECRET_KEY, ADMIN_PASSWORD, DATABASE_PASSWORD, "aws-secret-0b3c"]


def test_only_the_running_basics_and_the_targets_own_environment_pass():
    parent = {**DASHBOARD_ENVIRONMENT, "PATH": "/opt/bin:/usr/bin", "HOME": "/home/w", "LC_ALL": "C.UTF-8"}
    env = child_environment({"API_TOKEN": "own", "PATH": "/target/bin"}, extra={"MARK": "1"}, parent=parent)
    assert set(env) == {"PATH", "HOME", "LC_ALL", "TMPDIR", "API_TOKEN", "MARK"}
    assert env["PATH"] == "/target/bin", "the target's configured environment wins"
    assert child_environment(parent={})["PATH"], "a child always has a PATH"


@pytest.fixture
def dashboard_environment(monkeypatch):
    for name, value in DASHBOARD_ENVIRONMENT.items():
        monkeypatch.setenv(name, value)
    with override_settings(SECRET_KEY=SECRET_KEY):
        yield


def echoed_environment(run) -> dict[str, str]:
    run.refresh_from_db()
    assert run.status == "done", run.error
    text = run.results.get().response["result"]["content"][0]["text"]
    return json.loads(text)["environ"]


def assert_nothing_of_the_dashboard(environ: dict[str, str], shown: str) -> None:
    leaked = sorted(set(environ) & set(DASHBOARD_ENVIRONMENT))
    assert leaked == [], f"the target received {leaked}"
    # The process-tree mark is the one name of ours a target carries: it is how its processes are found.
    ours = [name for name in environ if name.startswith(("MCP_COMPARE_", "DJANGO")) and name != MARK_NAME]
    assert ours == [], sorted(environ)
    for secret in DASHBOARD_SECRETS:
        assert secret not in json.dumps(environ), secret
        assert secret not in shown, secret


@pytest.mark.django_db
def test_a_stdio_target_that_prints_its_environment_gets_no_dashboard_secret(client, dashboard_environment):
    target = ProbeTarget.objects.create(
        name="environment echo",
        transport="stdio",
        command=[sys.executable, "-m", "tests.support.stubborn", "--stdio", "--echo"],
        env={"TARGET_OWN_SETTING": "own-value-8f2a"},
    )
    run = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    environ = echoed_environment(run)
    assert environ["TARGET_OWN_SETTING"] == "•••", "its own environment arrives (masked when stored)"
    assert {"PATH", "HOME"} <= set(environ)
    assert_nothing_of_the_dashboard(environ, anonymous_views(client, target, run) + stored(run))


@pytest.mark.django_db
def test_a_launched_http_target_gets_no_dashboard_secret(client, dashboard_environment):
    port = free_port()
    target = ProbeTarget.objects.create(
        name="launched environment echo",
        transport="http",
        url=f"http://127.0.0.1:{port}/mcp",
        launch=[sys.executable, "-m", "tests.support.stubborn", "--port", str(port), "--echo"],
        env={"TARGET_OWN_SETTING": "own-value-8f2a"},
    )
    run = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    environ = echoed_environment(run)
    assert environ["TARGET_OWN_SETTING"] == "•••"
    assert_nothing_of_the_dashboard(environ, anonymous_views(client, target, run) + stored(run))


@pytest.mark.django_db
def test_a_dashboard_secret_a_target_learns_otherwise_is_masked(client, dashboard_environment):
    """The second guard: the dashboard's own credentials are masked in what a target sends back."""
    target = ProbeTarget.objects.create(
        name="knows the key",
        transport="stdio",
        command=[sys.executable, "-m", "tests.support.stubborn", "--stdio", "--echo", f"learned-{SECRET_KEY}"],
    )
    run = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    run.refresh_from_db()
    argv = json.loads(run.results.get().response["result"]["content"][0]["text"])["argv"]
    assert argv[-1] == "learned-•••"
    assert SECRET_KEY not in anonymous_views(client, target, run) + stored(run)
