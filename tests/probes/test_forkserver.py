"""The fork server behind the built-in target: sessions are forks of one process that imported the
fixture, they end with their launcher, the launcher works without the server, and the server
ends with the process that started it. Every process is checked gone by its pid."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from comparison.probes.fixture import forkserver
from comparison.probes.transport.stdio_transport import StdioTransport
from comparison.probes.transport.wire import WireClient
from tests.support.processes import PROJECT, descendants


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone for our purposes
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_until(condition, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


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
    assert wait_until(lambda: not alive(session_pid)), "a killed launcher takes its session with it"
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
        assert wait_until(lambda: not alive(server_pid)), "an orphaned fork server exits"
    finally:
        for pid in (starter.pid,):
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        starter.stdout.close()
