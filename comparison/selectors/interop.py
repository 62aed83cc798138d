"""A run's interop per host, as the run page shows it: what the real hosts got through the target
beside what the hand models score (its own module: it reads both the lab and the run cells)."""

from __future__ import annotations

from typing import Any

from comparison.hostlab import through
from comparison.hosts.measured import LAB_KEY
from comparison.models import ProbeResult
from comparison.selectors.runs import score_of
from language.vocabulary import HOST_NAMES, LAB_ONLY_HOSTS

#: The differing cells a model or lab line names on the run page; the rest are counted.
DIFFERING_SHOWN = 8


def run_host_interop(run) -> dict[str, Any]:
    """A run's interop per host: the real hosts' captures through the target where the run's "also
    run the real hosts" measured them, the run's score for the others, labelled with where it comes
    from (the lab's chips, the hand models, or both). Two queries."""
    cells = [
        {"id": pk, "scenario": scenario, "revision": revision, "verdict": verdict, "interop": interop}
        for pk, scenario, revision, verdict, interop in ProbeResult.objects.filter(run=run)
        .diagonal()
        .order_by("id")
        .values_list("id", "scenario", "requested_revision", "verdict", "interop")
    ]
    modelled = score_of(cells).as_dict()["hosts"]
    captured = (run.real_hosts or {}).get("hosts") or {}
    predicted = ProbeResult.objects.filter(run=run, method="tools/call").exclude(predictions=[]).exists()
    sources = {host: "lab" if host in LAB_ONLY_HOSTS else "lab + model" for host in LAB_KEY} if predicted else {}
    lines = through.host_interop(captured, modelled, dict(HOST_NAMES), sources)
    for line in lines:
        if line["source"] != "captures":
            # Where a model or the lab says the host gets something else: the run's own cells.
            differing = [c for c in cells if isinstance(c["interop"], dict) and c["interop"].get(line["key"]) is False]
            line["cells"] = differing[:DIFFERING_SHOWN]
            line["cells_more"] = max(0, len(differing) - DIFFERING_SHOWN)
    return {"pass": run.real_hosts or {}, "lines": lines}
