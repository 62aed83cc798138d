"""The fork server behind the built-in target: sessions are forks of one process that imported the
fixture, they end with their launcher, the launcher works without the server, and the server
ends with the process that started it; a target's own start of the fixture over stdio (a proxy's
upstream, a stdio target) is started as such a session. Every process is checked gone by its pid."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from comparison.hostlab import catalogue
from comparison.probes.fixture import forkserver, sessions
from comparison.probes.run.revision_session import open_transport
from comparison.probes.run.runner import TargetSpec
from comparison.probes.targets.started import as_started
from comparison.probes.transport.exchange import Limits
from comparison.probes.transport.stdio_transport import StdioTransport
from comparison.probes.transport.wire import WireClient
from tests.support.processes import PROJECT, alive, descendants, wait_for


def test_a_session_is_a_fork_and_ends_with_its_launcher():
    command = forkserver.fixture_command()
    server_pid = forkserver._server[0].pid
    client = WireClient(StdioTransport(command))
    session = client.open("2025-06-18")
    assert session.negotiated == "2025-06-18"
    assert client.request("tools/call", {"name": "text", "arguments": {}}).response["result"]["content"][0]["text"] == (
        "hello from the fixture"
    )
    sessions = descendants(server_pid) - {server_pid}
    assert len(sessions) == 1, "the session runs as a child of the fork server"
    (session_pid,) = sessions
    launcher = client.transport.process
    launcher.send_signal(signal.SIGKILL)
    launcher.wait(timeout=10)
    wait_for(lambda: not alive(session_pid), 10, "a killed launcher takes its session with it")
    client.close()
    assert forkserver.fixture_command() == command, "one fork server per process"


def test_the_launcher_starts_the_fixture_itself_without_a_server(tmp_path):
    command = [sys.executable, "-I", str(forkserver.LAUNCHER), str(tmp_path / "no.sock"), str(PROJECT)]
    client = WireClient(StdioTransport(command))
    try:
        assert client.open("2025-11-25").negotiated == "2025-11-25"
    finally:
        client.close()
    assert client.transport.process.poll() is not None


def test_the_fork_server_ends_with_the_process_that_started_it():
    starter = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from comparison.probes.fixture import forkserver; forkserver.ensure();"
            "print(forkserver._server[0].pid, flush=True); import time; time.sleep(60)",
        ],
        cwd=PROJECT,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        server_pid = int(starter.stdout.readline())
        assert alive(server_pid)
        starter.kill()
        starter.wait(timeout=10)
        wait_for(lambda: not alive(server_pid), 10, "an orphaned fork server exits")
    finally:
        for pid in (starter.pid,):
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        starter.stdout.close()


FIXTURE = catalogue.fixture_command()


def fork(revisions: str) -> list[str]:
    return ["FORK", revisions]


def test_a_targets_start_of_the_fixture_becomes_a_session_and_nothing_else_does():
    gateway = f"{sys.executable} -m {sessions.FIXTURE_MODULE} --stdio"
    assert sessions.with_sessions(FIXTURE, fork) == ["FORK", ""]
    assert sessions.with_sessions(["mcp-proxy", "--port", "9", "--", *FIXTURE], fork) == [
        "mcp-proxy", "--port", "9", "--", "FORK", "",
    ]  # fmt: skip
    assert sessions.with_sessions(["supergateway", "--stdio", gateway, "--port", "9"], fork) == [
        "supergateway", "--stdio", "FORK ''", "--port", "9",
    ]  # fmt: skip
    pinned = ["relay", "python3", "-m", sessions.PINNED_MODULE, "--revisions", "2025-06-18", "--stdio"]
    assert sessions.with_sessions(pinned, fork) == ["relay", "FORK", "2025-06-18"]
    unchanged = [
        [sys.executable, "-m", sessions.FIXTURE_MODULE, "--port", "9"],  # over HTTP: no session
        [*FIXTURE, "--extra"],  # a switch a session does not take
        ["node", "-m", sessions.FIXTURE_MODULE, "--stdio"],  # not an interpreter
        ["py3", "-m", sessions.PINNED_MODULE, "--stdio", "--revisions", "2025-13-01"],  # the fixture says why
        ["sh", "-c", f"{gateway} | tee log"],  # a shell line
    ]
    for parts in unchanged:
        assert sessions.with_sessions(parts, fork) == parts


def test_a_stdio_target_that_starts_the_fixture_is_served_by_a_forked_session():
    assert as_started(FIXTURE, {}) == forkserver.fixture_command()
    assert as_started(FIXTURE, {"MCP_COMPARE_FIXTURE_JOURNAL": "/x"}) == FIXTURE, "the fixture reads it: as configured"
    server_pid = forkserver._server[0].pid
    transport = open_transport(TargetSpec("the fixture", "stdio", command=FIXTURE, upstream="fixture"), Limits())
    client = WireClient(transport)
    try:
        assert client.open("2025-11-25").negotiated == "2025-11-25"
        forked = descendants(server_pid) - {server_pid}
        assert len(forked) == 1, "the session runs as a child of the fork server"
        assert str(forkserver.LAUNCHER) in transport.process.args
    finally:
        client.close()
    wait_for(lambda: not any(alive(pid) for pid in forked), 10, "the session ended with its launcher")
