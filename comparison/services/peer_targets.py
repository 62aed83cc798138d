"""Third-party proxies ready to compare: mcp-proxy (PyPI) and supergateway (npm), each installed
in a folder of its own and registered as a probe target in front of the fixture, on 127.0.0.1,
started by each run and stopped after it (`ProbeTarget.launch`)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from comparison.hostlab.catalogue import fixture_command
from comparison.models import ProbeTarget
from comparison.probes.processes.launch import free_port

PROJECT = Path(__file__).resolve().parents[2]
PEERS = PROJECT / "comparison" / "probes" / "peers"
PEERS_VENV = PROJECT / ".venv-peers"
NODE_FOLDER = PEERS / "node"
MCP_PROXY = PEERS_VENV / "bin" / "mcp-proxy"
SUPERGATEWAY = NODE_FOLDER / "node_modules" / ".bin" / "supergateway"
#: Node peers call listen() without a host; this preload keeps them on 127.0.0.1.
LOOPBACK_PRELOAD = PEERS / "loopback.cjs"
INSTALL_SECONDS = 600


@dataclass(frozen=True)
class Peer:
    name: str
    description: str

    def installed(self) -> bool:
        return (MCP_PROXY if self.name.startswith("mcp-proxy") else SUPERGATEWAY).exists()

    def launch(self, port: int) -> list[str]:
        if self.name.startswith("mcp-proxy"):
            return mcp_proxy_command(port, fixture_command())
        return ["env", f"NODE_OPTIONS=--require {LOOPBACK_PRELOAD}", *supergateway_command(port, fixture_command())]


def mcp_proxy_command(port: int, upstream: list[str]) -> list[str]:
    """mcp-proxy serving Streamable HTTP on 127.0.0.1:port in front of a stdio upstream."""
    return [str(MCP_PROXY), "--host", "127.0.0.1", "--port", str(port), "--", *upstream]


def supergateway_command(port: int, upstream: list[str]) -> list[str]:
    """supergateway, stateful Streamable HTTP on `port`, in front of a stdio upstream (Node needs the
    loopback preload in NODE_OPTIONS to stay on 127.0.0.1)."""
    return [
        str(SUPERGATEWAY),
        "--stdio",
        " ".join(upstream),
        "--outputTransport",
        "streamableHttp",
        "--stateful",
        "--port",
        str(port),
        "--logLevel",
        "none",
    ]


PEERS_TO_ADD = (
    Peer(
        "mcp-proxy → fixture",
        "mcp-proxy 0.13.0 (PyPI; Streamable HTTP in front of the fixture over stdio). Adds isError: false to "
        "every tool result and turns JSON-RPC errors into isError results.",
    ),
    Peer(
        "supergateway → fixture",
        "supergateway 4.0.0 (npm; stateful Streamable HTTP in front of the fixture over stdio). Passes "
        "answers through unchanged.",
    ),
)


def install(out) -> None:
    """mcp-proxy in .venv-peers (it needs mcp<2), the npm peers in comparison/probes/peers/node."""
    requirements = PEERS / "requirements.txt"
    stamp = PEERS_VENV / ".installed"
    if not MCP_PROXY.exists() or not stamp.exists() or stamp.read_text() != requirements.read_text():
        out(f"installing mcp-proxy into {PEERS_VENV}")
        shutil.rmtree(PEERS_VENV, ignore_errors=True)
        _run([sys.executable, "-m", "venv", str(PEERS_VENV)])
        _run([str(PEERS_VENV / "bin" / "python"), "-m", "pip", "install", "--quiet", "-r", str(requirements)])
        stamp.write_text(requirements.read_text())
    if not SUPERGATEWAY.exists():
        out(f"installing supergateway into {NODE_FOLDER}")
        _run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=NODE_FOLDER)


def _run(command: list[str], cwd: Path | None = None) -> None:
    subprocess.run(command, cwd=cwd, check=True, timeout=INSTALL_SECONDS)


def add_peer_targets() -> list[tuple[ProbeTarget, bool]]:
    """(target, created) per peer; an existing target keeps its port and gets the current command."""
    added = []
    for peer in PEERS_TO_ADD:
        target = ProbeTarget.objects.filter(name=peer.name).first()
        created = target is None
        port = _port_of(target.url) if target else free_port()
        target = target or ProbeTarget(name=peer.name)
        target.transport = "http"
        target.url = f"http://127.0.0.1:{port}/mcp"
        target.launch = peer.launch(port)
        target.suite = "fixture"
        target.upstream = "fixture"
        target.upstream_description = peer.description
        target.full_clean()
        target.save()
        added.append((target, created))
    return added


def _port_of(url: str) -> int:
    tail = url.rsplit(":", 1)[-1].split("/", 1)[0]
    return int(tail) if tail.isdigit() else free_port()
