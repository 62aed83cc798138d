"""Probes through real third-party proxies, in front of real upstreams (all on 127.0.0.1):
mcp-proxy 0.13.0 (PyPI, in .venv-peers), supergateway 4.0.0 and server-everything 2026.8.31 (npm).
The assertions are the differences the peer research recorded; scripts/test.sh installs the peers."""

from __future__ import annotations

from collections import Counter

import pytest

from comparison.probes.assessment.revisions import REVISIONS
from comparison.probes.fixture import forkserver
from comparison.probes.run.runner import CHANGED, ProbePlan, TargetSpec, run_probe
from comparison.probes.run.scenarios import EVERYTHING, FIXTURE
from comparison.services.peer_targets import supergateway_command
from tests.support.processes import (
    NODE_PEERS,
    PEERS_VENV,
    free_port,
    listening_addresses,
    mcp_proxy_command,
    node_env,
    server,
)

pytestmark = pytest.mark.peers
MCP_PROXY = PEERS_VENV / "bin" / "mcp-proxy"
EVERYTHING_JS = NODE_PEERS / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
SUPERGATEWAY = NODE_PEERS / ".bin" / "supergateway"


@pytest.fixture(scope="module", autouse=True)
def installed():
    missing = [str(p) for p in (MCP_PROXY, EVERYTHING_JS, SUPERGATEWAY) if not p.exists()]
    assert not missing, f"probe peers not installed: {missing} (scripts/test.sh installs them)"


def cell(outcomes, key, revision):
    return next(o for o in outcomes if o.scenario.key == key and o.requested == revision)


@pytest.fixture(scope="module")
def through_mcp_proxy():
    port = free_port()
    command = mcp_proxy_command(port, *forkserver.fixture_command())
    with server(command, port) as process:
        assert {address.rsplit(":", 1)[0] for address in listening_addresses(process.pid)} == {"127.0.0.1"}
        spec = TargetSpec("mcp-proxy → fixture", "http", url=f"http://127.0.0.1:{port}/mcp", upstream="fixture")
        yield run_probe(spec, ProbePlan(scenarios=list(FIXTURE), revisions=list(REVISIONS)))


def test_mcp_proxy_turns_a_jsonrpc_error_into_an_iserror_result(through_mcp_proxy):
    for revision in REVISIONS:
        outcome = cell(through_mcp_proxy, "rpc-error", revision)
        assert outcome.verdict == CHANGED
        result = outcome.response["result"]
        assert result["isError"] is True
        assert result["content"][0]["text"] == "Upstream database unavailable"
        assert "-32001" not in str(result), "the code is lost"
        assert {d["path"] for d in outcome.diff} >= {"error", "result"}


def test_mcp_proxy_adds_iserror_false_and_replaces_unknown_blocks(through_mcp_proxy):
    text = cell(through_mcp_proxy, "text", "2025-06-18")
    assert text.response["result"]["isError"] is False
    assert text.diff == [], "`isError: false` is the schema's default: the same answer as none"
    assert text.verdict == "as expected"
    unknown = cell(through_mcp_proxy, "unknown-type", "2025-11-25")
    assert unknown.response["result"]["isError"] is True
    assert all(block["type"] == "text" for block in unknown.response["result"]["content"])
    assert unknown.verdict == "lost by proxy", "the result never reaches the client: a tool error does"
    assert "never reaches the client: it got a tool error saying" in unknown.findings[-2]["message"]
    assert unknown.findings[-1]["message"].startswith("checked with no proxy in between: the fixture served over")


def test_mcp_proxy_answers_2026_with_a_session(through_mcp_proxy):
    outcome = cell(through_mcp_proxy, "text", "2026-07-28")
    assert outcome.negotiated == "2025-11-25"
    assert "resultType" not in outcome.response["result"]


def test_mcp_proxy_passes_content_blocks_unchanged(through_mcp_proxy):
    mixed = cell(through_mcp_proxy, "mixed", "2025-11-25")
    assert mixed.diff == [], "blocks, annotations and _meta pass unchanged (and `isError: false` is the default)"


def test_supergateway_stateful_changes_nothing():
    port = free_port()
    command = supergateway_command(port, forkserver.fixture_command())
    with server(command, port, env=node_env()) as process:
        assert {address.rsplit(":", 1)[0] for address in listening_addresses(process.pid)} == {"127.0.0.1"}
        spec = TargetSpec("supergateway → fixture", "http", url=f"http://127.0.0.1:{port}/mcp", upstream="fixture")
        # The request → answer families; the others through supergateway: tests/e2e/test_family_peers.py.
        answers = [s for s in FIXTURE if s.family in ("content", "prompts", "failures")]
        outcomes = run_probe(spec, ProbePlan(scenarios=answers, revisions=list(REVISIONS)))
    counts = Counter(o.verdict for o in outcomes)
    assert counts[CHANGED] == 0
    assert counts["failed to probe"] == 0
    assert cell(outcomes, "text", "2026-07-28").negotiated == "2026-07-28", "the stateless request is forwarded"


def test_server_everything_direct_and_through_mcp_proxy():
    upstream_port, proxy_port = free_port(), free_port()
    everything = ["node", str(EVERYTHING_JS), "streamableHttp"]
    with server(everything, upstream_port, env={**node_env(), "PORT": str(upstream_port)}) as upstream:
        assert {a.rsplit(":", 1)[0] for a in listening_addresses(upstream.pid)} == {"127.0.0.1"}
        upstream_url = f"http://127.0.0.1:{upstream_port}/mcp"
        direct = run_probe(
            TargetSpec("everything", "http", url=upstream_url, suite="everything"),
            ProbePlan(scenarios=list(EVERYTHING), revisions=["2025-11-25", "2026-07-28"]),
        )
        proxy = mcp_proxy_command(proxy_port, "node", str(EVERYTHING_JS), "stdio")
        with server(proxy, proxy_port):
            spec = TargetSpec(
                "mcp-proxy → everything", "http", url=f"http://127.0.0.1:{proxy_port}/mcp", suite="everything"
            )
            upstream_spec = TargetSpec("everything", "http", url=upstream_url, suite="everything")
            through = run_probe(
                spec, ProbePlan(scenarios=list(EVERYTHING), revisions=["2025-11-25"], upstream=upstream_spec)
            )
    assert cell(direct, "echo", "2026-07-28").negotiated == "2025-11-25", "server-everything counter-offers"
    assert Counter(o.verdict for o in direct)["failed to probe"] == 0
    echo = cell(through, "echo", "2025-11-25")
    assert echo.response["result"]["isError"] is False, "mcp-proxy adds the default"
    assert echo.diff == [], "which is the same answer as none"
    method = cell(through, "no-such-method", "2025-11-25")
    assert method.response["error"]["code"] == -32602, "mcp-proxy answers an unknown method with -32602"
