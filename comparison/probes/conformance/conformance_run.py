"""Running the official conformance suite: against the built-in fixture on a loopback port
(Direct) and against a target's URL (Via). Bounded in time; every process the suite starts is
ended by its process group. No Django.

The suite comes with the probe peers (comparison/probes/peers/node, on Node 22 from npm); a
machine without it says so in the run, it never passes by default.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from comparison.hostlab.conformance_client import NOT_MEASURED, read_checks
from comparison.probes.conformance import conformance
from comparison.probes.processes import process_tree
from comparison.probes.processes.child_env import child_environment
from comparison.probes.processes.launch import LaunchFailed, free_port, launched

PROJECT = Path(__file__).resolve().parents[3]
NODE_BIN = Path(__file__).resolve().parent.parent / "peers" / "node" / "node_modules" / ".bin"
SUITE_BIN = NODE_BIN / "conformance"
SUITE_SECONDS = 120.0
#: The suite's client mode (0.2.0-alpha.12) comes with the host lab's packages.
CLIENT_SUITE_BIN = PROJECT / "comparison" / "hostlab" / "node" / "node_modules" / ".bin" / "conformance"
LOOPBACK_PRELOAD = Path(__file__).resolve().parent.parent / "peers" / "loopback.cjs"
PROBE_CLIENT = "comparison.probes.conformance.conformance_client"


def installed() -> bool:
    return SUITE_BIN.exists()


def run_suite(url: str, *, timeout: float = SUITE_SECONDS) -> conformance.Pass:
    """Every server scenario of the suite against `url`; a suite that cannot run, or outlasts
    `timeout`, is a Pass with its error (and whatever it wrote before)."""
    if not installed():
        return conformance.Pass(error=f"the conformance suite is not installed ({SUITE_BIN})")
    with tempfile.TemporaryDirectory(prefix="mcp-compare-conformance-") as out:
        error = _run(SUITE_BIN, ["server", "--url", url, "-o", out], {}, timeout)
        found = conformance.read_folder(Path(out))
    if not found and not error:
        error = "the conformance suite wrote no results"
    return conformance.Pass(found, error)


def run_client_scenario(scenario: str, *, timeout: float = SUITE_SECONDS) -> dict[str, Any]:
    """One client scenario of the newer suite (CLIENT_SUITE_BIN, client mode) against the probe's
    own client: {"outcome", "checks", "error", "client"} as the host lab reads a host's."""
    if not CLIENT_SUITE_BIN.exists():
        return {"outcome": NOT_MEASURED, "checks": [], "error": f"not installed ({CLIENT_SUITE_BIN})", "client": ""}
    # The scenario servers listen without a host: the loopback preload keeps them on 127.0.0.1.
    extra = {"NODE_OPTIONS": f"--require {LOOPBACK_PRELOAD}", "PYTHONPATH": str(PROJECT)}
    with tempfile.TemporaryDirectory(prefix="mcp-compare-client-suite-") as out:
        command = ["client", "--command", f"{sys.executable} -m {PROBE_CLIENT}", "--scenario", scenario, "-o", out]
        error = _run(CLIENT_SUITE_BIN, command, extra, timeout)
        found = read_checks(Path(out)).get(scenario) or {"outcome": NOT_MEASURED, "checks": []}
        client = "\n".join(p.read_text(errors="replace")[-4000:] for p in Path(out).rglob("std*.txt"))
    if not found["checks"] and not error:
        error = "the suite wrote no checks"
    return {**found, "error": error, "client": client}


def _run(suite: Path, arguments: list[str], extra: dict[str, str], timeout: float) -> str:
    """Run the suite with Node 22 from beside it; why it did not finish, or ""."""
    env = child_environment({"PATH": f"{suite.parent}:{os.environ.get('PATH', '')}", **extra})
    mark = process_tree.new_mark()
    try:
        process = subprocess.Popen(
            [str(suite), *arguments],
            cwd=PROJECT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            env={**env, **mark},
        )
    except OSError as error:
        return f"could not start the conformance suite: {error}"
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"the conformance suite took longer than {timeout:.0f} s"
    finally:
        process_tree.end_tree(process, mark)
    return ""


def direct(*, timeout: float = SUITE_SECONDS) -> conformance.Pass:
    """The suite against the built-in fixture, served over Streamable HTTP for the pass."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    command = [sys.executable, "-m", "comparison.probes.fixture.fixture_server", "--port", str(port)]
    try:
        with launched(command, url, cwd=PROJECT):
            return run_suite(url, timeout=timeout)
    except LaunchFailed as error:
        return conformance.Pass(error=f"the fixture did not start for the suite: {error}")


def compare_target(url: str, transport: str, *, timeout: float = SUITE_SECONDS) -> tuple[list[dict], str]:
    """(rows, status) of a conformance pass for a target: Direct beside Via, or why there is none."""
    if transport != "http":
        return [], conformance.NOT_HTTP
    if not installed():
        return [], f"not run: the conformance suite is not installed ({SUITE_BIN})"
    reference = direct(timeout=timeout)
    if reference.error and not reference.scenarios:
        return [], f"not run: {reference.error}"
    through = run_suite(url, timeout=timeout)
    return [row.as_dict() for row in conformance.compare(reference, through)], ""
