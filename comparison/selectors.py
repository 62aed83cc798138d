"""Reads that build the probe pages' data, and the reads the registers app may make of probe
results (its declared way in: see the import contracts in pyproject.toml). Views call these and
render; nothing here writes."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

from django.db.models import QuerySet
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import JsonLexer

from registers.vocabulary import HOST_PATH_LABELS, PROBE_VERDICTS

from . import failures
from .hosts.present import PresentedView
from .models import ProbeResult, ProbeRun, ProbeTarget
from .probes import compare, real_lane
from .probes.scenarios import suite

#: JSON shown on a result page is cut at this many characters: a page never carries megabytes.
MAX_JSON_SHOWN = 200_000


# --- for the registers app ---------------------------------------------------------------------


def row_probe_results(row_id: str, limit: int = 20) -> QuerySet[ProbeResult]:
    """The latest probe results that exercised a register row."""
    return (ProbeResult.objects.filter(rows_key__contains=f",{row_id},").select_related("run__target").order_by("-id"))[
        :limit
    ]


def latest_audit_run_id() -> int | None:
    """The newest run that scored failures (DPCTER), for the failure-gap rows to link to."""
    return ProbeResult.objects.exclude(dpcter=[]).order_by("-id").values_list("run_id", flat=True).first()


def latest_probe_verdicts() -> dict[str, Counter]:
    """Per register row, the verdicts of the latest ended run of every target. A verdict from a run
    that did not finish says so: `as expected (run interrupted)`."""
    latest: dict[int, tuple[int, str]] = {}
    final = (ProbeRun.DONE, *ProbeRun.INCOMPLETE)
    for run_id, target_id, status in (
        ProbeRun.objects.filter(status__in=final).order_by("pk").values_list("pk", "target_id", "status")
    ):
        latest[target_id] = (run_id, status)
    status_of = dict(latest.values())
    verdicts: dict[str, Counter] = {}
    for run_id, rows, verdict in ProbeResult.objects.filter(run_id__in=list(status_of)).values_list(
        "run_id", "rows", "verdict"
    ):
        label = verdict if status_of[run_id] == ProbeRun.DONE else f"{verdict} (run {status_of[run_id]})"
        for row_id in rows:
            verdicts.setdefault(row_id, Counter())[label] += 1
    return verdicts


# --- targets and runs --------------------------------------------------------------------------


def target_page(target: ProbeTarget) -> dict:
    return {
        "target": target,
        "runs": target.runs.select_related("started_by")[:50],
        "scenarios": suite(target.suite),
        "real_host_available": real_lane.available(),
    }


def run_grid(run: ProbeRun) -> dict:
    """The run's results as a scenario × revision grid, and the count of each verdict."""
    results = list(
        run.results.only("id", "scenario", "requested_revision", "negotiated_revision", "verdict", "failure", "rows")
    )
    cells = {(r.scenario, r.requested_revision): r for r in results}
    scenarios = [s for s in suite(run.target.suite) if s.key in run.scenarios]
    grid = [{"scenario": s, "cells": [cells.get((s.key, rev)) for rev in run.revisions]} for s in scenarios]
    counts = {verdict: sum(1 for r in results if r.verdict == verdict) for verdict in PROBE_VERDICTS}
    return {"grid": grid, "counts": counts}


def json_html(value) -> str:
    text = json.dumps(value, indent=2, ensure_ascii=False)[:MAX_JSON_SHOWN]
    return highlight(text, JsonLexer(), HtmlFormatter(cssclass="highlight json"))


def result_page(result: ProbeResult) -> dict:
    return {
        "result": result,
        "run": result.run,
        "exchanges": [
            {"exchange": e, "request_html": json_html(e.get("request")), "response_html": json_html(e.get("response"))}
            for e in result.exchanges
        ],
        "views": [PresentedView.from_json(view) for view in result.host_views],
    }


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
    results = list(run.results.exclude(dpcter=[]).only("id", "scenario", "requested_revision", "dpcter", "verdict"))
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
    return {
        "run": found.run,
        "rows": found.rows,
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


def _cells(run: ProbeRun) -> dict:
    return {
        (r.scenario, r.requested_revision): {"id": r.pk, "verdict": r.verdict, "response": r.response}
        for r in run.results.only("id", "scenario", "requested_revision", "verdict", "response")
    }


def compare_page(a: int | None, b: int | None, only: str) -> dict:
    """Run A against run B: cells added, removed, changed, unchanged, narrowed by `only`."""
    runs = ProbeRun.objects.select_related("target")
    run_a, run_b = runs.filter(pk=a).first(), runs.filter(pk=b).first()
    changes, totals = [], {}
    if run_a and run_b:
        changes = compare.compare(_cells(run_a), _cells(run_b))
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
