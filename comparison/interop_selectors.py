"""A run's interop per host, as the run page shows it: what the real hosts got through the target
beside what the hand models score (its own module: it reads both the lab and the run cells)."""

from __future__ import annotations

from typing import Any

from registers.core.vocabulary import HOST_NAMES, LAB_ONLY_HOSTS

from .hostlab import through
from .hosts.measured import LAB_KEY
from .models import ProbeResult
from .selectors import run_cells, score_of


def run_host_interop(run) -> dict[str, Any]:
    """A run's interop per host: the real hosts' captures through the target where the run's "also
    run the real hosts" measured them, the run's score for the others, labelled with where it comes
    from (the lab's chips, the hand models, or both). Two queries."""
    modelled = score_of(run_cells([run.pk])[run.pk]).as_dict()["hosts"]
    captured = (run.real_hosts or {}).get("hosts") or {}
    predicted = ProbeResult.objects.filter(run=run, method="tools/call").exclude(predictions=[]).exists()
    sources = {host: "lab" if host in LAB_ONLY_HOSTS else "lab + model" for host in LAB_KEY} if predicted else {}
    lines = through.host_interop(captured, modelled, dict(HOST_NAMES), sources)
    return {"pass": run.real_hosts or {}, "lines": lines}
