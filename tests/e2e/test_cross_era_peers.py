"""The cross-era grid through the peers the tests run, each in front of the fixture pinned to one
revision at a time (the fixture's `--revisions`, put into the peer's launch by probes.pinning):

- mcp-proxy 0.13.0 (Python SDK 1.x) bridges: a client of any legacy revision is answered at its
  own revision whatever legacy revision the upstream speaks ("translated"); a 2026-07-28 client is
  answered with its own newest legacy revision; it cannot start in front of an upstream of
  2026-07-28 alone (it opens the upstream at start with `initialize`, which that upstream refuses).
- supergateway 4.0.0 relays the client's messages as they are: the upstream's own counter-offer
  reaches the client ("passed through"), and a 2026-07-28 client reaches a 2026-07-28 upstream.

scripts/test.sh installs the peers."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from comparison.models import ProbeTarget
from comparison.probes.assessment import era_rules
from comparison.selectors.grid import run_era_grid
from comparison.services.peer_targets import PEERS_TO_ADD
from comparison.tasks import start_run
from language.vocabulary import REVISIONS

pytestmark = [pytest.mark.peers, pytest.mark.django_db]
ALL = [str(r) for r in REVISIONS]
LEGACY, MODERN = ALL[:4], ALL[4]
SCENARIOS = ["negotiated-revision", "tools-list", "text"]


def _grid_run(name: str):
    call_command("add_peer_targets", "--no-install", stdout=io.StringIO())
    target = ProbeTarget.objects.get(name=name)
    run = start_run(target=target, revisions=ALL, upstream_revisions=ALL, scenarios=SCENARIOS)
    assert run.status == "done", run.error
    return run, run_era_grid(run)


def test_mcp_proxy_translates_between_legacy_revisions_and_cannot_front_a_modern_upstream():
    run, grid = _grid_run(PEERS_TO_ADD[0].name)
    assert len(grid.pairs) == 25
    for (client, upstream), pair in grid.pairs.items():
        if upstream == MODERN:
            assert pair.agreed == "", "mcp-proxy never starts in front of an upstream of 2026-07-28 alone"
            assert pair.reading == ("refused" if client == MODERN else "as the rules say")
        elif client in LEGACY:
            assert pair.agreed == client, (client, upstream)
            assert pair.reading == ("carried" if client == upstream else "translated")
            assert pair.survived >= 1, "the tool list crosses the eras"
            agreed = run.results.get(requested_revision=client, upstream_revision=upstream, scenario=SCENARIOS[0])
            assert agreed.verdict == "as expected", ("a bridge answers the revision asked", agreed.findings)
        else:
            assert pair.agreed in LEGACY, "a 2026-07-28 client is answered with a legacy revision"
            assert pair.reading == "own counter-offer"
            agreed = run.results.get(requested_revision=client, upstream_revision=upstream, scenario=SCENARIOS[0])
            if pair.agreed != upstream:
                assert agreed.verdict == "changed by proxy", "the client ends at another revision than directly"
                assert "a downgrade" not in agreed.findings[0]["message"]
    failed = run.results.filter(upstream_revision=MODERN).values_list("failure", flat=True)
    assert all("did not start in front of an upstream of 2026-07-28 alone" in why for why in failed)


def test_supergateway_passes_the_upstreams_negotiation_through():
    _, grid = _grid_run(PEERS_TO_ADD[1].name)
    for (client, upstream), pair in grid.pairs.items():
        rule = era_rules.direct_rule(client, upstream)
        assert pair.agreed == rule.agreed, (client, upstream, "what the upstream alone agrees reaches the client")
        if rule.outcome == era_rules.FAILS:
            assert pair.reading == "as the rules say"
        elif client == upstream:
            assert pair.reading == "carried"
            assert pair.survived == pair.counted, (client, [c for c in pair.cells if c[1] != "as expected"])
        else:
            assert pair.reading == "passed through"


def test_supergateway_as_a_client_of_an_http_upstream_reaches_no_server_of_http_sse_alone():
    """supergateway 4.0.0 in its other direction (a Streamable HTTP upstream, served over stdio),
    pinned through its upstream's URL: one fixture process serves every pin at
    /pinned/REVISION/mcp, so the grid starts the fixture once. Its client does not fall back to the
    HTTP+SSE transport (2025-03-26 transports, "Backwards Compatibility"), so a server of
    2024-11-05 alone is out of reach whatever the client asks; it speaks no 2026-07-28 either."""
    import sys

    from comparison.probes.processes.launch import free_port, launched
    from comparison.probes.run.grid_run import run_grid
    from comparison.probes.run.runner import ProbePlan, TargetSpec
    from comparison.probes.run.scenarios import FIXTURE
    from comparison.probes.targets.pinning import PLACEHOLDER
    from comparison.services.peer_targets import LOOPBACK_PRELOAD, SUPERGATEWAY

    port = free_port()
    fixture = [sys.executable, "-m", "comparison.probes.fixture.fixture_pinned", "--port", str(port)]
    upstream = f"http://127.0.0.1:{port}/pinned/{PLACEHOLDER}/mcp"
    command = ["env", f"NODE_OPTIONS=--require {LOOPBACK_PRELOAD}", str(SUPERGATEWAY), "--streamableHttp", upstream]
    spec = TargetSpec("supergateway ← HTTP", "stdio", command=[*command, "--logLevel", "none"], upstream="fixture")
    scenarios = [s for s in FIXTURE if s.key in SCENARIOS]
    with launched(fixture, f"http://127.0.0.1:{port}/mcp"):
        outcomes = run_grid(spec, ProbePlan(scenarios=scenarios, revisions=ALL), upstream_revisions=ALL)
    from comparison.core.era_grid import grid_of

    grid = grid_of([o.as_dict() for o in outcomes])
    for (client, upstream_revision), pair in grid.pairs.items():
        if upstream_revision == ALL[0] or (client, upstream_revision) == (MODERN, MODERN):
            assert pair.reading == "refused", (client, upstream_revision)
        elif upstream_revision == MODERN:
            assert pair.reading == "as the rules say"
        else:
            assert pair.reading == ("carried" if client == upstream_revision else "passed through")
            assert pair.survived == pair.counted
