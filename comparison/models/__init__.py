"""The probe app's tables, one module per subject; Django finds them all here."""

from comparison.models.lab import HostObservation, HostReleases
from comparison.models.probes import ProbeResult, ProbeRun, ProbeTarget
from comparison.models.schedules import ProbeSchedule, WorkerHeartbeat
from comparison.models.tokens import ApiToken

__all__ = [
    "ApiToken",
    "HostObservation",
    "HostReleases",
    "ProbeResult",
    "ProbeRun",
    "ProbeSchedule",
    "ProbeTarget",
    "WorkerHeartbeat",
]
