"""The official conformance suite's client scenarios against a real host.

The suite runs `CMD URL` for each client scenario, where CMD is

    python -m comparison.hostlab.conformance_client HOST

and URL its scenario server (Streamable HTTP on 127.0.0.1): this runs HOST through the lab with
that server and a fake model that calls each of its tools once. The suite's checks judge what the
host did; `read_checks` reads them into pass / fail / not measured (a scenario whose run made no
check is never a pass).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from comparison.hostlab.adapters import ADAPTERS
from comparison.hostlab.install import NODE_MODULES
from comparison.hostlab.lab import binary_path
from comparison.hostlab.runner import HostRun, run
from comparison.probes.processes.process_tree import end_group

SUITE_VERSION = "0.2.0-alpha.12"
SUITE_BIN = NODE_MODULES / ".bin" / "conformance"
PROJECT = Path(__file__).resolve().parent.parent.parent
SCENARIO_SECONDS = 120.0

#: Client scenarios of 0.2.0-alpha.12 the lab runs; the OAuth ones need a login no headless host
#: here can give (each is listed, as not measured, with that reason).
SCENARIOS = (
    "initialize",
    "tools_call",
    "elicitation-sep1034-client-defaults",
    "sse-retry",
    "request-metadata",
    "sep-2322-client-request-state",
    "http-standard-headers",
    "http-custom-headers",
    "http-invalid-tool-headers",
    "json-schema-ref-no-deref",
    "json-schema-2020-12-preservation",
)
NOT_RUN = "auth/* scenarios: the lab's hosts run headless with no browser for an OAuth login"
PASSED, FAILED, NOT_MEASURED = "pass", "fail", "not measured"


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ADAPTERS:
        sys.stderr.write(f"usage: conformance_client HOST URL (HOST one of {', '.join(ADAPTERS)})\n")
        return 2
    adapter = ADAPTERS[argv[0]]
    binary = binary_path(adapter)
    if binary is None or not adapter.runnable:
        sys.stderr.write(f"{adapter.key} is not runnable here\n")
        return 3
    record = run(adapter, binary, HostRun(tool="*", server_url=argv[1], timeout=60))
    summary = {"seconds": record.seconds, "exit": record.exit_code, "requests": len(record.model_requests)}
    summary |= {"egress": record.egress, "stdout": record.stdout_tail[-2000:], "stderr": record.stderr_tail[-1000:]}
    sys.stdout.write(json.dumps(summary))
    return 0


def run_scenario(host: str, scenario: str, timeout: float = SCENARIO_SECONDS) -> dict[str, Any]:
    """One client scenario of the suite against one host: {"outcome", "checks", "seconds", "error"}."""
    if not SUITE_BIN.exists():
        return {
            "outcome": NOT_MEASURED,
            "checks": [],
            "seconds": 0,
            "error": f"the suite is not installed ({SUITE_BIN})",
        }
    command = f"{sys.executable} -m comparison.hostlab.conformance_client {host}"
    env = {name: os.environ[name] for name in ("PATH", "LANG", "HOME") if name in os.environ}
    # The suite needs Node 22 (npm `node`, beside it); the project on the path runs this module.
    env |= {"PATH": f"{SUITE_BIN.parent}:{env.get('PATH', '')}", "PYTHONPATH": str(PROJECT)}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mcp-compare-lab-suite-") as out:
        process = subprocess.Popen(
            [str(SUITE_BIN), "client", "--command", command, "--scenario", scenario, "-o", out],
            cwd=PROJECT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        error = ""
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            error = f"the suite took longer than {timeout:.0f} s"
        finally:
            end_group(process)
        found = read_checks(Path(out)).get(scenario) or {"outcome": NOT_MEASURED, "checks": []}
        client = "\n".join(p.read_text(errors="replace")[-4000:] for p in Path(out).rglob("stdout.txt"))
    if not found["checks"] and not error:
        error = "the suite wrote no checks"
    return {**found, "seconds": round(time.monotonic() - started, 2), "error": error, "client": client}


def read_checks(folder: Path) -> dict[str, Any]:
    """{scenario: {"outcome", "checks": [{id, status, message}]}} from the suite's output folder."""
    found: dict[str, Any] = {}
    for path in sorted(folder.rglob("checks.json")):
        try:
            checks = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue
        if not isinstance(checks, list):
            continue
        scenario = next(
            (s for s in SCENARIOS if path.parent.name.startswith(f"{s.replace('/', '-')}-")), path.parent.name
        )
        rows = [
            {"id": str(c.get("id", ""))[:100], "status": str(c.get("status", "")), "message": _message(c)}
            for c in checks
            if isinstance(c, dict)
        ]
        statuses = {row["status"] for row in rows}
        outcome = NOT_MEASURED if not rows else FAILED if statuses & {"FAILURE", "ERROR"} else PASSED
        found[scenario] = {"outcome": outcome, "checks": rows}
    return found


def _message(check: dict[str, Any]) -> str:
    details = check.get("details") if isinstance(check.get("details"), dict) else {}
    return str(details.get("message") or check.get("errorMessage") or check.get("description") or "")[:300]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
