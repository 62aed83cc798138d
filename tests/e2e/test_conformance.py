"""The official conformance suite (@modelcontextprotocol/conformance 0.1.16, on Node 22 from npm)
against the fixture directly: every one of its 30 server scenarios passes. What mcp-proxy and
supergateway (stateful and stateless) lose of it, by name (LOST_THROUGH), is asserted on stored
runs in tests/e2e/test_conformance_runs.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.support.processes import NODE_PEERS, free_port, server

pytestmark = pytest.mark.peers
CONFORMANCE = NODE_PEERS / ".bin" / "conformance"
SUMMARY = re.compile(r"^[✓✗] (?P<name>[\w-]+): (?P<passed>\d+) passed, (?P<failed>\d+) failed$", re.M)


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
    with server([sys.executable, "-m", "comparison.probes.fixture.fixture_server", "--port", str(port)], port):
        return conformance(f"http://127.0.0.1:{port}/mcp", tmp_path_factory.mktemp("direct"))


def test_the_fixture_passes_every_scenario_of_the_suite(direct):
    assert len(direct) == 30
    assert passing(direct) == set(direct), sorted(set(direct) - passing(direct))
