"""The official conformance suite (@modelcontextprotocol/conformance 0.1.16, on Node 22 from npm)
against the fixture directly and through mcp-proxy: a scenario that passes directly and fails
through the proxy is a finding about the proxy."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.processes import FIXTURE_STDIO, NODE_PEERS, free_port, mcp_proxy_command, server

pytestmark = pytest.mark.peers
CONFORMANCE = NODE_PEERS / ".bin" / "conformance"
SUMMARY = re.compile(r"^[✓✗] (?P<name>[\w-]+): (?P<passed>\d+) passed, (?P<failed>\d+) failed$", re.M)
IMPLEMENTED = {
    "server-initialize",
    "ping",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-image",
    "tools-call-audio",
    "tools-call-embedded-resource",
    "tools-call-mixed-content",
    "tools-call-error",
    "server-sse-multiple-streams",
    "resources-list",
    "resources-read-text",
    "resources-read-binary",
    "prompts-list",
    "prompts-get-simple",
    "prompts-get-with-args",
    "prompts-get-embedded-resource",
    "prompts-get-with-image",
    "dns-rebinding-protection",
    # From the scenario families: logging/setLevel, resources/subscribe and unsubscribe.
    "logging-set-level",
    "resources-subscribe",
    "resources-unsubscribe",
}


def conformance(url: str, out) -> dict[str, tuple[int, int]]:
    env = {**os.environ, "PATH": f"{NODE_PEERS / '.bin'}:{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [str(CONFORMANCE), "server", "--url", url, "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
        check=False,
    )
    scenarios = {m["name"]: (int(m["passed"]), int(m["failed"])) for m in SUMMARY.finditer(done.stdout)}
    assert scenarios, done.stdout[-2000:] + done.stderr[-2000:]
    return scenarios


def passing(scenarios: dict[str, tuple[int, int]]) -> set[str]:
    return {name for name, (passed, failed) in scenarios.items() if passed and not failed}


@pytest.fixture(scope="module")
def direct(tmp_path_factory):
    assert CONFORMANCE.exists(), "the conformance suite is not installed (scripts/test.sh installs it)"
    port = free_port()
    with server([sys.executable, "-m", "comparison.probes.fixture_server", "--port", str(port)], port):
        return conformance(f"http://127.0.0.1:{port}/mcp", tmp_path_factory.mktemp("direct"))


def test_the_fixture_passes_every_scenario_it_implements(direct):
    assert len(direct) == 30
    assert passing(direct) == IMPLEMENTED


def test_mcp_proxy_loses_dns_rebinding_protection(direct, tmp_path):
    port = free_port()
    command = mcp_proxy_command(port, *FIXTURE_STDIO)
    with server(command, port):
        proxied = conformance(f"http://127.0.0.1:{port}/mcp", tmp_path)
    lost = passing(direct) - passing(proxied)
    assert "dns-rebinding-protection" in lost, "mcp-proxy does not check Host/Origin"
    assert passing(proxied) - passing(direct) == set()
