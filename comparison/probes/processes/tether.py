"""A command started so that it ends with the process that started it, even when that process is
killed with SIGKILL and stops nothing: a worker killed mid-run used to leave its target's launched
server (a proxy, the upstream it spawned) listening on the target's port, so the target's next run
failed with "port already in use", and the real-host lane's `opencode serve` running for good.
No Django."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

GUARD = Path(__file__).with_name("tether_guard.py")


class Tether:
    """`argv`: the command behind a guard (comparison/probes/processes/tether_guard.py), to start
    with `pass_fds`. The guard ends the command's tree once this object is closed or this process
    is gone, so close it only after ending the command yourself."""

    def __init__(self, command: list[str]) -> None:
        # Neither end is inherited by anything but the guard the read end is passed to.
        self._read, self._write = os.pipe()
        self.argv = [sys.executable, "-I", str(GUARD), str(self._read), "--", *command]
        self.pass_fds = (self._read,)

    def close(self) -> None:
        for fd in (self._read, self._write):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._read = self._write = -1
