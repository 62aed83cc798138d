"""What the fixture upstream records having received, kept where the probe can ask for it later.

A proxy may run a new upstream process for every message (supergateway's stateless mode), so what
one process saw (a call started, a cancel for its request id) is written to a file per probe key
that any fixture process on this machine can read, not kept in memory. Keys are the probe's own
(checked against a strict pattern), files and events are bounded, and reading a key removes it.
No Django.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any

KEY = re.compile(r"^[a-z0-9][a-z0-9-]{0,80}$")
MAX_EVENTS = 200
MAX_LINE = 4096
#: Files older than this are left over from a probe that never came back for them.
STALE_SECONDS = 3600


def folder() -> Path:
    path = Path(os.environ.get("MCP_COMPARE_FIXTURE_JOURNAL") or Path(tempfile.gettempdir()) / "mcp-compare-journal")
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def record(key: str, event: dict[str, Any]) -> None:
    if not KEY.match(key or ""):
        return
    line = json.dumps({**event, "at": round(time.time(), 3), "pid": os.getpid()}, default=str)
    if len(line) > MAX_LINE:
        line = json.dumps({"event": event.get("event", "?"), "truncated": True, "pid": os.getpid()})
    path = folder() / f"{key}.jsonl"
    try:
        if path.exists() and path.stat().st_size > MAX_EVENTS * MAX_LINE:
            return
        # One short append per event: whole lines even with several fixture processes writing.
        with open(path, "a", encoding="utf-8") as out:
            out.write(line + "\n")
    except OSError:
        pass


def read(key: str, *, clear: bool = True) -> list[dict[str, Any]]:
    if not KEY.match(key or ""):
        return []
    path = folder() / f"{key}.jsonl"
    events: list[dict[str, Any]] = []
    try:
        with open(path, encoding="utf-8") as lines:
            for line in list(lines)[:MAX_EVENTS]:
                try:
                    value = json.loads(line)
                except ValueError:
                    continue
                if isinstance(value, dict):
                    events.append(value)
        if clear:
            path.unlink(missing_ok=True)
    except OSError:
        return events
    _prune()
    return events


def _prune() -> None:
    cutoff = time.time() - STALE_SECONDS
    try:
        for path in folder().glob("*.jsonl"):
            if path.stat().st_mtime < cutoff:
                path.unlink(missing_ok=True)
    except OSError:
        pass
