"""What a full cross-era grid costs: the 25 (client revision, upstream revision) pairs against a
one-revision-per-client run (the diagonal), through the built-in fixture and through one peer
(mcp-proxy in front of the fixture; needs the probe peers, which scripts/test.sh installs). The
goal is a grid within 6 times the diagonal's wall time.

    .venv/bin/python -m bench.bench_grid [builtin|mcp-proxy|supergateway ...]
"""

from __future__ import annotations

import os
import sys
import time

import django

GOAL = 6.0


def _targets(names: list[str]):
    from comparison.probes.processes.launch import free_port
    from comparison.probes.run.runner import TargetSpec, builtin_fixture
    from comparison.services.peer_targets import (
        LOOPBACK_PRELOAD,
        fixture_stdio,
        mcp_proxy_command,
        supergateway_command,
    )

    # The peers' own commands, on a port of the benchmark's.
    chosen = names or ["builtin", "mcp-proxy"]
    for name in chosen:
        if name == "builtin":
            yield name, builtin_fixture()
            continue
        port = free_port()
        if name == "mcp-proxy":
            command = mcp_proxy_command(port, fixture_stdio())
        else:
            preload = f"NODE_OPTIONS=--require {LOOPBACK_PRELOAD}"
            command = ["env", preload, *supergateway_command(port, fixture_stdio())]
        yield name, TargetSpec(name, "http", url=f"http://127.0.0.1:{port}/mcp", upstream="fixture", launch=command)


def main(names: list[str]) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mcp_compare.settings")
    django.setup()
    from comparison.core.era_grid import grid_of
    from comparison.probes.run.grid_run import run_grid
    from comparison.probes.run.runner import ProbePlan, run_probe
    from comparison.probes.run.scenarios import FIXTURE
    from language.vocabulary import REVISIONS

    revisions = [str(r) for r in REVISIONS]
    print(f"{'target':<14} {'diagonal s':>10} {'cells':>6} {'grid s':>8} {'cells':>6} {'ratio':>6}  goal ≤ {GOAL:.0f}×")
    worst = 0.0
    for name, spec in _targets(names):
        started = time.monotonic()
        diagonal = run_probe(spec, ProbePlan(scenarios=list(FIXTURE), revisions=revisions))
        one = time.monotonic() - started
        started = time.monotonic()
        grid = run_grid(spec, ProbePlan(scenarios=list(FIXTURE), revisions=revisions), upstream_revisions=revisions)
        full = time.monotonic() - started
        ratio = full / one if one else 0.0
        worst = max(worst, ratio)
        print(f"{name:<14} {one:>10.1f} {len(diagonal):>6} {full:>8.1f} {len(grid):>6} {ratio:>5.2f}×")
        readings = grid_of([o.as_dict() for o in grid], direct=name == "builtin").readings
        print("    " + ", ".join(f"{reading} {n}" for reading, n in sorted(readings.items())))
    print(f"worst ratio {worst:.2f}× ({'within' if worst <= GOAL else 'over'} the {GOAL:.0f}× goal)")
    return 0


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    os._exit(code)  # a proxy's leftover threads never hold the benchmark open
