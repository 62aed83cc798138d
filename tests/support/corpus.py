"""The corpus of real proxies judged by hand (tests/data/corpus_judgements.json): published MCP
proxies, gateways, aggregators and bridges from npm and PyPI that no other test uses, each
started on 127.0.0.1 in front of the fixture, and probed as a user would. `judge` says, per
judged cell, whether the probe's verdict and words still hold.

The packages are pinned in comparison/probes/peers (node/package.json, requirements-*.txt) and
installed by scripts/test.sh; mcp-hub was tried and left out: at start it fetches its marketplace
registry from the internet.
"""

from __future__ import annotations

import contextlib
import json
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from comparison.probes.fixture import forkserver
from comparison.probes.run.runner import ProbePlan, TargetSpec, run_probe
from comparison.probes.run.scenarios import FIXTURE
from tests.support.processes import NODE_PEERS, PROJECT, free_port, node_env, server

JUDGEMENTS = Path(__file__).resolve().parents[1] / "data" / "corpus_judgements.json"
VENVS = PROJECT / ".venv-corpus"
FASTMCP_PROXY = Path(__file__).resolve().parent / "corpus_fastmcp_proxy.py"


@dataclass(frozen=True)
class Proxy:
    name: str
    package: str
    kind: str


PROXIES = (
    Proxy("mcp-proxy-npm", "mcp-proxy 6.7.19 (npm)", "stdio upstream served as Streamable HTTP"),
    Proxy("mcp-proxy-npm-sse", "mcp-proxy 6.7.19 (npm)", "the same, probed at its deprecated HTTP+SSE endpoint"),
    Proxy("mcp-remote", "mcp-remote 0.15.1 (npm)", "stdio bridge to a Streamable HTTP upstream"),
    Proxy("fastmcp-proxy", "fastmcp 4.2.3 (PyPI)", "HTTP-to-HTTP passthrough (create_proxy)"),
    Proxy("fastmcp-namespace", "fastmcp 4.2.3 (PyPI)", "gateway mounting the upstream under a namespace"),
    Proxy("magg", "magg 1.3.0 (PyPI)", "aggregator with a prefix and tools of its own"),
)
BY_NAME = {proxy.name: proxy for proxy in PROXIES}


def _http_fixture(stack: contextlib.ExitStack) -> int:
    port = free_port()
    command = [sys.executable, "-m", "comparison.probes.fixture.fixture_server", "--port", str(port)]
    stack.enter_context(server(command, port))
    return port


@contextlib.contextmanager
def started(name: str) -> Iterator[TargetSpec]:
    """The proxy running in front of the fixture, as a target; every process ended after."""
    port = free_port()
    with contextlib.ExitStack() as stack:
        home = stack.enter_context(tempfile.TemporaryDirectory(prefix=f"corpus-{name}-"))
        url = f"http://127.0.0.1:{port}/mcp"
        if name.startswith("mcp-proxy-npm"):
            command = [str(NODE_PEERS / ".bin" / "mcp-proxy"), "--host", "127.0.0.1", "--port", str(port), "--"]
            stack.enter_context(
                server([*command, *forkserver.fixture_command()], port, env={**node_env(), "HOME": home})
            )
            url = url.replace("/mcp", "/sse") if name.endswith("-sse") else url
            yield TargetSpec(name, "http", url=url, upstream="fixture")
        elif name == "mcp-remote":
            upstream = _http_fixture(stack)
            bridge = [str(NODE_PEERS / ".bin" / "mcp-remote"), f"http://127.0.0.1:{upstream}/mcp", "--allow-http"]
            command = ["env", f"HOME={home}", *(f"{k}={v}" for k, v in node_env().items()), *bridge]
            yield TargetSpec(name, "stdio", command=[*command, "--transport", "http-only"], upstream="fixture")
        elif name.startswith("fastmcp"):
            upstream = _http_fixture(stack)
            namespace = "fixture" if name == "fastmcp-namespace" else ""
            python = str(VENVS / "fastmcp" / "bin" / "python")
            command = [python, str(FASTMCP_PROXY), str(upstream), str(port), namespace]
            stack.enter_context(server(command, port, env={"HOME": home}))
            yield TargetSpec(name, "http", url=url, upstream="fixture")
        elif name == "magg":
            config = Path(home) / "config.json"
            interpreter, *arguments = forkserver.fixture_command()
            server_entry = {"source": "file:///mcp-compare", "prefix": "fixture", "command": interpreter}
            server_entry |= {"args": arguments, "cwd": str(PROJECT)}
            config.write_text(json.dumps({"servers": {"fixture": server_entry}}), encoding="utf-8")
            magg = [str(VENVS / "magg" / "bin" / "magg"), "--config", str(config), "serve", "--http"]
            command = [*magg, "--host", "127.0.0.1", "--port", str(port), "--no-banner"]
            stack.enter_context(server(command, port, env={"HOME": home}))
            yield TargetSpec(name, "http", url=url, upstream="fixture")
        else:
            raise KeyError(name)


def judgements() -> list[dict[str, Any]]:
    return json.loads(JUDGEMENTS.read_text(encoding="utf-8"))


def probe(name: str, keys: set[str], revisions: list[str]) -> dict[tuple[str, str], Any]:
    with started(name) as spec:
        outcomes = run_probe(spec, ProbePlan(scenarios=[s for s in FIXTURE if s.key in keys], revisions=revisions))
    return {(o.scenario.key, str(o.requested)): o for o in outcomes}


def said(outcome: Any) -> str:
    """Everything a cell says in words: its findings and its failure."""
    return " | ".join([*(str(f.get("message", "")) for f in outcome.findings), outcome.failure or ""])


def wrong(judgement: dict[str, Any], outcome: Any) -> str:
    """Why the cell no longer says what the judgement holds, or "" when it does."""
    if outcome is None:
        return "no cell"
    if str(outcome.verdict) != judgement["verdict"]:
        return f"verdict {outcome.verdict!r}, judged {judgement['verdict']!r}: {said(outcome)[:300]}"
    missing = [word for word in judgement.get("words", []) if word not in said(outcome)]
    return f"its words lack {missing}: {said(outcome)[:300]}" if missing else ""


def judge(name: str) -> list[tuple[dict[str, Any], str]]:
    """(judgement, why it no longer holds or "") for every judged cell of one proxy."""
    mine = [j for j in judgements() if j["proxy"] == name]
    revisions = sorted({j["revision"] for j in mine})
    cells = probe(name, {j["scenario"] for j in mine}, revisions)
    return [(j, wrong(j, cells.get((j["scenario"], j["revision"])))) for j in mine]
