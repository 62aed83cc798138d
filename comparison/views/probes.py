"""Probe pages: targets, run a probe, follow a run, read a result, audit failures, compare runs.
Each view parses the request, calls one selector (comparison.selectors.runs) or service
(comparison.services.probing), and renders one template."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import permission_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseStopPolling

from common.busy import expensive
from common.http import HtmxHttpRequest, base_url, ids_or_404, int_param, partial
from common.pagecache import NOT_CACHED, cached_page
from comparison import exports
from comparison.core import failures, grid_reports, reports
from comparison.models import ProbeResult, ProbeRun, ProbeTarget
from comparison.selectors import compare as compare_selectors
from comparison.selectors import grid as grid_selectors
from comparison.selectors import interop as interop_selectors
from comparison.selectors import lab as lab_selectors
from comparison.selectors import results as result_selectors
from comparison.selectors import runs as selectors
from comparison.selectors.stored_inputs import stored_runs_version
from comparison.services.probing import RunRefused, cancel_run, recover_interrupted_runs
from comparison.tasks import start_run

AUDIT_EXPORTS = {"json": "application/json", "csv": "text/csv; charset=utf-8"}


@require_safe
@cached_page(users_share=True)
def target_list(request: HtmxHttpRequest) -> TemplateResponse:
    context = {"targets": ProbeTarget.objects.all(), "latest_runs": sorted(selectors.latest_ended_runs())}
    return TemplateResponse(request, "comparison/target_list.html", context)


@require_safe
@cached_page(users_share=True, varies_with=lab_selectors.install_state)
def target_detail(request: HtmxHttpRequest, pk: int) -> TemplateResponse:
    context = selectors.target_page(get_object_or_404(ProbeTarget, pk=pk))
    context["can_run"] = request.user.has_perm("comparison.run_probe")
    context["through"] = lab_selectors.target_hosts(pk)
    return TemplateResponse(request, "comparison/target_detail.html", context)


@require_safe
def target_badge(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """An SVG badge to embed in a README: the latest finished run's share of cells as expected."""
    target = get_object_or_404(ProbeTarget, pk=pk)
    pair = request.GET.get("pair", "")
    svg = grid_selectors.pair_badge(target, pair) if pair else selectors.target_badge(target)
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = "public, max-age=300"
    return response


@require_POST
@permission_required("comparison.run_probe", raise_exception=True)
def run_probe_view(request: HtmxHttpRequest, pk: int):
    target = get_object_or_404(ProbeTarget, pk=pk)
    try:
        run = start_run(
            target=target,
            revisions=request.POST.getlist("revision"),
            upstream_revisions=request.POST.getlist("upstream_revision"),
            scenarios=request.POST.getlist("scenario"),
            user=request.user,
            real_host=request.POST.get("real_host") == "on",
            conformance=request.POST.get("conformance") == "on",
            tries=int_param(request.POST.get("tries")),
        )
    except RunRefused as refused:
        messages.error(request, str(refused))
        return redirect(target.get_absolute_url())
    return redirect(run.get_absolute_url())


@require_POST
@permission_required("comparison.run_probe", raise_exception=True)
def cancel_run_view(request: HtmxHttpRequest, pk: int):
    run = get_object_or_404(ProbeRun, pk=pk)
    if cancel_run(run=run):
        messages.info(request, "Run cancelled; the results it saved are kept.")
    else:
        messages.info(request, f"The run had already ended ({run.status}).")
    return redirect(run.get_absolute_url())


@require_safe
def run_detail(request: HtmxHttpRequest, pk: int):
    run = get_object_or_404(ProbeRun.objects.select_related("target", "started_by"), pk=pk)
    if run.status == ProbeRun.RUNNING and recover_interrupted_runs():
        run.refresh_from_db()
    context = {"run": run, **selectors.run_grid(run), "can_run": request.user.has_perm("comparison.run_probe")}
    context["through"] = lab_selectors.target_hosts(run.target_id) if not request.htmx else None
    context["host_interop"] = interop_selectors.run_host_interop(run) if not request.htmx else None
    response = TemplateResponse(request, partial(request, "comparison/run_detail.html", "progress"), context)
    if request.htmx and not run.active:
        # The last fragment is rendered, then htmx stops polling (status 286).
        return HttpResponseStopPolling(response.render().content)
    return response


GRID_EXPORTS = {"json": "application/json", "csv": "text/csv; charset=utf-8", "md": "text/markdown; charset=utf-8"}


def _export_version(request, pk: int | None = None):
    """An export of stored runs is made from them alone; the pages, which list other runs to
    choose from, are not cached (as before)."""
    return stored_runs_version(request, pk) if request.GET.get("format") else NOT_CACHED


@require_safe
@cached_page(users_share=True, version=_export_version)
@expensive
def run_era_grid(request: HtmxHttpRequest, pk: int):
    """The run's cross-era grid (client revision × upstream revision), the pair `?pair=C/U`'s
    results, the pairs changed since run `?against=`; JSON, CSV or Markdown with `?format=`."""
    run = get_object_or_404(ProbeRun.objects.select_related("target"), pk=pk)
    context = grid_selectors.grid_page(run, request.GET.get("pair", ""), int_param(request.GET.get("against")))
    fmt = request.GET.get("format", "")
    if fmt in GRID_EXPORTS and context["grid"].pairs:
        grid, title = context["grid"], f"mcp-compare cross-era grid: run {run.pk} on {run.target.name}"
        if fmt == "json":
            body = grid_reports.grid_json(grid, {"run": run.pk, "target": run.target.name})
        elif fmt == "csv":
            body = "".join(grid_reports.grid_csv(grid))
        else:
            body = grid_reports.grid_markdown(grid, title)
        response = HttpResponse(body, content_type=GRID_EXPORTS[fmt])
        response["Content-Disposition"] = f'attachment; filename="mcp-compare-grid-run-{run.pk}.{fmt}"'
        return response
    return TemplateResponse(request, "comparison/run_era_grid.html", context)


@require_safe
def result_detail(request: HtmxHttpRequest, pk: int) -> TemplateResponse:
    result = get_object_or_404(ProbeResult.objects.select_related("run__target"), pk=pk)
    return TemplateResponse(request, "comparison/result_detail.html", result_selectors.result_page(result))


@require_safe
@cached_page(users_share=True, version=stored_runs_version)
@expensive
def run_audit(request: HtmxHttpRequest, pk: int):
    """DPCTER counts over the run's failure results: coordinates × consumers, typed and with text;
    the evidence behind one cell on request; JSON or CSV with `?format=`."""
    found = selectors.audit(get_object_or_404(ProbeRun.objects.select_related("target"), pk=pk))
    fmt = request.GET.get("format", "")
    if fmt in AUDIT_EXPORTS:
        return _audit_export(found, fmt)
    context = selectors.audit_page(found, request.GET.get("consumer", ""), request.GET.get("coordinate", ""))
    return TemplateResponse(request, partial(request, "comparison/run_audit.html", "evidence"), context)


def _audit_export(found: selectors.Audit, fmt: str) -> HttpResponse:
    cells, run = found.export_cells(), found.run
    if fmt == "json":
        body = reports.audit_json(run.pk, run.target.name, failures.PUBLISHED_TOTAL, cells)
    else:
        body = "".join(reports.audit_csv(cells))
    response = HttpResponse(body, content_type=AUDIT_EXPORTS[fmt])
    response["Content-Disposition"] = f'attachment; filename="mcp-compare-audit-run-{run.pk}.{fmt}"'
    return response


@require_safe
@cached_page(users_share=True, version=_export_version)
@expensive
def compare_runs(request: HtmxHttpRequest):
    """Two or more runs side by side (`?run=A&run=B&run=C`, with exports), or the cell-by-cell diff
    of run A against run B (`?a=&b=`); a permalink for every choice."""
    if "run" in request.GET:
        return _compare_many(request)
    a, b = int_param(request.GET.get("a")), int_param(request.GET.get("b"))
    context = selectors.compare_page(a, b, request.GET.get("only", ""))
    return TemplateResponse(request, "comparison/compare_runs.html", context)


def _compare_many(request: HtmxHttpRequest):
    # `?run=` with nothing chosen yet is the picker, not a bad number.
    run_ids = ids_or_404([value for value in request.GET.getlist("run") if value], "run")
    context = compare_selectors.many_compare_page(run_ids, request.GET.get("only", ""))
    fmt = request.GET.get("format", "")
    if fmt in exports.COMPARISON_FORMATS and context["comparison"].columns:
        return exports.comparison_response(context["comparison"], fmt, context["charts"], base_url=base_url(request))
    context["query"] = request.GET.urlencode()
    every = request.GET.copy()
    every["only"] = "all"
    context["all_query"] = every.urlencode()
    return TemplateResponse(request, "comparison/compare_many.html", context)
