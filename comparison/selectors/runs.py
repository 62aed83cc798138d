"""Reads that build the probe pages' data (targets, runs, results, audits, compares, trends).
Views call these and render; nothing here writes. What the register pages show of probe results
is read by the evidence layer (evidence/), which reads these."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from django.conf import settings

from common import charts
from comparison.core import failures, version_groups
from comparison.models import ProbeResult, ProbeRun, ProbeSchedule, ProbeTarget
from comparison.probes import families
from comparison.probes.assessment import compare, interop
from comparison.probes.conformance import conformance
from comparison.probes.run import family_cells, real_lane
from comparison.probes.run.scenarios import suite
from comparison.selectors import grid as grid_selectors
from comparison.selectors import lab as lab_selectors
from language.vocabulary import HOST_PATH_LABELS, PROBE_VERDICTS

# --- targets and runs --------------------------------------------------------------------------


TREND_RUNS = 20


def run_cells(run_ids: list[int]) -> dict[int, list[dict]]:
    """Each run's cells ({scenario, revision, verdict, interop}), from one query."""
    cells: dict[int, list[dict]] = {pk: [] for pk in run_ids}
    columns = ("run_id", "scenario", "requested_revision", "verdict", "interop")
    for values in ProbeResult.objects.filter(run_id__in=run_ids).diagonal().order_by("id").values(*columns):
        values["revision"] = values.pop("requested_revision")
        cells[values["run_id"]].append(values)
    return cells


def score_of(cells: list[dict]) -> interop.RunScore:
    return interop.run_score(cells, failed=PROBE_VERDICTS[3], invalid=PROBE_VERDICTS[2])


def run_scores(run_ids: list[int]) -> dict[int, interop.RunScore]:
    """The interop score of each run, from one query over their results."""
    return {pk: score_of(found) for pk, found in run_cells(run_ids).items()}


#: {(run id, created): score} of ended runs, per process: their results never change, so a target
#: page after a new upload reads the new run's cells alone, not a 5,000-cell run's again.
_ended_scores: dict[tuple, interop.RunScore] = {}
ENDED_SCORES_KEPT = 1000


def ended_run_scores(runs: list[ProbeRun]) -> dict[int, interop.RunScore]:
    """run_scores of ended runs, reading only those not scored before in this process (one query
    when any is new, none else)."""
    keys = {run.pk: (run.pk, run.created) for run in runs}
    missing = [pk for pk, key in keys.items() if key not in _ended_scores]
    if missing:
        if len(_ended_scores) + len(missing) > ENDED_SCORES_KEPT:
            _ended_scores.clear()
        for pk, score in run_scores(missing).items():
            _ended_scores[keys[pk]] = score
    return {pk: _ended_scores[key] for pk, key in keys.items()}


def target_page(target: ProbeTarget) -> dict:
    """The target, its runs with their interop scores, and the score's trend over its ended runs."""
    runs = list(target.runs.select_related("started_by")[:50])
    ended = [run for run in runs if not run.active][:TREND_RUNS]
    scores = ended_run_scores(ended)
    for run in runs:
        run.score = scores.get(run.pk)
        run.conformance_line = _conformance_line(run)
    suite_run = next((run for run in runs if run.conformance and not run.active), None)
    trend = charts.chart(
        "Interop score over this target's runs (every host)",
        [charts.share_bar(f"#{run.pk} {run.created:%Y-%m-%d %H:%M}", *_overall(run.score)) for run in reversed(ended)],
    )
    shares = [(run.pk, run.server_identity, run.created, _overall(run.score)) for run in ended]
    latest_grid_run = grid_selectors.latest_grid_run(target)
    return {
        "target": target,
        "runs": runs,
        "grid_run": latest_grid_run,
        "grid": grid_selectors.run_era_grid(latest_grid_run, grid_selectors.host_asks()) if latest_grid_run else None,
        "grid_unpinnable": target.grid_unpinnable(),
        "versions": version_groups.by_version(shares),
        "trend": trend if ended else None,
        "compare_ids": [run.pk for run in ended[:3]],
        "schedule": ProbeSchedule.objects.filter(target=target).first(),
        "latest_done": next((run for run in runs if run.status == ProbeRun.DONE), None),
        "scenarios": suite(target.suite),
        "scenario_groups": family_cells.scenario_groups(suite(target.suite), target.transport),
        "real_host_available": real_lane.available(),
        "lab_hosts": lab_selectors.installed_hosts(),
        "conformance_suite": f"{conformance.SUITE} {conformance.SUITE_VERSION}",
        "default_tries": settings.PROBE_TRIES,
        "suite_run": suite_run,
        "conformance": conformance_of(
            suite_run, list(suite_run.results.only("scenario", "requested_revision", "verdict"))
        )
        if suite_run
        else None,
    }


def _conformance_line(run: ProbeRun) -> str:
    """A run's conformance pass in one line, for lists ("" when it asked for none or is running)."""
    if not run.conformance or run.active:
        return ""
    rows, status = conformance.stored(run.conformance_results)
    return conformance.summary(rows, status).sentence() if rows or status else ""


class LatestRun(NamedTuple):
    """The newest ended run of a target, as the pages and the evidence name it."""

    target: str
    status: str
    builtin: bool
    #: Its creation time: an ended run's results never change, and the id with its time names them
    #: for good (an id can come back after a rolled-back run).
    created: str


def latest_ended_runs(*, measured: bool = False) -> dict[int, LatestRun]:
    """{run id: LatestRun} of the newest ended run of every target (one query); with `measured`, of
    the runs that are the dashboard's own measurements (an uploaded run only once accepted)."""
    ended = ProbeRun.objects.ended()
    if measured:
        ended = ended.measured()
    columns = ("pk", "target__name", "status", "target__builtin", "created")
    return {
        pk: LatestRun(name, status, builtin, created.isoformat() if created else "")
        for pk, name, status, builtin, created in ended.newest_of_each_target().order_by("pk").values_list(*columns)
    }


def run_grid(run: ProbeRun) -> dict:
    """The run's results as a scenario × revision grid grouped by scenario family (a cell a
    scenario has no form for at that revision or over that transport says so), the count of each
    verdict, and each family's counts and interop score."""
    results = list(
        run.results.diagonal().only(
            "id",
            "scenario",
            "family",
            "requested_revision",
            "negotiated_revision",
            "verdict",
            "failure",
            "anchors",
            "interop",
        )
    )
    cells = {(r.scenario, r.requested_revision): r for r in results}
    scenarios = [s for s in suite(run.target.suite) if s.key in run.scenarios]
    grid, previous = [], None
    for scenario in scenarios:
        family = families.BY_NAME.get(scenario.family)
        heading = family.title if family and scenario.family != previous else ""
        previous = scenario.family
        line = [
            {
                "result": cells.get((scenario.key, rev)),
                "na": family_cells.not_applicable(scenario, rev, run.target.transport),
            }
            for rev in run.revisions
        ]
        grid.append({"scenario": scenario, "cells": line, "family": heading})
    counts = {verdict: sum(1 for r in results if r.verdict == verdict) for verdict in PROBE_VERDICTS}
    return {
        "grid": grid,
        "counts": counts,
        "by_family": _by_family(results),
        "conformance": conformance_of(run, results),
    }


def conformance_of(run: ProbeRun, results: list[ProbeResult]) -> dict:
    """A run's conformance pass for its pages: the rows, the one-line summary, and where the
    suite parts from the run's own cells at the suite's revision."""
    rows, status = conformance.stored(run.conformance_results)
    ours = {r.scenario: r.verdict for r in results if r.requested_revision == conformance.SUITE_REVISION}
    return {
        "rows": rows,
        "summary": conformance.summary(rows, status),
        "notes": conformance.disagreements(rows, ours),
        "suite": f"{conformance.SUITE} {conformance.SUITE_VERSION}",
    }


def _by_family(results: list[ProbeResult]) -> list[dict]:
    """Per family of the run: its verdict counts and interop score, in catalogue order."""
    found = []
    for family in families.FAMILIES:
        mine = [r for r in results if r.family == family.name]
        if not mine:
            continue
        cells = [
            {"scenario": r.scenario, "revision": r.requested_revision, "verdict": r.verdict, "interop": r.interop}
            for r in mine
        ]
        counts = {verdict: n for verdict in PROBE_VERDICTS if (n := sum(1 for r in mine if r.verdict == verdict))}
        found.append({"family": family, "counts": counts, "score": score_of(cells).overall})
    return found


# --- the DPCTER audit --------------------------------------------------------------------------


@dataclass
class Audit:
    """DPCTER counts over a run's failure results: coordinates × the consumers that saw any."""

    run: ProbeRun
    results: list[ProbeResult]
    consumers: list[str]
    rows: list[dict] = field(default_factory=list)

    def export_cells(self) -> list[dict]:
        return [
            {
                "coordinate": row["key"],
                "consumer": consumer,
                "typed": cell.typed,
                "with_text": cell.with_text,
                "total": cell.total,
                "published": list(row["published"]),
            }
            for row in self.rows
            for consumer, cell in row["cells"]
        ]


def audit(run: ProbeRun) -> Audit:
    results = list(
        run.results.diagonal().exclude(dpcter=[]).only("id", "scenario", "requested_revision", "dpcter", "verdict")
    )
    table = failures.audit([{"profiles": r.dpcter} for r in results])
    consumers = [c for c in failures.CONSUMERS if table[c]["D"].total]
    rows = [
        {
            "key": key,
            "name": failures.NAMES[key],
            "published": failures.PUBLISHED[key],
            "cells": [(consumer, table[consumer][key]) for consumer in consumers],
        }
        for key in failures.COORDINATES
    ]
    return Audit(run, results, consumers, rows)


def audit_page(found: Audit, consumer: str, coordinate: str) -> dict:
    """The audit table, and the evidence behind one cell when a consumer and coordinate are picked."""
    evidence = []
    if consumer in found.consumers and coordinate in failures.COORDINATES:
        evidence = [
            {
                "result": result,
                "typed": profile["typed"][coordinate],
                "with_text": profile["with_text"][coordinate],
                "policy": profile["policy"],
                "suggestion": profile["suggestion"],
            }
            for result in found.results
            for profile in result.dpcter
            if profile["consumer"] == consumer
        ]
    chart = charts.dpcter_bars(
        "DPCTER: typed fields, published vs each consumer of this run",
        [
            (
                row["name"],
                (row["published"][0], failures.PUBLISHED_TOTAL),
                [(HOST_PATH_LABELS.get(consumer, consumer), cell.typed, cell.total) for consumer, cell in row["cells"]],
            )
            for row in found.rows
        ],
    )
    return {
        "run": found.run,
        "rows": found.rows,
        "chart": chart,
        "consumers": [(c, HOST_PATH_LABELS.get(c, c)) for c in found.consumers],
        "failures": len(found.results),
        "published_total": failures.PUBLISHED_TOTAL,
        "evidence": evidence,
        "consumer": consumer,
        "coordinate": coordinate,
        "coordinate_name": failures.NAMES.get(coordinate, ""),
        "consumer_label": HOST_PATH_LABELS.get(consumer, consumer),
    }


# --- comparing two runs ------------------------------------------------------------------------


def result_cells(run: ProbeRun) -> dict:
    """{(scenario, revision): {id, verdict, response}} of a run, as probes.compare takes them."""
    return {
        (r.scenario, r.requested_revision): {"id": r.pk, "verdict": r.verdict, "response": r.response}
        for r in run.results.diagonal().only("id", "scenario", "requested_revision", "verdict", "response")
    }


def compare_page(a: int | None, b: int | None, only: str) -> dict:
    """Run A against run B: cells added, removed, changed, unchanged, narrowed by `only`."""
    runs = ProbeRun.objects.select_related("target")
    run_a, run_b = runs.filter(pk=a).first(), runs.filter(pk=b).first()
    changes, totals = [], {}
    if run_a and run_b:
        changes = compare.compare(result_cells(run_a), result_cells(run_b))
        totals = compare.counts(changes)
        if only in compare.STATUSES:
            changes = [change for change in changes if change.status == only]
        elif only == "changes":
            changes = [change for change in changes if change.status != compare.UNCHANGED]
    return {
        "runs": runs.order_by("-pk")[:200],
        "run_a": run_a,
        "run_b": run_b,
        "changes": changes,
        "totals": totals,
        "only": only,
    }


def _overall(score: interop.RunScore) -> tuple[int, int]:
    return score.overall.same, score.overall.scored


# --- a target's badge ---------------------------------------------------------------------------


def target_badge(target: ProbeTarget) -> str:
    """The latest finished run's interop, the measure the target's page leads with: the share of
    scored cells where every host gets what the upstream sends, per revision on hover (two
    queries). A run with nothing to compare with (no upstream) shows its share valid for the
    revision instead, named so."""
    run = target.runs.filter(status=ProbeRun.DONE).order_by("-pk").first()
    if run is None:
        return charts.badge_svg("mcp-compare", "no finished run", "none", [])
    cells = run_cells([run.pk])[run.pk]
    run_score = score_of(cells)
    measure = "interop" if run_score.overall.scored else "valid"

    def share(score: interop.RunScore) -> interop.Score:
        return score.overall if measure == "interop" else score.valid

    whole = share(run_score)
    per_revision = []
    for revision in run.revisions:
        part = share(score_of([cell for cell in cells if cell["revision"] == revision]))
        per_revision.append((revision, f"{measure} {part.same}/{part.scored}"))
    percent = whole.percent or 0.0
    tone = "good" if percent == 100 else "warn" if percent >= 80 else "bad"
    message = f"{measure} {percent}%"  # as the target's page writes it
    rows, _ = conformance.stored(run.conformance_results) if run.conformance else ([], "")
    if rows:
        found = conformance.summary(rows)
        message += f" · suite {found.through}/{found.total}"
        per_revision.append(("conformance", found.sentence()))
        if found.through < found.directly and tone == "good":
            tone = "warn"  # the cells are all as expected, yet the suite lost something through it
    return charts.badge_svg("mcp-compare", message, tone, per_revision)
