"""Start a server process for a test, wait for its loopback port, end it by its process group."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from comparison.probes.processes import process_tree

PROJECT = Path(__file__).resolve().parents[2]
PEERS = PROJECT / "comparison" / "probes" / "peers"
NODE_PEERS = PEERS / "node" / "node_modules"
PEERS_VENV = PROJECT / ".venv-peers"
LOOPBACK = PEERS / "loopback.cjs"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def descendants(pid: int) -> set[int]:
    """The process and every live process below it (and in its group), from /proc."""
    return process_tree.members(pid) | {pid}


def listening_addresses(pid: int) -> list[str]:
    """Local addresses the process and its descendants listen on, from `ss`."""
    pids = descendants(pid)
    out = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True, timeout=10, check=False).stdout
    return [line.split()[3] for line in out.splitlines() if {int(p) for p in re.findall(r"pid=(\d+),", line)} & pids]


@contextmanager
def server(command: list[str], port: int, *, env: dict[str, str] | None = None, timeout: float = 30.0):
    process = subprocess.Popen(
        command,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        cwd=PROJECT,
    )
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{command[0]} exited with {process.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{command[0]} did not listen on 127.0.0.1:{port} within {timeout} s") from None
                time.sleep(0.1)
        yield process
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait(timeout=10)


def node_env() -> dict[str, str]:
    return {"NODE_OPTIONS": f"--require {LOOPBACK}"}


def mcp_proxy_command(port: int, *upstream: str) -> list[str]:
    """mcp-proxy 0.13.0 serving Streamable HTTP on 127.0.0.1:port in front of a stdio upstream."""
    from comparison.services.peer_targets import mcp_proxy_command as command

    return command(port, list(upstream))


@contextmanager
def running(command: list[str], *, env: dict[str, str] | None = None, log: Path | None = None):
    """A process for the length of a block, in its own process group, ended by its pid (SIGTERM,
    then SIGKILL) and reaped; children in its group end with it."""
    out = open(log, "ab") if log else subprocess.DEVNULL
    process = subprocess.Popen(
        command,
        env={**os.environ, **(env or {})},
        stdout=out,
        stderr=subprocess.STDOUT if log else subprocess.DEVNULL,
        start_new_session=True,
        cwd=PROJECT,
    )
    try:
        yield process
    finally:
        end_group(process)
        if log:
            out.close()


def end_group(process: subprocess.Popen) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=10)
            break
        except subprocess.TimeoutExpired:
            continue
    process.wait(timeout=10)
    # Nothing of the group may outlive it.
    try:
        os.killpg(process.pid, 0)
    except ProcessLookupError:
        return
    os.killpg(process.pid, signal.SIGKILL)


def run_manage(*args: str, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess:
    """Run a management command to completion, whatever its exit code."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def manage(*args: str, env: dict[str, str], timeout: float = 120) -> str:
    """Run a management command to completion; its standard output."""
    completed = run_manage(*args, env=env, timeout=timeout)
    if completed.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} exited {completed.returncode}: {completed.stderr[-2000:]}")
    return completed.stdout


def wait_for(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"{what} within {timeout} s")


def fetch(url: str, timeout: float = 20.0) -> tuple[int, dict[str, str], str, float]:
    """(status, headers, body, seconds) of a GET, an HTTP error's included; a request that does not
    answer within `timeout` is a hang, and fails the test."""
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 (a loopback http URL)
            status, headers, body = response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        status, headers, body = error.code, dict(error.headers), error.read().decode()
    return status, headers, body, time.monotonic() - started


#: What the command line of a Cline hub daemon a lab run started holds: Cline starts it in a session
#: of its own, and the runs that overlap share it (one port), so no run's end may end it.
HUB_DAEMON = (b"--cline-hub-daemon", b"mcp-compare-lab-cline-")


def command_lines():
    """(pid, command line) of every process there is now, the arguments NUL-separated."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            yield int(entry.name), (entry / "cmdline").read_bytes()
        except OSError:
            continue


def end_hub_daemons(wait: float = 5.0) -> list[int]:
    """Every Cline hub daemon the lab's runs left, ended by its pid (SIGTERM, up to `wait` seconds,
    then SIGKILL): the pids found."""
    found = [pid for pid, cmdline in command_lines() if all(part in cmdline for part in HUB_DAEMON)]
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in found:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                continue
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and any(alive(pid) for pid in found):
            time.sleep(0.1)
    return found


def alive(pid: int) -> bool:
    """Running, not a zombie left for a parent that does not reap it (a container's init may
    leave an orphan's zombie unreaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2 :][:1] not in ("Z", "X")
