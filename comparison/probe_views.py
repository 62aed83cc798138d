"""Probe pages: targets, run a probe, follow a run, read a result. Thin: parse, call, render."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import permission_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseStopPolling
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import JsonLexer

from registers.vocabulary import HOST_PATH_LABELS

from . import failures, reports
from .models import ProbeResult, ProbeRun, ProbeTarget
from .probes import compare, real_lane
from .probes.runner import VERDICTS
from .probes.scenarios import suite
from .probing import RunRefused, cancel_run, recover_interrupted_runs, start_run


@require_GET
def target_list(request) -> TemplateResponse:
    targets = ProbeTarget.objects.all()
    return TemplateResponse(request, "comparison/target_list.html", {"targets": targets})


@require_GET
def target_detail(request, pk: int) -> TemplateResponse:
    target = get_object_or_404(ProbeTarget, pk=pk)
    context = {
        "target": target,
        "runs": target.runs.select_related("started_by")[:50],
        "scenarios": suite(target.suite),
        "can_run": request.user.has_perm("comparison.run_probe"),
        "real_host_available": real_lane.available(),
    }
    return TemplateResponse(request, "comparison/target_detail.html", context)


@require_POST
@permission_required("comparison.run_probe", raise_exception=True)
def run_probe_view(request, pk: int):
    target = get_object_or_404(ProbeTarget, pk=pk)
    try:
        run = start_run(
            target=target,
            revisions=request.POST.getlist("revision"),
            scenarios=request.POST.getlist("scenario"),
            user=request.user,
            real_host=request.POST.get("real_host") == "on",
        )
    except RunRefused as refused:
        messages.error(request, str(refused))
        return redirect(target.get_absolute_url())
    return redirect(run.get_absolute_url())


@require_POST
@permission_required("comparison.run_probe", raise_exception=True)
def cancel_run_view(request, pk: int):
    run = get_object_or_404(ProbeRun, pk=pk)
    if cancel_run(run=run):
        messages.info(request, "Run cancelled; the results it saved are kept.")
    else:
        messages.info(request, f"The run had already ended ({run.status}).")
    return redirect(run.get_absolute_url())


def _grid(run: ProbeRun) -> dict:
    results = list(
        run.results.only("id", "scenario", "requested_revision", "negotiated_revision", "verdict", "failure", "rows")
    )
    cells = {(r.scenario, r.requested_revision): r for r in results}
    scenarios = [s for s in suite(run.target.suite) if s.key in run.scenarios]
    grid = [{"scenario": s, "cells": [cells.get((s.key, rev)) for rev in run.revisions]} for s in scenarios]
    counts = {verdict: sum(1 for r in results if r.verdict == verdict) for verdict in VERDICTS}
    return {"grid": grid, "counts": counts}


@require_GET
def run_detail(request, pk: int):
    run = get_object_or_404(ProbeRun.objects.select_related("target", "started_by"), pk=pk)
    if run.status == ProbeRun.RUNNING and recover_interrupted_runs():
        run.refresh_from_db()
    context = {"run": run, **_grid(run), "can_run": request.user.has_perm("comparison.run_probe")}
    if getattr(request, "htmx", False):
        response = TemplateResponse(request, "comparison/run_detail.html#progress", context)
        if not run.active:
            # The last fragment is rendered, then htmx stops polling (status 286).
            response.render()
            stop = HttpResponseStopPolling(response.content)
            return stop
        return response
    return TemplateResponse(request, "comparison/run_detail.html", context)


def _json_html(value) -> str:
    return highlight(
        json.dumps(value, indent=2, ensure_ascii=False)[:200_000], JsonLexer(), HtmlFormatter(cssclass="highlight json")
    )


@require_GET
def result_detail(request, pk: int) -> TemplateResponse:
    result = get_object_or_404(ProbeResult.objects.select_related("run__target"), pk=pk)
    context = {
        "result": result,
        "run": result.run,
        "exchanges": [
            {
                "exchange": e,
                "request_html": _json_html(e.get("request")),
                "response_html": _json_html(e.get("response")),
            }
            for e in result.exchanges
        ],
        "views": result.host_views,
    }
    return TemplateResponse(request, "comparison/result_detail.html", context)


@require_GET
def run_audit(request, pk: int) -> TemplateResponse:
    """DPCTER counts over the run's failure results: coordinates × consumers, typed and with text."""
    run = get_object_or_404(ProbeRun.objects.select_related("target"), pk=pk)
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
    export = request.GET.get("format")
    if export in ("json", "csv"):
        return _audit_export(run, rows, export)
    consumer, coordinate = request.GET.get("consumer", ""), request.GET.get("coordinate", "")
    evidence = []
    if consumer in consumers and coordinate in failures.COORDINATES:
        for result in results:
            for profile in result.dpcter:
                if profile["consumer"] == consumer:
                    evidence.append(
                        {
                            "result": result,
                            "typed": profile["typed"][coordinate],
                            "with_text": profile["with_text"][coordinate],
                            "policy": profile["policy"],
                            "suggestion": profile["suggestion"],
                        }
                    )
    context = {
        "run": run,
        "rows": rows,
        "consumers": [(c, HOST_PATH_LABELS.get(c, c)) for c in consumers],
        "failures": len(results),
        "published_total": failures.PUBLISHED_TOTAL,
        "evidence": evidence,
        "consumer": consumer,
        "coordinate": coordinate,
        "coordinate_name": failures.NAMES.get(coordinate, ""),
        "consumer_label": HOST_PATH_LABELS.get(consumer, consumer),
    }
    template = "comparison/run_audit.html#evidence" if getattr(request, "htmx", False) else "comparison/run_audit.html"
    return TemplateResponse(request, template, context)


def _cells(run: ProbeRun) -> dict:
    return {
        (r.scenario, r.requested_revision): {"id": r.pk, "verdict": r.verdict, "response": r.response}
        for r in run.results.only("id", "scenario", "requested_revision", "verdict", "response")
    }


@require_GET
def compare_runs(request) -> TemplateResponse:
    """Run A against run B: cells added, removed, changed, unchanged; a permalink for every choice."""
    runs = ProbeRun.objects.select_related("target").order_by("-pk")[:200]
    run_a = ProbeRun.objects.select_related("target").filter(pk=_int(request.GET.get("a"))).first()
    run_b = ProbeRun.objects.select_related("target").filter(pk=_int(request.GET.get("b"))).first()
    only = request.GET.get("only", "")
    changes, totals = [], {}
    if run_a and run_b:
        changes = compare.compare(_cells(run_a), _cells(run_b))
        totals = compare.counts(changes)
        if only in compare.STATUSES:
            changes = [change for change in changes if change.status == only]
        elif only == "changes":
            changes = [change for change in changes if change.status != compare.UNCHANGED]
    context = {"runs": runs, "run_a": run_a, "run_b": run_b, "changes": changes, "totals": totals, "only": only}
    return TemplateResponse(request, "comparison/compare_runs.html", context)


def _int(value) -> int | None:
    text = str(value or "")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None


def _audit_export(run: ProbeRun, rows: list[dict], fmt: str) -> HttpResponse:
    lines = [
        {
            "coordinate": row["key"],
            "consumer": consumer,
            "typed": cell.typed,
            "with_text": cell.with_text,
            "total": cell.total,
            "published": list(row["published"]),
        }
        for row in rows
        for consumer, cell in row["cells"]
    ]
    if fmt == "json":
        body = json.dumps(
            {
                "format": "mcp-compare/audit/1",
                "run": run.pk,
                "target": run.target.name,
                "published_total": failures.PUBLISHED_TOTAL,
                "cells": lines,
            },
            indent=2,
        )
        response = HttpResponse(body, content_type="application/json")
    else:
        response = HttpResponse("".join(reports.audit_csv(lines)), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="mcp-compare-audit-run-{run.pk}.{fmt}"'
    return response
