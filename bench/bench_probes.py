"""Probe speed. Prints numbers; asserts nothing.

    .venv/bin/python bench/bench_probes.py [--repeat N]

- wall time of a full run (every fixture scenario × 5 revisions) on the built-in target (stdio),
  on the fixture over HTTP, and through mcp-proxy (a stateful proxy) when .venv-peers has it, with
  the default repetition of timing-sensitive cells (probes.tries.DEFAULT_TRIES) and with one try,
  so what repetition costs is printed beside it;
- the wire client's median overhead per exchange over a raw socket doing the same request;
- the official conformance suite's pass (against the fixture, then through mcp-proxy), wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mcp_compare.settings")
import django  # noqa: E402  (mcp-proxy's command comes from the peer targets, which import models)

django.setup()

from comparison.probes.assessment.revisions import REVISIONS  # noqa: E402
from comparison.probes.assessment.tries import DEFAULT_TRIES  # noqa: E402
from comparison.probes.conformance import conformance_run  # noqa: E402
from comparison.probes.run.runner import ProbePlan, TargetSpec, builtin_fixture, run_probe  # noqa: E402
from comparison.probes.run.scenarios import FIXTURE  # noqa: E402
from comparison.probes.transport.http_transport import HttpTransport  # noqa: E402
from comparison.probes.transport.wire import WireClient  # noqa: E402
from tests.support.processes import FIXTURE_STDIO, mcp_proxy_command  # noqa: E402


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(command: list[str], port: int) -> subprocess.Popen:
    process = subprocess.Popen(
        command, cwd=PROJECT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            time.sleep(0.1)
    stop(process)
    raise RuntimeError(f"{command[0]} did not listen on {port}")


def stop(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=10)


def full_run(spec: TargetSpec, tries: int = DEFAULT_TRIES) -> tuple[float, int]:
    started = time.perf_counter()
    outcomes = run_probe(spec, ProbePlan(scenarios=list(FIXTURE), revisions=list(REVISIONS), tries=tries))
    return time.perf_counter() - started, len(outcomes)


def both_runs(what: str, spec: TargetSpec) -> None:
    """The full run with the default tries, then with one, printed as one line."""
    seconds, n = full_run(spec)
    single, _ = full_run(spec, tries=1)
    print(f"full run, {what}: {n} results in {seconds:.2f} s with {DEFAULT_TRIES} tries ({single:.2f} s with 1)")


def raw_call(port: int, session: str, body: bytes) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        request = (
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nMcp-Session-Id: {session}\r\n"
            f"MCP-Protocol-Version: 2025-11-25\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        sock.sendall(request.encode() + body)
        while sock.recv(65536):
            pass


class KeepAlive:
    """The same request over one kept-alive socket, with h11 and nothing else."""

    def __init__(self, port: int, session: str):
        import h11

        self.h11, self.port, self.session = h11, port, session
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.connection = h11.Connection(h11.CLIENT)

    def call(self, body: bytes) -> None:
        h11, connection = self.h11, self.connection
        if connection.our_state is h11.DONE:
            connection.start_next_cycle()
        headers = [
            ("Host", f"127.0.0.1:{self.port}"),
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("Mcp-Session-Id", self.session),
            ("MCP-Protocol-Version", "2025-11-25"),
            ("Content-Length", str(len(body))),
        ]
        data = connection.send(h11.Request(method="POST", target="/mcp", headers=headers))
        self.sock.sendall(data + connection.send(h11.Data(data=body)) + connection.send(h11.EndOfMessage()))
        while True:
            event = connection.next_event()
            if event is h11.NEED_DATA:
                connection.receive_data(self.sock.recv(65536))
            elif isinstance(event, h11.EndOfMessage):
                return

    def close(self) -> None:
        self.sock.close()


def _medians_over_http(port: int, repeat: int) -> None:
    """tools/call through the wire client, a raw socket per call and one kept-alive socket."""
    url = f"http://127.0.0.1:{port}/mcp"
    client = WireClient(HttpTransport(url))
    client.open("2025-11-25")
    wire = []
    for _ in range(repeat):
        exchange = client.request("tools/call", {"name": "text", "arguments": {}})
        wire.append(exchange.duration_ms)
    session = client.transport.session_headers["Mcp-Session-Id"]
    body = json.dumps(
        {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "text", "arguments": {}}}
    ).encode()
    raw = []
    for _ in range(repeat):
        begin = time.perf_counter()
        raw_call(port, session, body)
        raw.append((time.perf_counter() - begin) * 1000)
    kept = []
    keep_alive = KeepAlive(port, session)
    for _ in range(repeat):
        begin = time.perf_counter()
        keep_alive.call(body)
        kept.append((time.perf_counter() - begin) * 1000)
    keep_alive.close()
    client.close()
    wire_ms, raw_ms, kept_ms = statistics.median(wire), statistics.median(raw), statistics.median(kept)
    print(
        f"tools/call median (n={repeat}): wire client {wire_ms:.2f} ms; raw socket, a connection per "
        f"call {raw_ms:.2f} ms (wire/raw {wire_ms / raw_ms:.2f}x); h11 on one kept-alive socket "
        f"{kept_ms:.2f} ms (wire/kept-alive {wire_ms / kept_ms:.2f}x)"
    )


def _through_mcp_proxy() -> None:
    proxy_bin = PROJECT / ".venv-peers" / "bin" / "mcp-proxy"
    if not proxy_bin.exists():
        print("mcp-proxy not installed (.venv-peers): run scripts/test.sh once")
        return
    port = free_port()
    proxy = start(mcp_proxy_command(port, *FIXTURE_STDIO), port)
    try:
        spec = TargetSpec("mcp-proxy", "http", url=f"http://127.0.0.1:{port}/mcp", upstream="fixture")
        both_runs("through mcp-proxy 0.13.0 (stateful)", spec)
        if conformance_run.installed():
            started = time.perf_counter()
            rows, status = conformance_run.compare_target(spec.url, "http")
            through = sum(1 for row in rows if row["verdict"] == "as expected")
            print(
                f"the conformance suite, direct and through mcp-proxy: {status or f'{through} of {len(rows)} through'}"
                f" in {time.perf_counter() - started:.2f} s wall"
            )
        else:
            print("the conformance suite is not installed (scripts/test.sh installs it)")
    finally:
        stop(proxy)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    full_run(builtin_fixture(), tries=1)  # the fork server starts once, outside the numbers
    both_runs("built-in fixture (stdio, forked sessions)", builtin_fixture())

    port = free_port()
    fixture = start([sys.executable, "-m", "comparison.probes.fixture.fixture_server", "--port", str(port)], port)
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        both_runs("fixture over Streamable HTTP", TargetSpec("fixture", "http", url=url, upstream="fixture"))
        _medians_over_http(port, args.repeat)
    finally:
        stop(fixture)
    _through_mcp_proxy()


if __name__ == "__main__":
    main()
