"""Every process a target started, found and ended: its process group, its descendants, and any
process that left both (a new session, a double fork) but still carries the mark we put in its
environment. Reads /proc; no Django.

A child that leaves the process group and ignores SIGTERM used to outlive its run and hold the
worker (its stdout stayed open). `end_tree` sends SIGTERM to all of them, waits a bounded time, then
SIGKILL to whatever is left. Only a process that both empties its environment and escapes the tree
gets away; that takes a container or a cgroup, which a dashboard does not own.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import time
from pathlib import Path

#: The environment variable that marks the processes of one target run.
MARK_NAME = "MCP_COMPARE_PROBE_MARK"
PROC = Path("/proc")


def new_mark() -> dict[str, str]:
    """An environment entry that every descendant inherits unless it clears its environment."""
    return {MARK_NAME: secrets.token_hex(12)}


def _stat_fields(pid: str) -> list[str]:
    try:
        stat = (PROC / pid / "stat").read_text()
    except OSError:
        return []
    # pid (comm) state ppid pgrp …: comm may hold spaces, so read after its closing parenthesis.
    return stat[stat.rfind(")") + 2 :].split()


def _carries(pid: str, mark: bytes) -> bool:
    try:
        return mark in (PROC / pid / "environ").read_bytes().split(b"\0")
    except OSError:
        return False


def members(root: int, mark: dict[str, str] | None = None) -> set[int]:
    """Live (not zombie) processes of `root`'s tree: its group, its descendants, and the marked."""
    if not PROC.is_dir():
        return {root}
    marked = f"{MARK_NAME}={mark[MARK_NAME]}".encode() if mark else None
    parents: dict[int, int] = {}
    found: set[int] = set()
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat_fields(entry.name)
        if len(fields) < 3 or fields[0] in ("Z", "X"):
            continue
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        if fields[2] == str(root) or (marked and pid != os.getpid() and _carries(entry.name, marked)):
            found.add(pid)
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    pending = [root, *found]
    while pending:
        for child in children.get(pending.pop(), []):
            if child not in found:
                found.add(child)
                pending.append(child)
    if root in parents:
        found.add(root)
    # Never this process or one it descends from (the worker, its supervisor, a shell): whatever
    # a target's processes share with us, ending them must not end us.
    return found - _ancestors(os.getpid(), parents)


def _ancestors(pid: int, parents: dict[int, int]) -> set[int]:
    line = {pid}
    while (pid := parents.get(pid, 0)) > 1 and pid not in line:
        line.add(pid)
    return line


def _signal_all(pids: set[int], sig: signal.Signals) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def end_group(process: subprocess.Popen, *, wait: float = 5.0) -> None:
    """SIGTERM to the process group a child leads (started with a session of its own), up to
    `wait` seconds for it, then SIGKILL while any member is left; the child is reaped. For children
    whose descendants stay in their group (a fork server, a host, opencode serve); `end_tree` also
    finds those that left it."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=wait)
            os.killpg(process.pid, 0)  # a member still there gets the next signal
        except subprocess.TimeoutExpired:
            continue
        except ProcessLookupError:
            break
    process.poll()


def end_tree(
    process: subprocess.Popen, mark: dict[str, str] | None = None, *, grace: float = 2.0, reap: float = 5.0
) -> int:
    """SIGTERM to every member, up to `grace` seconds for them to go, SIGKILL to the rest; the
    direct child is reaped. Returns how many processes had to be killed. Bounded in time."""
    targets = members(process.pid, mark)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGTERM)
    _signal_all(targets, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        process.poll()
        targets = members(process.pid, mark)
        if not targets:
            break
        time.sleep(0.05)
    killed = len(targets)
    if targets:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        # Children forked between the two readings are caught by a last one.
        _signal_all(targets | members(process.pid, mark), signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=reap)
    # A process forked between the readings above (a child caught mid-fork) is killed here too:
    # whatever still carries the tree's group or mark is killed until nothing does.
    deadline = time.monotonic() + reap
    while (left := members(process.pid, mark)) and time.monotonic() < deadline:
        _signal_all(left, signal.SIGKILL)
        time.sleep(0.02)
    return killed
