"""Run one host once: a fresh home, the fake model, the egress trap, the upstream behind the
recorder, the host's command with stdin closed and a deadline, and its whole process group ended
after. Returns everything observed, raw; `reached.py` and `told.py` read it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from comparison.hostlab.adapters.base import Adapter, Context
from comparison.hostlab.egress_trap import EgressTrap, proxy_environment
from comparison.hostlab.fake_model import FakeModel, Script
from comparison.probes.processes.process_tree import end_group

RECORDER = Path(__file__).resolve().parent / "recorder.py"
RUN_TIMEOUT = 90.0
OUTPUT_KEPT = 64 * 1024
#: Names of this process's environment a host may see: where programs are and a locale.
PASSED = ("PATH", "LANG", "LC_ALL", "TZ")


@dataclass
class RunRecord:
    host: str
    version: str
    tool: str
    command: list[str]
    seconds: float
    exit_code: int | None
    timed_out: bool
    model_requests: list[dict[str, Any]]
    capture: dict[str, Any] | None  # the request that carried the tool's result, or the driver's output
    called_as: str
    upstream_lines: list[dict[str, Any]]
    egress: list[str]
    stdout_tail: str
    stderr_tail: str
    files: dict[str, str] = field(default_factory=dict)
    connects: list[str] = field(default_factory=list)
    home: str = ""  # the run's own folder (removed after): every process of the run names it
    starts: int = 1  # how often the host was started for this run (Adapter.starts)


def _turn(recorded) -> dict[str, Any]:
    turn = recorded.turn
    return {
        "path": recorded.path,
        "offered": list(turn.offered) if turn else [],
        "outputs": [
            {
                "name": o.name,
                "call_id": o.call_id,
                "raw": o.raw,
                "error_flag": o.error_flag,
                "siblings": list(o.siblings),
            }
            for o in (turn.outputs if turn else ())
        ],
        "body": recorded.body,
    }


def _model_capture(model: FakeModel) -> dict[str, Any] | None:
    return _turn(model.capture) if model.capture else None


def _stdout_capture(out: bytes) -> dict[str, Any] | None:
    """A driver prints one JSON object: what its host's model gets."""
    try:
        value = json.loads(out.decode("utf-8", "replace").strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None
    return {"path": "stdout", "driver": value} if isinstance(value, dict) else None


CONNECT = re.compile(
    r"connect\(\d+, \{sa_family=(AF_INET6?|AF_UNIX)[^}]*?"
    r'(?:sin6?_addr=inet_pton\(AF_INET6?, "([^"]+)"\)|inet_addr\("([^"]+)"\)|sun_path="([^"]*)")'
)


def _connects(trace: Path) -> list[str]:
    """Every address a traced process connected to: `inet:127.0.0.1`, `inet6:::1`, `unix:/path`."""
    if not trace.exists():
        return ["(no trace written)"]
    found = []
    for line in trace.read_text(encoding="utf-8", errors="replace").splitlines():
        match = CONNECT.search(line)
        if match:
            family, six, four, path = match.groups()
            found.append(f"unix:{path}" if family == "AF_UNIX" else f"inet:{six or four}")
    return sorted(set(found))


def _upstream(record: Path) -> list[dict[str, Any]]:
    if not record.exists():
        return []
    lines = []
    for line in record.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            continue
    return lines


@dataclass(frozen=True)
class HostRun:
    """What one host run is asked: the tool (`*`: every tool) and its arguments; the upstream, a
    stdio `server` command with its environment or a Streamable HTTP `server_url` with its headers;
    the deadline; whether to trace every connect (strace); the folder of a swept host version."""

    tool: str
    server: list[str] = field(default_factory=list)
    server_env: dict[str, str] = field(default_factory=dict)
    arguments: dict[str, Any] = field(default_factory=dict)
    timeout: float = RUN_TIMEOUT
    trace_connects: bool = False
    server_url: str = ""
    server_headers: dict[str, str] = field(default_factory=dict)
    install_dir: Path | None = None


def run(adapter: Adapter, executable: Path, asked: HostRun) -> RunRecord:
    """One run of `adapter`'s host. With `trace_connects`, the host runs under strace and the
    record lists every address any of its processes connected to (`connects`)."""
    home = Path(tempfile.mkdtemp(prefix=f"mcp-compare-lab-{adapter.key}-"))
    record = home / "upstream.jsonl"
    script = Script(
        tool=asked.tool, arguments=asked.arguments, bare_names=adapter.bare_tool_names, own_tools=adapter.own_tools
    )
    env_file = home / "server-env.json"
    wrapped = [sys.executable, str(RECORDER), str(record), "--env-file", str(env_file), "--", *asked.server]
    started = time.monotonic()
    try:
        env_file.touch(mode=0o600)
        env_file.write_text(json.dumps(asked.server_env), encoding="utf-8")
        with FakeModel(script) as model, EgressTrap() as trap:
            context = _context(home, model.url, wrapped, asked)
            launch = adapter.launch(context, executable)
            env = _environment(home, launch, trap.url)
            context.project.mkdir(exist_ok=True)
            trace = home / "connects.trace"
            argv = launch.argv
            if asked.trace_connects:
                argv = ["strace", "-f", "-qq", "-e", "trace=connect", "-o", str(trace), *argv]
            process, out, err, timed_out = _execute(argv, launch.cwd, env, asked.timeout)
            return RunRecord(
                host=adapter.key,
                version=adapter.version,  # the adapter's, replaced by a sweep's version
                tool=asked.tool,
                command=launch.argv,
                seconds=round(time.monotonic() - started, 3),
                exit_code=process.returncode,
                timed_out=timed_out,
                model_requests=[_turn(r) for r in model.requests],
                capture=_stdout_capture(out) if adapter.reads == "stdout" else _model_capture(model),
                called_as=model.called_as,
                upstream_lines=_upstream(record),
                egress=list(trap.attempts),
                stdout_tail=out.decode("utf-8", "replace")[-OUTPUT_KEPT:],
                stderr_tail=err.decode("utf-8", "replace")[-OUTPUT_KEPT:],
                files={str(path.relative_to(home)): text for path, text in launch.files.items()},
                connects=_connects(trace) if asked.trace_connects else [],
                home=str(home),
            )
    finally:
        shutil.rmtree(home, ignore_errors=True)


def _context(home: Path, model_url: str, wrapped: list[str], asked: HostRun) -> Context:
    prompt = f"CASE={asked.tool} Call the MCP tool {asked.tool} once, then stop."
    if asked.tool == "*":
        prompt = "Call every tool of the MCP server named probe once, then stop."
    return Context(
        home,
        model_url,
        wrapped,
        {},
        prompt,
        asked.tool,
        dict(asked.arguments),
        asked.server_url,
        asked.install_dir,
        dict(asked.server_headers),
    )


def _environment(home: Path, launch, trap_url: str) -> dict[str, str]:
    """The host's files written and its environment: nothing of ours but PATH and the locale, its
    own home, the egress trap as its proxy."""
    for path, text in launch.files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    env = {name: os.environ[name] for name in PASSED if name in os.environ}
    env |= {"HOME": str(home), "TMPDIR": str(home / "tmp"), "NO_COLOR": "1", "CI": "1"}
    env |= {**proxy_environment(trap_url), **launch.env}
    (home / "tmp").mkdir(exist_ok=True)
    return env


def _execute(argv: list[str], cwd, env: dict[str, str], timeout: float):
    """The host started in a session of its own with stdin closed, waited for up to `timeout`, and
    its process group ended: (process, stdout, stderr, timed out)."""
    process = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    timed_out = False
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        end_group(process)
        out, err = process.communicate(timeout=10)
    end_group(process)
    return process, out, err, timed_out
