"""A target's own server, started for a run and stopped after it: a proxy such as mcp-proxy or
supergateway that serves the target's URL. Loopback only; bounded in time; ended by its process
group, so a proxy's own children (the upstream it spawned) end with it, and by a guard when the
process that started it is killed and cannot end it (comparison.probes.processes.tether). No Django."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

from comparison.probes.processes import process_tree
from comparison.probes.processes.child_env import child_environment
from comparison.probes.processes.tether import Tether
from comparison.probes.transport.listeners import listener_is_among

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
START_SECONDS = 30.0
STOP_SECONDS = 5.0
LOG_TAIL = 2000


class LaunchFailed(Exception):
    """The launch command did not come up listening on the target's port."""


def loopback_port(url: str) -> tuple[str, int] | None:
    """(host, port) of a loopback URL, else None: a launched server only ever serves this machine."""
    parts = urlsplit(url)
    if parts.hostname not in LOOPBACK_HOSTS:
        return None
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return None
    return parts.hostname, port


def free_port() -> int:
    """A port on 127.0.0.1 nothing listens on now (for a server this process starts next)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _accepts(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


@contextlib.contextmanager
def launched(
    command: list[str],
    url: str,
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = START_SECONDS,
) -> Iterator[None]:
    """Run `command` until the block ends; enter once the URL's port accepts connections."""
    address = loopback_port(url)
    if address is None:
        raise LaunchFailed(f"a launched target must serve a loopback URL (127.0.0.1), not {url!r}")
    if _accepts(*address):
        raise LaunchFailed(f"port {address[1]} is already in use by another process: stop it or pick a free port")
    mark = process_tree.new_mark()
    with tempfile.TemporaryFile() as log, contextlib.closing(Tether(command)) as tether:
        try:
            process = subprocess.Popen(
                tether.argv,
                pass_fds=tether.pass_fds,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                cwd=cwd,
                env=child_environment(env, extra=mark),
            )
        except OSError as error:
            raise LaunchFailed(f"could not start {command[0]!r}: {error}") from error
        try:
            _wait_listening(process, address, timeout, log, mark)
            yield
        finally:
            _stop(process, mark)


def _wait_listening(
    process: subprocess.Popen, address: tuple[str, int], timeout: float, log, mark: dict[str, str]
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise LaunchFailed(f"the launch command exited with code {process.returncode}: {_tail(log)}")
        if _accepts(*address):
            # Another process can take the port between the check before the launch and the
            # launch's own bind; the run would then probe that process in the target's name.
            if listener_is_among(address[1], process_tree.members(process.pid, mark)) is False:
                raise LaunchFailed(
                    f"port {address[1]} answers, but from a process the launch did not start (it took the "
                    f"port first): stop it or pick a free port. The launch said: {_tail(log)}"
                )
            return
        time.sleep(0.1)
    raise LaunchFailed(f"the launch command was not listening on port {address[1]} after {timeout:.0f} s: {_tail(log)}")


def _tail(log) -> str:
    log.seek(0, os.SEEK_END)
    size = log.tell()
    log.seek(max(0, size - LOG_TAIL))
    return log.read().decode("utf-8", "replace").strip() or "(no output)"


def _stop(process: subprocess.Popen, mark: dict[str, str]) -> None:
    """Every process of the launch ended (its group, its descendants, any that left both but carry
    the mark), and waited for: the next run may need the same port at once."""
    process_tree.end_tree(process, mark, grace=STOP_SECONDS, reap=STOP_SECONDS)
