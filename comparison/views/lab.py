"""The host lab's pages: the hosts matrix (hosts × features, caniuse style), a page per host, per
feature and per observation, "compare two hosts", and the form that runs a configured stdio target
through the real hosts (logged-in users with the run permission)."""

from __future__ import annotations

import json
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import permission_required
from django.http import Http404
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.views.decorators.http import require_http_methods, require_safe

from common.beside_runs import beside_runs_version
from common.http import HtmxHttpRequest, int_param, partial
from common.pagecache import cached_page
from comparison.hostlab.adapters import ADAPTERS
from comparison.models import ProbeTarget
from comparison.models.lab import HostObservation
from comparison.selectors import lab as lab_selectors
from comparison.tasks import host_lab_task


def _found(value):
    if value is None:
        raise Http404("no such host, feature or observation")
    return value


@require_safe
@cached_page(users_share=True, varies_with=lab_selectors.install_state, version=beside_runs_version)
def hosts_matrix(request: HtmxHttpRequest) -> TemplateResponse:
    hosts = [key for key in request.GET.getlist("host") if key in ADAPTERS]
    context = lab_selectors.matrix_page(hosts, request.GET.get("chip", ""))
    return TemplateResponse(request, partial(request, "comparison/hostlab/matrix.html", "matrix"), context)


@require_safe
@cached_page(users_share=True, version=beside_runs_version)
def host_detail(request: HtmxHttpRequest, key: str) -> TemplateResponse:
    return TemplateResponse(request, "comparison/hostlab/host.html", _found(lab_selectors.host_page(key)))


@require_safe
@cached_page(users_share=True, version=beside_runs_version)
def feature_detail(request: HtmxHttpRequest, feature: str) -> TemplateResponse:
    return TemplateResponse(request, "comparison/hostlab/feature.html", _found(lab_selectors.feature_page(feature)))


@require_safe
@cached_page(users_share=True, version=beside_runs_version)
def compare_hosts(request: HtmxHttpRequest) -> TemplateResponse:
    a, b = request.GET.get("a", ""), request.GET.get("b", "")
    context = lab_selectors.compare_page(a, b) or {"problem": "Choose two different hosts.", "a": a, "b": b}
    context["hosts"] = [(key, adapter.label) for key, adapter in ADAPTERS.items()]
    return TemplateResponse(request, "comparison/hostlab/compare.html", context)


@require_safe
def observation_detail(request: HtmxHttpRequest, pk: int) -> TemplateResponse:
    row: HostObservation = _found(lab_selectors.observation(pk, private=request.user.has_perm("comparison.run_probe")))
    return TemplateResponse(request, "comparison/hostlab/observation.html", lab_selectors.observation_page(row))


@require_http_methods(["GET", "POST"])
@permission_required("comparison.run_probe", raise_exception=True)
def lab_form(request: HtmxHttpRequest):
    """Runs one configured stdio target's tool through every installed host, as a worker task."""
    context = lab_selectors.lab_form_page()
    if request.method == "GET":
        return TemplateResponse(request, "comparison/hostlab/lab_form.html", context)
    target = ProbeTarget.objects.filter(pk=request.POST.get("target"), transport="stdio", enabled=True).first()
    try:
        arguments = json.loads(request.POST.get("arguments") or "{}")
    except ValueError:
        arguments = None
    tool = request.POST.get("tool", "").strip()
    if target is None or not tool or not isinstance(arguments, dict):
        messages.error(request, "Choose an enabled stdio target, name a tool, and give the arguments as a JSON object.")
        return TemplateResponse(request, "comparison/hostlab/lab_form.html", context, status=400)
    batch = uuid.uuid4().hex
    host_lab_task.enqueue(target.pk, tool, arguments, batch)
    return redirect("comparison:lab_batch", batch=batch)


#: The batch page refreshes every 3 s for at most this many times (10 minutes).
MAX_POLLS = 200


@require_safe
@permission_required("comparison.run_probe", raise_exception=True)
def lab_batch(request: HtmxHttpRequest, batch: str) -> TemplateResponse:
    poll = min(int_param(request.GET.get("poll")) or 0, MAX_POLLS)
    context = {"batch": batch, "observations": lab_selectors.batch(batch), "expected": len(ADAPTERS)}
    context |= {"next_poll": poll + 1, "gave_up": poll >= MAX_POLLS}
    return TemplateResponse(request, partial(request, "comparison/hostlab/lab_batch.html", "batch"), context)
