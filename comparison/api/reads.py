"""The read-only JSON API's probe side (`/api/v1/targets/`, `/runs/`, `/results/`, `/compare/`):
what the probe pages show, as data. Credentials never: header names only, URLs and commands as
the pages show them, exchanges as stored (masked when they were saved). Reads only."""

from collections import Counter
from typing import Any

from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe
from ninja import Query, Router

from common.api_schemas import NOT_FOUND
from common.busy import expensive
from common.http import api_json, ids_or_404, int_param, page_or_404
from common.pagecache import cached_page
from comparison.api import schemas as probe_out
from comparison.models import ProbeResult, ProbeRun, ProbeTarget
from comparison.probes.conformance import conformance
from comparison.selectors import compare as compare_selectors
from comparison.selectors import grid as grid_selectors
from comparison.selectors import results as result_selectors
from comparison.selectors import runs as selectors
from comparison.selectors.stored_inputs import stored_runs_version
from language.vocabulary import PROBE_VERDICTS

#: The probe side's operations on the API's document (mcp_compare.api_v1 mounts it).
router = Router(tags=["probes"])
RUNS_PAGE_SIZE = 50


def target_dict(target: ProbeTarget) -> dict[str, Any]:
    return {
        "id": target.pk,
        "name": target.name,
        "transport": target.transport,
        "url": target.display_url,
        "command": target.display_command,
        "launch": target.display_launch,
        "header_names": target.header_names,
        "upstream": target.display_upstream,
        "upstream_description": target.upstream_description,
        "suite": target.suite,
        "builtin": target.builtin,
        "enabled": target.enabled,
        "page": target.get_absolute_url(),
        "badge": f"{target.get_absolute_url()}badge.svg",
    }


def run_dict(run: ProbeRun, cells: list[dict]) -> dict[str, Any]:
    counts = Counter(cell["verdict"] for cell in cells)
    return {
        "id": run.pk,
        "target": {"id": run.target_id, "name": run.target.name},
        "status": run.status,
        "revisions": run.revisions,
        "upstream_revisions": run.upstream_revisions,
        "grid": f"/api/v1/runs/{run.pk}/grid/" if run.upstream_revisions else None,
        "scenarios": run.scenarios,
        "tries": run.tries,
        "done": run.done,
        "total": run.total,
        "error": run.error,
        "created": run.created.isoformat(),
        "started_at": run.started_at.isoformat() if run.started_at else None,
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "scheduled": run.schedule_id is not None,
        "previous_run": run.previous_run_id,
        "changes_since_previous": run.changes,
        "counts": {str(verdict): counts.get(verdict, 0) for verdict in PROBE_VERDICTS},
        "interop": selectors.score_of(cells).as_dict(),
        "conformance": _conformance(run),
        "real_hosts": run.real_hosts or None,
        "server_identity": run.server_identity,
        "uploaded": run.uploaded,
        # An uploaded run is evidence for the register rows only once a person accepted it.
        "accepted": run.accepted_at.isoformat() if run.accepted_at else None,
        "page": run.get_absolute_url(),
    }


def _conformance(run: ProbeRun) -> dict[str, Any] | None:
    """The run's conformance pass (None when the run did not ask for one)."""
    if not run.conformance:
        return None
    rows, status = conformance.stored(run.conformance_results)
    found = conformance.summary(rows, status)
    return {
        "suite": f"{conformance.SUITE} {conformance.SUITE_VERSION}",
        "status": found.status or ("done" if rows else "pending"),
        "summary": found.sentence() if rows or found.status else "",
        "through": found.through,
        "directly": found.directly,
        "total": found.total,
        "rows": rows,
    }


@router.get("/targets/", response=probe_out.TargetsOut, url_name="targets")
@require_safe
@cached_page(users_share=True)
def targets(request):
    return api_json({"targets": [target_dict(target) for target in ProbeTarget.objects.all()]})


@router.get("/targets/{pk:pk}/", response={200: probe_out.TargetOut, **NOT_FOUND}, url_name="target")
@require_safe
@cached_page(users_share=True)
def target(request, pk: int):
    return api_json(target_dict(get_object_or_404(ProbeTarget, pk=pk)))


@router.get("/runs/", response={200: probe_out.RunsOut, **NOT_FOUND}, url_name="runs")
@require_safe
@cached_page(users_share=True)
def runs(request, target: str = "", page: str = ""):
    """`/api/v1/runs/?target=ID&page=N`, newest first, 50 a page."""
    found = ProbeRun.objects.select_related("target").order_by("-pk")
    if (target_id := int_param(request.GET.get("target"))) is not None:
        found = found.filter(target_id=target_id)
    shown = page_or_404(Paginator(found, RUNS_PAGE_SIZE), request.GET.get("page"))
    cells = selectors.run_cells([run.pk for run in shown.object_list])
    data = [run_dict(run, cells[run.pk]) for run in shown.object_list]
    return api_json(
        {"count": shown.paginator.count, "page": shown.number, "pages": shown.paginator.num_pages, "runs": data}
    )


@router.get("/runs/{pk:pk}/", response={200: probe_out.RunOut, **NOT_FOUND}, url_name="run")
@require_safe
@cached_page(users_share=True)
def run(request, pk: int):
    found = get_object_or_404(ProbeRun.objects.select_related("target"), pk=pk)
    results = list(
        found.results.diagonal().only(
            "id", "scenario", "family", "requested_revision", "negotiated_revision", "verdict", "interop"
        )
    )
    cells = [
        {"scenario": r.scenario, "revision": r.requested_revision, "verdict": r.verdict, "interop": r.interop}
        for r in results
    ]
    data = run_dict(found, cells)
    data["results"] = [
        {"id": r.pk, "scenario": r.scenario, "family": r.family, "requested_revision": r.requested_revision,
         "negotiated_revision": r.negotiated_revision, "verdict": r.verdict, "url": f"/api/v1/results/{r.pk}/"}
        for r in results
    ]  # fmt: skip
    return api_json(data)


@router.get("/runs/{pk:pk}/grid/", response={200: probe_out.GridOut, **NOT_FOUND}, url_name="run_grid")
@require_safe
@cached_page(users_share=True)
def run_grid(request, pk: int, pair: str = "", against: str = ""):
    """The run's cross-era grid: every (client revision, upstream revision) pair, its reading, its
    share of scenarios that survived, the rule the revisions give it with citations, and each
    pair's results; the page's parameters: `?pair=CLIENT/UPSTREAM` (that pair only) and
    `?against=RUN` (the pairs changed since that run's grid)."""
    found = get_object_or_404(ProbeRun.objects.select_related("target"), pk=pk)
    page = grid_selectors.grid_page(found, request.GET.get("pair", ""), int_param(request.GET.get("against")))
    grid = page["grid"]
    data = {"run": found.pk, "target": {"id": found.target_id, "name": found.target.name}, **grid.as_dict()}
    for item, pair in zip(data["pairs"], grid.pairs.values(), strict=True):
        item["results"] = [
            {"id": pk_, "scenario": scenario, "verdict": verdict, "url": f"/api/v1/results/{pk_}/"}
            for scenario, verdict, pk_ in pair.cells
        ]
    if page["chosen"] is not None:
        data["pairs"] = [p for p in data["pairs"] if (p["client_revision"], p["upstream_revision"]) == (
            page["chosen"].client, page["chosen"].upstream)]  # fmt: skip
    if page["against"] is not None:
        data["against"] = {"run": page["against"].pk, "changes": page["changes"]}
    return api_json(data | {"page": f"/probes/runs/{found.pk}/grid/"})


RESULT_FIELDS = (
    "scenario", "family", "anchors", "method", "requested_revision", "upstream_revision", "negotiated_revision",
    "verdict", "failure",
    "response", "findings", "diff", "diff_against", "host_views", "dpcter", "interop", "predictions", "exchanges",
    "tries", "duration_ms",
)  # fmt: skip


@router.get("/results/{pk:pk}/", response={200: probe_out.ResultOut, **NOT_FOUND}, url_name="result")
@require_safe
@cached_page(users_share=True)
def result(request, pk: int):
    found = get_object_or_404(ProbeResult.objects.select_related("run__target"), pk=pk)
    data = {"id": found.pk, "run": found.run_id, "target": found.run.target.name}
    data |= {name: getattr(found, name) for name in RESULT_FIELDS}
    data["host_outcomes"] = [item.as_dict() for item in result_selectors.host_outcomes(found)]
    return api_json(data | {"page": found.get_absolute_url()})


@router.get("/compare/", response={200: probe_out.CompareOut, **NOT_FOUND}, url_name="compare")
@require_safe
@cached_page(users_share=True, version=stored_runs_version)
@expensive
def compare(request, run: Query[list[str]] = None):
    """`/api/v1/compare/?run=A&run=B…`: the comparison page's data."""
    ids = ids_or_404(request.GET.getlist("run"), "run")
    return api_json(compare_selectors.runs_compared(ids).as_dict())
