"""Version sweeps and real hosts through a target. Prints numbers; asserts nothing.

    .venv/bin/python bench/bench_host_versions.py [--host codemode] [--versions 0.3.1,0.3.2,0.3.3,0.3.4]

- each version installed into an empty version cache, then swept (the catalogue at that version):
  seconds per version, by one process;
- the same versions again with an empty cache, split between two processes (as two workers take
  a sweep's tasks): wall time, and how much faster than one;
- every host through mcp-proxy (the HTTP peer in front of the fixture), cold and again (reused).

One worker runs `--lab-workers` hosts at once (1 by default), so the two-worker figure is what a
second worker adds; on a machine with few cores the hosts' own start-up competes for them.

Each part runs `manage.py` against a scratch SQLite database of its own.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def manage(env: dict[str, str], *args: str) -> subprocess.Popen:
    return subprocess.Popen([PYTHON, "manage.py", *args], cwd=PROJECT, env=env, stdout=subprocess.PIPE, text=True)


def scratch(folder: Path, name: str) -> dict[str, str]:
    env = dict(os.environ)
    env["DATABASE_URL"] = f"sqlite:///{folder / name}.sqlite3"
    env["MCP_COMPARE_HOST_VERSIONS"] = str(folder / f"{name}-versions")
    subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=PROJECT, env=env, check=True)
    return env


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="codemode")
    parser.add_argument("--versions", default="0.3.1,0.3.2,0.3.3,0.3.4")
    parser.add_argument("--lab-workers", type=int, default=1, help="host runs at once inside one worker")
    parser.add_argument("--no-through", action="store_true", help="leave out the pass through mcp-proxy")
    args = parser.parse_args()
    versions = args.versions.split(",")
    with tempfile.TemporaryDirectory(prefix="bench-host-versions-") as folder:
        folder = Path(folder)
        env = scratch(folder, "one")
        sweep = ["host_lab", "--host", args.host, "--workers", str(args.lab_workers), "--versions"]
        started = time.perf_counter()
        for version in versions:
            begun = time.perf_counter()
            out = manage(env, *sweep, version).communicate()[0]
            installed = next((line for line in out.splitlines() if "installed or found" in line), "")
            print(
                f"{args.host}@{version}: {time.perf_counter() - begun:5.1f} s ({installed.split(' in ')[-1]} install)"
            )
        one = time.perf_counter() - started
        print(f"one process, {len(versions)} versions: {one:6.1f} s")
        env = scratch(folder, "two")
        halves = [",".join(versions[0::2]), ",".join(versions[1::2])]
        started = time.perf_counter()
        workers = [manage(env, *sweep, half) for half in halves if half]
        for worker in workers:
            worker.communicate()
        two = time.perf_counter() - started
        print(f"two processes sharing the versions: {two:6.1f} s ({one / two:.2f}× one)")
        if args.no_through:
            return
        env = scratch(folder, "http")
        # mcp-proxy (PyPI) in front of the fixture, started by the pass itself (the target's launch).
        subprocess.run([PYTHON, "manage.py", "add_peer_targets"], cwd=PROJECT, env=env, check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
        started = time.perf_counter()
        out = manage(env, "host_lab", "--target", "mcp-proxy → fixture", "--workers", str(args.lab_workers))
        printed = out.communicate()[0]
        cold = time.perf_counter() - started
        started = time.perf_counter()
        manage(env, "host_lab", "--target", "mcp-proxy → fixture").communicate()
        warm = time.perf_counter() - started
        affected = next((line for line in printed.splitlines() if line.startswith("affected hosts")), "none affected")
        print(f"every host through mcp-proxy (HTTP peer), 17 scenarios each: cold {cold:6.1f} s, again {warm:5.1f} s")
        print(f"  {affected}")


if __name__ == "__main__":
    main()
