"""The scenario families through real proxies in front of the fixture (all on 127.0.0.1): what
mcp-proxy 0.13.0 and supergateway 4.0.0 (stateful and stateless) do with progress, logging, the
server's requests, cursors, cancellation and what the upstream is told, as measured here. Each
assertion names the scenario, the revision, the verdict and the message concerned."""

from __future__ import annotations

import pytest

from comparison.probes import families
from comparison.probes.assessment.revisions import REVISIONS
from comparison.probes.fixture import forkserver
from comparison.probes.run.runner import ProbePlan, TargetSpec, run_probe
from comparison.probes.run.scenarios import FIXTURE
from comparison.services.peer_targets import supergateway_command
from language.vocabulary import ProbeVerdict
from tests.support.processes import PEERS_VENV, free_port, mcp_proxy_command, node_env, server

pytestmark = pytest.mark.peers
PLAYED = [s for s in FIXTURE if families.family_of(s).play is not None]
V = ProbeVerdict


def through(command: list[str], port: int, revisions: list[str], scenarios=PLAYED, env=None) -> dict:
    with server(command, port, env=env):
        spec = TargetSpec("peer → fixture", "http", url=f"http://127.0.0.1:{port}/mcp", upstream="fixture")
        outcomes = run_probe(spec, ProbePlan(scenarios=list(scenarios), revisions=revisions))
    return {(o.scenario.key, str(o.requested)): o for o in outcomes}


def said(outcome) -> tuple[str, list[str]]:
    # The check with no proxy in between (probes.same_shape) notes every blamed cell: not a path.
    return str(outcome.verdict), [f["path"] for f in outcome.findings if f.get("rule") != "same-shape"]


@pytest.fixture(scope="module")
def mcp_proxy():
    assert (PEERS_VENV / "bin" / "mcp-proxy").exists(), "scripts/test.sh installs the peers"
    port = free_port()
    return through(mcp_proxy_command(port, *forkserver.fixture_command()), port, [str(r) for r in REVISIONS])


@pytest.mark.parametrize("revision", [str(r) for r in REVISIONS])
def test_mcp_proxy_loses_the_other_directions(mcp_proxy, revision):
    cells = {key: outcome for (key, rev), outcome in mcp_proxy.items() if rev == revision}
    assert said(cells["progress"]) == (V.LOST, ["notifications/progress"])
    assert said(cells["logging"]) == (V.LOST, ["notifications/message"])
    asks = [key for key in cells if key.startswith(("ask-", "mrtr-"))]
    assert asks
    for key in asks:
        verdict, _ = said(cells[key])
        assert verdict == V.REFUSED, key
        assert "not supported" in cells[key].findings[0]["message"], "the proxy's own SDK answered"
    assert said(cells["told-client-info"]) == (V.CHANGED, ["clientInfo"])
    assert said(cells["told-capabilities"]) == (V.LOST, ["clientCapabilities"])
    assert said(cells["told-meta"]) == (V.AS_EXPECTED, []), "mcp-proxy passes _meta on"
    assert said(cells["told-headers"])[0] == V.NOT_TESTABLE, "the upstream is reached over stdio"
    for kind in ("tools", "prompts", "resources", "templates"):
        assert said(cells[f"pages-{kind}"]) == (V.AS_EXPECTED, []), "0.13.0 follows cursors"
    # It answers 2026-07-28 with a session of an older revision, so the cancel is a notification there too.
    assert said(cells["cancel"]) == (V.LOST, ["notifications/cancelled"])
    assert said(cells["list-changed"]) == (V.LOST, ["notifications/tools/list_changed"])
    assert said(cells["resource-updated"]) == (V.LOST, ["notifications/resources/updated"])
    if revision < "2026-07-28":
        for key in ("session-get", "session-delete", "session-unknown"):
            assert said(cells[key]) == (V.AS_EXPECTED, []), key
    else:
        for key in ("cache-list", "cache-read", "cache-private"):
            assert said(cells[key])[0] == V.NOT_TESTABLE, "it negotiates 2025-11-25: no hints to pass"
    told = said(cells["told-version"])
    assert told == ((V.AS_EXPECTED, []) if revision >= "2025-11-25" else (V.CHANGED, ["protocolVersion"]))


def test_supergateway_stateful_passes_the_other_directions_until_2026():
    port = free_port()
    command = supergateway_command(port, forkserver.fixture_command())
    cells = through(command, port, ["2025-11-25", "2026-07-28"], env=node_env())
    before = {key: said(o) for (key, rev), o in cells.items() if rev == "2025-11-25" and key != "told-headers"}
    assert before == dict.fromkeys(before, (V.AS_EXPECTED, [])), "progress, logging, requests, cursors, cancel"
    for kind in ("sampling", "elicit-form", "elicit-url", "roots"):
        # It gives the client a state of its own (`sgw:<uuid>`) and the upstream its own back.
        outcome = cells[(f"mrtr-{kind}", "2026-07-28")]
        assert said(outcome) == (V.AS_EXPECTED, ["requestState"])
        assert "opaque, as allowed" in outcome.findings[0]["message"]
    # At 2026-07-28 every request is a session of its own: the listen stream hears nothing.
    assert said(cells[("list-changed", "2026-07-28")]) == (V.LOST, ["notifications/tools/list_changed"])
    assert said(cells[("resource-updated", "2026-07-28")]) == (V.LOST, ["notifications/resources/updated"])
    for key in ("cache-list", "cache-read", "cache-private"):
        assert said(cells[(key, "2026-07-28")]) == (V.AS_EXPECTED, []), key


def test_supergateway_stateless_starts_an_upstream_per_message():
    port = free_port()
    command = [arg for arg in supergateway_command(port, forkserver.fixture_command()) if arg != "--stateful"]
    keys = (
        "progress", "logging", "ask-sampling", "ask-roots", "cancel", "told-version", "told-capabilities",
        "resource-updated", "session-get", "session-unknown",
    )  # fmt: skip
    chosen = [s for s in PLAYED if s.key in keys]
    cells = through(command, port, ["2025-11-25"], scenarios=chosen, env=node_env())
    got = {key: said(o) for (key, _), o in cells.items()}
    assert got["progress"] == (V.AS_EXPECTED, []), "notifications of the call's own process come back"
    assert got["logging"][0] == V.LOST
    assert "logging/setLevel" in got["logging"][1], "the level went to another process"
    assert got["ask-sampling"] == (V.REFUSED, ["sampling/createMessage"])
    assert got["ask-roots"] == (V.REFUSED, ["roots/list"])
    assert got["cancel"] == (V.LOST, ["notifications/cancelled"]), "the cancel reached another process"
    assert got["told-version"] == (V.CHANGED, ["protocolVersion"]), "told 2024-11-05"
    assert got["told-capabilities"] == (V.LOST, ["clientCapabilities"])
    assert got["resource-updated"] == (V.LOST, ["resources/subscribe"]), "subscribed in another process"
    assert got["session-get"] == (V.LOST, ["GET stream"]), "GET answers 405"
    assert got["session-unknown"][0] == V.NOT_TESTABLE, "it issues no session ids"


def test_a_proxy_serving_only_the_deprecated_http_sse_transport_is_probed_over_it():
    """supergateway with `--outputTransport sse` answers a POST to its URL with 404: the probe's
    client falls back to HTTP+SSE (2024-11-05), as a conformant client does, and judges it."""
    port = free_port()
    command = supergateway_command(port, forkserver.fixture_command())
    command[command.index("streamableHttp")] = "sse"
    command.remove("--stateful")
    keys = ("text", "image", "progress", "logging", "ask-sampling", "ask-roots", "pages-tools", "cancel")
    with server(command, port, env=node_env()):
        spec = TargetSpec("supergateway sse → fixture", "http", url=f"http://127.0.0.1:{port}/sse", upstream="fixture")
        outcomes = run_probe(spec, ProbePlan(scenarios=[s for s in FIXTURE if s.key in keys], revisions=["2024-11-05"]))
    cells = {o.scenario.key: said(o) for o in outcomes}
    assert cells == dict.fromkeys(keys, (V.AS_EXPECTED, [])), cells
    opening = outcomes[0].exchanges
    assert [(e["method"], e["status"], e["framing"]) for e in opening[:2]] == [
        ("initialize", 404, "json"),
        ("initialize", 202, "legacy sse"),
    ]
