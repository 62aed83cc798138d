"""Reads for the cross-era grid: a run's grid, a target's latest one, two runs' grids compared, one
pair's results. Each grid is built from one query over the run's results (core.era_grid)."""

from __future__ import annotations

from typing import Any

from common import charts
from comparison.core.era_grid import AS_THE_RULES_SAY, Grid, compare_grids, grid_of
from comparison.models import ProbeResult, ProbeRun, ProbeTarget
from comparison.selectors.lab import measured_for_probes

GRID_COLUMNS = (
    "id", "scenario", "requested_revision", "upstream_revision", "negotiated_revision", "verdict", "interop",
)  # fmt: skip


def host_asks() -> dict[str, tuple[str, str]]:
    """{host: (label, the revision it asks for)} of the hosts the lab measured."""
    return {host: (found.label, found.asks) for host, found in measured_for_probes().items() if found.asks}


def run_era_grid(run: ProbeRun, hosts: dict[str, tuple[str, str]] | None = None) -> Grid:
    rows = list(ProbeResult.objects.filter(run=run).exclude(upstream_revision="").order_by("id").values(*GRID_COLUMNS))
    return grid_of(rows, hosts, direct=run.target.builtin)


def latest_grid_run(target: ProbeTarget) -> ProbeRun | None:
    """The target's newest finished run with a grid."""
    return (
        ProbeRun.objects.filter(target=target, status=ProbeRun.DONE)
        .exclude(upstream_revisions=[])
        .select_related("target")
        .order_by("-pk")
        .first()
    )


def pair_results(run: ProbeRun, client: str, upstream: str) -> list[ProbeResult]:
    return list(
        ProbeResult.objects.filter(run=run, requested_revision=client, upstream_revision=upstream)
        .only("id", "scenario", "verdict", "negotiated_revision", "failure")
        .order_by("id")
    )


def grid_page(run: ProbeRun, pair: str = "", against: int | None = None) -> dict[str, Any]:
    """The run's grid, the chosen pair's results (`pair` "CLIENT/UPSTREAM"), and the pairs that
    changed from run `against`'s grid."""
    hosts = host_asks()
    grid = run_era_grid(run, hosts)
    client, _, upstream = pair.partition("/")
    chosen = grid.pairs.get((client, upstream))
    other = ProbeRun.objects.select_related("target").filter(pk=against).first() if against else None
    changes = compare_grids(run_era_grid(other, hosts), grid) if other else None
    others = (
        ProbeRun.objects.filter(target_id=run.target_id)
        .exclude(upstream_revisions=[])
        .exclude(pk=run.pk)
        .order_by("-pk")
        .values_list("pk", flat=True)[:10]
    )
    return {
        "run": run,
        "grid": grid,
        "chosen": chosen,
        "chosen_results": pair_results(run, client, upstream) if chosen else [],
        "against": other,
        "changes": changes,
        "other_grids": list(others),
    }


def pair_badge(target: ProbeTarget, pair: str) -> str:
    """The badge of one pair ("CLIENT/UPSTREAM") of the target's latest grid: its share and reading."""
    client, _, upstream = pair.partition("/")
    run = latest_grid_run(target)
    found = run_era_grid(run).pairs.get((client, upstream)) if run else None
    label = f"{client[:10]} ⇢ {upstream[:10]}" if upstream else "mcp-compare grid"
    if found is None:
        return charts.badge_svg(label, "no grid run" if run is None else "pair not in the grid", "none", [])
    share = found.share or 0.0
    tone = "good" if found.expected and share == 1 else "warn" if found.expected and share >= 0.8 else "bad"
    if found.reading == AS_THE_RULES_SAY:
        tone = "none"
    return charts.badge_svg(label, f"{found.percent} {found.reading}", tone, [])
