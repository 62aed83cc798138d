"""The lab as a whole: run hosts through scenarios (in parallel, bounded), read each run into an
observation with provenance, and reuse an observation already made for the same host version,
scenario, fixture version and lab version."""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from comparison.hostlab import catalogue
from comparison.hostlab.adapters import ADAPTERS, Adapter
from comparison.hostlab.adapters.base import ANY_TOOL
from comparison.hostlab.fake_model import find_tool
from comparison.hostlab.features import call_reply, judge, not_called_reason
from comparison.hostlab.install import executable, node_binary
from comparison.hostlab.reached import reached
from comparison.hostlab.runner import HostRun, RunRecord, run
from comparison.hostlab.told import told
from comparison.probes.fixture import forkserver

HERE = Path(__file__).resolve().parent
#: Modules of the package that neither make runs nor read them: a change to them keeps the cache.
NOT_IN_VERSION = {"matrix.py", "predictions.py", "claims.py", "through.py", "install.py", "opencode_serve.py",
                  "chat_fake_model.py", "codemode_node.py", "compare.py", "protocol_server.py",
                  "stdio_result_server.py"}  # fmt: skip
#: What changes from run to run and says nothing about the host: timings, the run's own folder.
VOLATILE = (
    (re.compile(r"Wall time: [0-9.]+ seconds"), "Wall time: N seconds"),
    (re.compile(re.escape(tempfile.gettempdir()) + r"/mcp-compare-lab-[^\s\]\"']*"), "<lab home>"),
    (re.compile(re.escape(tempfile.gettempdir()) + r"/mcp-compare-fixture-[^\s\]\"']*"), "<fixture socket>"),
)


@cache
def lab_version() -> str:
    """A short hash of the lab's own code: a change to how runs are made or read is a new version."""
    digest = hashlib.sha256()
    preloads = sorted((HERE / "preload").glob("*.cjs"))
    for path in [*sorted(HERE.rglob("*.py")), *preloads, HERE / "node" / "codemode_lab.mjs"]:
        if path.name not in NOT_IN_VERSION and "node_modules" not in path.parts:
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def stable(text: str) -> str:
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    return text


def stable_parts(observed: dict[str, Any]) -> list[dict[str, Any]]:
    """What reached the model with the volatile bits replaced: what a pinned capture is compared on."""
    return [dict(part, text=stable(part["text"])) if part["kind"] == "text" else part for part in observed["parts"]]


#: Why a library's "what it told the upstream" is not the host's: the lab's driver is the MCP client.
DRIVER_TOLD = "a library: its MCP client is the lab's driver, so what the upstream was told is not the host's"


def cache_key(host: str, version: str, scenario: str, fixture: str) -> str:
    return f"{host}@{version}/{scenario}/fixture-{fixture}/lab-{lab_version()}"


def binary_path(adapter: Adapter, modules: Path | None = None) -> Path | None:
    if adapter.binary == "node":
        node = node_binary()
        return Path(node) if node else None
    path = executable(adapter.binary) if modules is None else executable(adapter.binary, modules)
    return path if path.exists() else None


def observe(
    record: RunRecord, adapter: Adapter, scenario: str, fixture: str, reference: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A run read into what the pages show, with everything needed to check it (provenance).
    `reference`: the reply to judge against when the run has no recorded upstream (a target
    reached by URL, which fronts the fixture: the fixture's own reply)."""
    seen = reached(record.capture, record.called_as)
    reply = call_reply(record.upstream_lines, scenario)
    if reply is None and reference is not None and seen["reached"]:
        reply = reference
    return {
        "host": adapter.key,
        "label": adapter.label,
        "version": record.version,
        "scenario": scenario,
        "fixture": fixture,
        "key": cache_key(adapter.key, record.version, scenario, fixture),
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": [stable(part) for part in record.command],
        "seconds": record.seconds,
        "exit_code": record.exit_code,
        "timed_out": record.timed_out,
        "starts": record.starts,
        "called_as": record.called_as,
        "reached": dict(seen, parts=stable_parts(seen), text=stable(seen["text"])),
        "told": told(record.upstream_lines) if adapter.reads == "model" else {"not_measured": DRIVER_TOLD},
        "cells": judge(reply, seen, not_called_reason(record.upstream_lines, scenario)),
        "egress": record.egress,
        "connects": record.connects,
        "raw": {
            "capture": record.capture,
            "upstream": record.upstream_lines,
            "model_requests": len(record.model_requests),
            "stdout": record.stdout_tail[-8000:],
            "stderr": record.stderr_tail[-8000:],
            "files": record.files,
        },
    }


@dataclass(frozen=True)
class RunSetup:
    """What each run of a pass is made against: the fixture when `server` is None, else another
    stdio MCP server with its environment (or, with `server_url`, a Streamable HTTP one with its
    headers); the tool's arguments; whether to trace every connect (strace); the folder of a swept
    host version (`install_dir`), whose version the adapter says."""

    server: list[str] | None = None
    server_env: dict[str, str] = field(default_factory=dict)
    arguments: dict[str, Any] = field(default_factory=dict)
    trace_connects: bool = False
    install_dir: Path | None = None
    server_url: str = ""
    server_headers: dict[str, str] = field(default_factory=dict)

    @property
    def fixture(self) -> str:
        """What the observations name as their server's version."""
        return catalogue.fixture_version() if self.server is None else "user-server"


def run_one(adapter: Adapter, scenario: str, setup: RunSetup | None = None) -> dict[str, Any]:
    """One host, one tool: the fixture's, unless `setup` names another MCP server."""
    setup = setup or RunSetup()
    install_dir = setup.install_dir
    binary = binary_path(adapter, None if install_dir is None else install_dir / "node_modules")
    fixture = setup.fixture
    if not adapter.runnable or binary is None:
        return not_measured(adapter, scenario, fixture, adapter.unavailable or f"{adapter.package} is not installed")
    for start in range(1, max(1, adapter.starts) + 1):
        asked = HostRun(
            tool=scenario,
            server=setup.server or forkserver.fixture_command(),
            server_env=catalogue.fixture_environment() if setup.server is None else dict(setup.server_env),
            arguments=dict(setup.arguments),
            trace_connects=setup.trace_connects,
            server_url=setup.server_url,
            server_headers=dict(setup.server_headers),
            install_dir=install_dir,
        )
        record = run(adapter, binary, asked)
        record.starts = start
        if scenario == ANY_TOOL or _tool_was_offered(record, adapter, scenario):
            break
    # Through a URL nothing records the upstream: the fixture the target fronts is the reference.
    reference = catalogue.fixture_reply(scenario) if setup.server_url else None
    return observe(record, adapter, scenario, fixture, reference)


def _tool_was_offered(record: RunRecord, adapter: Adapter, scenario: str) -> bool:
    """Whether the tool was called, or offered by name in any request to the model. (A tool behind a
    host's search is never offered by name: such hosts keep `starts` at 1.)"""
    bare = adapter.bare_tool_names
    return bool(record.called_as) or any(
        find_tool(tuple(turn["offered"]), scenario, bare=bare) for turn in record.model_requests
    )


def not_measured(adapter: Adapter, scenario: str, fixture: str, why: str) -> dict[str, Any]:
    return {
        "host": adapter.key,
        "label": adapter.label,
        "version": adapter.version,
        "scenario": scenario,
        "fixture": fixture,
        "key": cache_key(adapter.key, adapter.version, scenario, fixture),
        "not_measured": why,
        "cells": [{"feature": "call", "chip": "not measured", "detail": why}],
    }


def run_many(
    pairs: Iterable[tuple[str, str]],
    *,
    known: Callable[[str], dict[str, Any] | None] = lambda key: None,
    workers: int = 2,
    setup: RunSetup | None = None,
    adapters: dict[str, Adapter] = ADAPTERS,
) -> tuple[list[dict[str, Any]], int]:
    """(host, scenario) pairs -> (observations in order, how many were reused from `known`: only
    runs against the fixture are)."""
    pairs = list(pairs)
    setup = setup or RunSetup()
    fixture = setup.fixture
    found: dict[int, dict[str, Any]] = {}
    todo = []
    for index, (host, scenario) in enumerate(pairs):
        adapter = adapters[host]
        cached = known(cache_key(host, adapter.version, scenario, fixture)) if setup.server is None else None
        if cached is not None:
            found[index] = cached
        else:
            todo.append(index)
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        futures = {index: pool.submit(run_one, adapters[pairs[index][0]], pairs[index][1], setup) for index in todo}
        for index, future in futures.items():
            found[index] = future.result()
    return [found[index] for index in range(len(pairs))], len(pairs) - len(todo)


class FileCache:
    """Observations as JSON files under one folder, keyed by `cache_key` (the test lane's cache)."""

    def __init__(self, folder: Path):
        self.folder = folder

    def _path(self, key: str) -> Path:
        return self.folder / (hashlib.sha256(key.encode()).hexdigest()[:24] + ".json")

    def get(self, key: str) -> dict[str, Any] | None:
        path = self._path(key)
        if not path.exists():
            return None
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            return None

    def put(self, observation: dict[str, Any]) -> None:
        if "not_measured" in observation:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        self._path(observation["key"]).write_text(json.dumps(observation), encoding="utf-8")
