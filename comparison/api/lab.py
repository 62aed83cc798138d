"""The host lab's JSON twins (`/api/v1/hosts/…`): the matrix, a host, a feature, two hosts compared
and one observation, as the pages show them. Reads only."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.http import Http404
from django.views.decorators.http import require_safe
from ninja import Router

from common import api_schemas as out
from common.http import api_json
from common.pagecache import cached_page
from common.path_ids import known_text
from comparison.api import schemas as probe_out
from comparison.hostlab.adapters import ADAPTERS
from comparison.hostlab.matrix import HostRow
from comparison.selectors import lab as lab_selectors
from comparison.services.lab import observation_dict

#: The host lab's operations on the API's document (mcp_compare.api_v1 mounts it). Their order is
#: the URLs': `/hosts/compare/` and the rest before `/hosts/{key}/`, which would take them.
router = Router(tags=["hosts"])


def _row(row: HostRow) -> dict[str, Any]:
    return {
        "host": row.key,
        "label": row.label,
        "package": row.package,
        "version": row.version,
        "runnable": row.runnable,
        "not_run_because": row.why_not,
        "features": {cell.feature: asdict(cell) for cell in row.cells},
        "told": {name: value for name, _, value in row.told},
    }


def _found(value):
    if value is None:
        raise Http404("no such host, feature or observation")
    return value


@router.get("/hosts/", response=probe_out.LabOut, url_name="hosts")
@require_safe
@cached_page(users_share=True)
def hosts(request, host: str = "", chip: str = ""):
    page = lab_selectors.matrix_page(request.GET.getlist("host"), request.GET.get("chip", ""))
    hosts_data = [_row(row) | {"conformance": page["conformance"][row.key]} for row in page["rows"]]
    return api_json({"fixture": page["fixture"], "counts": page["counts"], "hosts": hosts_data})


@router.get(
    "/hosts/compare/", response={200: probe_out.LabOut, 400: out.Open, **out.NOT_FOUND}, url_name="compare_hosts"
)
@require_safe
@cached_page(users_share=True)
def compare_hosts(request, a: str = "", b: str = ""):
    a, b = request.GET.get("a", ""), request.GET.get("b", "")
    if not a and not b:
        return api_json({"usage": "/api/v1/hosts/compare/?a=<host>&b=<host>", "hosts": sorted(ADAPTERS)})
    page = lab_selectors.compare_page(a, b)
    if page is None:
        return api_json({"error": "a and b must name two different hosts", "hosts": sorted(ADAPTERS)}, status=400)
    differing = [{"feature": title, "a": asdict(x), "b": asdict(y)} for title, x, y in page["differing"]]
    return api_json({"a": page["a"].key, "b": page["b"].key, "differing": differing})


@router.get("/hosts/features/{feature}/", response={200: probe_out.LabOut, **out.NOT_FOUND}, url_name="lab_feature")
@require_safe
@cached_page(users_share=True)
def lab_feature(request, feature: str):
    feature = known_text(feature)
    page = _found(lab_selectors.feature_page(feature))
    lines = {
        key: [{"scenario": s, "version": v, "observation": pk, **cell} for s, v, pk, cell in cells]
        for key, _, _, cells in page["lines"]
    }
    return api_json({"feature": feature, "title": page["title"], "hosts": lines, "version_ranges": page["spans"]})


@router.get(
    "/hosts/observations/{pk:pk}/", response={200: probe_out.LabOut, **out.NOT_FOUND}, url_name="lab_observation"
)
@require_safe
def lab_observation(request, pk: int):
    row = _found(lab_selectors.observation(pk, private=request.user.has_perm("comparison.run_probe")))
    return api_json({**observation_dict(row), "raw": row.raw})


@router.get("/hosts/{key}/", response={200: probe_out.LabOut, **out.NOT_FOUND}, url_name="lab_host")
@require_safe
@cached_page(users_share=True)
def lab_host(request, key: str):
    page = _found(lab_selectors.host_page(known_text(key)))
    scenarios = {scenario.tool: item for scenario, item in page["scenarios"]}
    data = {**_row(page["row"]), "dialect": page["adapter"].dialect, "scenarios": scenarios, "told_full": page["told"]}
    data |= {"conformance": page["conformance"], "conformance_suite": page["suite_version"]}
    return api_json(data | {"version_ranges": page["version_ranges"]})
