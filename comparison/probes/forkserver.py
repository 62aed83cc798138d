"""A fork server for the fixture's stdio sessions: one process imports the fixture (and the MCP
SDK) once and forks a session per launcher (comparison/probes/fixture_launch.py), so a probe of
the built-in target starts five sessions in milliseconds rather than five interpreters in five
seconds. The sessions are real: the SDK's stdio server on real pipes. No Django.

    python -m comparison.probes.forkserver --socket PATH
"""

from __future__ import annotations

import argparse
import atexit
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from comparison.probes.child_env import child_environment
from comparison.probes.process_tree import end_group

PROJECT = Path(__file__).resolve().parent.parent.parent
LAUNCHER = Path(__file__).resolve().parent / "fixture_launch.py"
START_TIMEOUT = 30.0

_lock = threading.Lock()
_server: tuple[subprocess.Popen, str] | None = None


def fixture_command(revisions: str = "") -> list[str]:
    """The command of a built-in fixture session: a launcher of a fork of this process's fork
    server (started on first use, ended when this process exits); `revisions` pins the session
    (comparison/probes/era_gate.py)."""
    return [sys.executable, "-I", str(LAUNCHER), ensure(), str(PROJECT), *([revisions] if revisions else [])]


def ensure() -> str:
    """The socket of this process's fork server, started if it is not running."""
    global _server
    with _lock:
        if _server is not None and _server[0].poll() is None:
            return _server[1]
        folder = tempfile.mkdtemp(prefix="mcp-compare-fixture-")
        path = os.path.join(folder, "fork.sock")
        process = subprocess.Popen(
            [sys.executable, "-m", "comparison.probes.forkserver", "--socket", path],
            cwd=PROJECT,
            env=child_environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + START_TIMEOUT
        while not os.path.exists(path):
            if process.poll() is not None or time.monotonic() > deadline:
                _stop(process, folder)
                # The launcher falls back to starting the fixture itself.
                return path
            time.sleep(0.02)
        _server = (process, path)
        atexit.register(_stop, process, folder)
        return path


def _stop(process: subprocess.Popen, folder: str) -> None:
    end_group(process)
    try:
        os.unlink(os.path.join(folder, "fork.sock"))
        os.rmdir(folder)
    except OSError:
        pass


def serve(path: str) -> None:
    """Accept launchers and fork a fixture session for each; end when the parent is gone."""
    from mcp.server import stdio  # noqa: F401  (imported by the session: load it here too)

    from comparison.probes import fixture_pinned  # the expensive imports (the fixture's), done once

    parent = os.getppid()
    # Children are reaped by the kernel; a session's end is seen by its launcher, not here.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path + ".tmp")
    os.rename(path + ".tmp", path)  # ready only once it listens
    listener.listen(32)
    listener.settimeout(1.0)
    while os.getppid() == parent:
        try:
            connection, _ = listener.accept()
        except TimeoutError:
            continue
        try:
            greeting, fds, _, _ = socket.recv_fds(connection, 64, 3)
        except OSError:
            connection.close()
            continue
        if len(fds) != 3:
            for fd in fds:
                os.close(fd)
            connection.close()
            continue
        if os.fork() == 0:
            listener.close()
            _session(connection, fds, fixture_pinned, greeting[1:].decode("ascii", "replace") or "all")
        for fd in fds:
            os.close(fd)
        connection.close()


def _session(connection: socket.socket, fds: list[int], fixture_pinned, revisions: str) -> None:
    """In the fork: the launcher's stdin, stdout and stderr become ours, and we serve on them
    (pinned to `revisions`, or every revision for "all")."""
    code = 0
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)

        def launcher_gone() -> None:
            # A launcher killed by its prober takes the session with it.
            while connection.recv(64):
                pass
            os._exit(0)

        threading.Thread(target=launcher_gone, daemon=True).start()
        fixture_pinned.serve_stdio(fixture_pinned.pin_from(revisions))
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", required=True)
    serve(parser.parse_args().socket)


if __name__ == "__main__":
    main()
