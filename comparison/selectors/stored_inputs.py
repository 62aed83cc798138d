"""What a page or export about stored runs is made from, as a cache version (issue 53): the runs it
names, each by id, creation, status and acceptance, and everything but the runs. An ended run's
results never change, so such a page stays cached across other targets' runs and uploads; while a
named run is still active (its results arriving) the data version keys it instead."""

from __future__ import annotations

import hashlib

from common.http import int_param
from common.pagecache import data_versions
from comparison.models import ProbeRun

#: Query parameters that name runs, on the compare, grid and audit pages.
RUN_PARAMETERS = ("run", "against")


def stored_runs_version(request, pk: int | None = None, **_query_parameters) -> str | None:
    """The version of a page about run `pk` and the runs its query names; None (the data version)
    when one of them is active or missing, or none is named. (The API's reads are also handed their
    query parameters as arguments; the runs are read from the query string, as for the pages.)"""
    ids = {pk} if pk is not None else set()
    for name in RUN_PARAMETERS:
        ids.update(found for found in map(int_param, request.GET.getlist(name)) if found is not None)
    if not ids:
        return None
    stamps = list(
        ProbeRun.objects.filter(pk__in=ids)
        .order_by("pk")
        .values_list("pk", "created", "status", "accepted_at", "target__name")
    )
    if len(stamps) != len(ids) or any(status in ProbeRun.ACTIVE for _, _, status, _, _ in stamps):
        return None  # a run not there yet (its id may come) or still active: the data version
    digest = hashlib.blake2b(repr(stamps).encode(), digest_size=10).hexdigest()
    return f"{data_versions()[1][:12]}{digest}"
