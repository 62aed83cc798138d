"""Which process listens on a loopback port: read from /proc/net/tcp{,6} (the listening socket's
inode) and each process's open descriptors. A launched target is trusted only once the socket that
answers on its port is one of its own processes': a port another process took between our check
and the launch's bind would otherwise be probed in its place. No Django."""

from __future__ import annotations

import os
from pathlib import Path

PROC = Path("/proc")
LISTEN = "0A"


def listening_inodes(port: int) -> set[str] | None:
    """The inodes of the sockets listening on `port` (any address), None when /proc cannot say."""
    found: set[str] = set()
    readable = False
    for table in ("tcp", "tcp6"):
        try:
            lines = (PROC / "net" / table).read_text().splitlines()[1:]
        except OSError:
            continue
        readable = True
        for line in lines:
            fields = line.split()
            if len(fields) > 9 and fields[3] == LISTEN and fields[1].rpartition(":")[2] == f"{port:04X}":
                found.add(fields[9])
    return found if readable else None


def socket_inodes(pid: int) -> set[str]:
    """The inodes of the sockets `pid` holds open (none when it is gone or not ours to read)."""
    folder = PROC / str(pid) / "fd"
    try:
        names = os.listdir(folder)
    except OSError:
        return set()
    found = set()
    for name in names:
        try:
            target = os.readlink(folder / name)
        except OSError:
            continue
        if target.startswith("socket:["):
            found.add(target[len("socket:[") : -1])
    return found


def listener_is_among(port: int, pids: set[int]) -> bool | None:
    """Whether the socket listening on `port` belongs to one of `pids`; None when /proc cannot say."""
    listening = listening_inodes(port)
    if not listening:
        return None
    return any(listening & socket_inodes(pid) for pid in pids)
