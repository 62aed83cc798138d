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

from . import conformance, process_tree
from .child_env import child_environment
from .launch import LaunchFailed, free_port, launched

NODE_BIN = Path(__file__).resolve().parent / "peers" / "node" / "node_modules" / ".bin"
SUITE_BIN = NODE_BIN / "conformance"
SUITE_SECONDS = 120.0


def installed() -> bool:
    return SUITE_BIN.exists()


def run_suite(url: str, *, timeout: float = SUITE_SECONDS) -> conformance.Pass:
    """Every server scenario of the suite against `url`; a suite that cannot run, or outlasts
    `timeout`, is a Pass with its error (and whatever it wrote before)."""
    if not installed():
        return conformance.Pass(error=f"the conformance suite is not installed ({SUITE_BIN})")
    env = child_environment({"PATH": f"{NODE_BIN}:{os.environ.get('PATH', '')}"})
    mark = process_tree.new_mark()
    with tempfile.TemporaryDirectory(prefix="mcp-compare-conformance-") as out:
        try:
            process = subprocess.Popen(
                [str(SUITE_BIN), "server", "--url", url, "-o", out],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                env={**env, **mark},
            )
        except OSError as error:
            return conformance.Pass(error=f"could not start the conformance suite: {error}")
        error = ""
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            error = f"the conformance suite took longer than {timeout:.0f} s"
        finally:
            process_tree.end_tree(process, mark)
        found = conformance.read_folder(Path(out))
    if not found and not error:
        error = "the conformance suite wrote no results"
    return conformance.Pass(found, error)


def direct(*, timeout: float = SUITE_SECONDS) -> conformance.Pass:
    """The suite against the built-in fixture, served over Streamable HTTP for the pass."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    command = [sys.executable, "-m", "comparison.probes.fixture_server", "--port", str(port)]
    root = Path(__file__).resolve().parents[2]
    try:
        with launched(command, url, cwd=root):
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
