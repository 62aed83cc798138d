"""A run's "also run the real hosts": the lab's installed hosts through the target (a task of its
own, after the probe cells), and the real opencode binary's view added to every tool result."""

from __future__ import annotations

import logging
from collections.abc import Callable

from comparison.models import ProbeRun
from comparison.probes.run import real_lane
from language.vocabulary import ProbeVerdict

logger = logging.getLogger(__name__)

#: Results that carry a tool result a host would be handed.
DELIVERED_VERDICTS = [str(v) for v in (ProbeVerdict.AS_EXPECTED, ProbeVerdict.CHANGED, ProbeVerdict.INVALID)]


def real_hosts_lane(run: ProbeRun, redactor, queue_real_hosts: Callable[[ProbeRun], None]) -> None:
    """Queue the lab's hosts through the target; add the real opencode binary's view to every tool result."""
    ProbeRun.objects.filter(pk=run.pk).update(real_hosts={"status": "queued"})
    queue_real_hosts(run)
    results = (
        {}
        if not real_lane.available()
        else {
            f"r{result.pk}": result
            for result in run.results.diagonal().filter(method="tools/call", verdict__in=DELIVERED_VERDICTS)
            if isinstance(result.response, dict) and isinstance(result.response.get("result"), dict)
        }
    )
    if not results:
        return
    try:
        views = real_lane.capture_results({name: r.response["result"] for name, r in results.items()})
    except Exception as error:  # the real host failing is recorded, never a failed run
        logger.warning("real host lane of run %s failed: %s", run.pk, redactor.text(str(error)))
        ProbeRun.objects.filter(pk=run.pk).update(error=redactor.text(f"real host lane failed: {error}")[:2000])
        return
    for name, view in views.items():
        result = results[name]
        result.host_views = [*result.host_views, redactor.data(view)]
        result.save(update_fields=["host_views"])
