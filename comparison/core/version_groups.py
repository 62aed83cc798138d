"""A target's ended runs grouped by what the target said it was (serverInfo name and version), so
the results of each proxy version read side by side. Pure, no Django."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

UNSAID = "did not say"


@dataclass
class VersionGroup:
    identity: str
    run_ids: list[int] = field(default_factory=list)  # newest first
    #: The newest run's interop share: (same, scored).
    latest: tuple[int, int] = (0, 0)
    first_seen: Any = None
    last_seen: Any = None

    @property
    def percent(self) -> float | None:
        same, scored = self.latest
        return round(100 * same / scored, 1) if scored else None


def by_version(runs: list[tuple[int, str, Any, tuple[int, int]]]) -> list[VersionGroup]:
    """`runs`: (run id, identity, created, (same, scored)), newest first. One group per identity,
    newest identity first; a run whose target said nothing is grouped as UNSAID."""
    groups: dict[str, VersionGroup] = {}
    for run_id, identity, created, share in runs:
        group = groups.get(identity or UNSAID)
        if group is None:
            group = groups[identity or UNSAID] = VersionGroup(identity or UNSAID, latest=share, last_seen=created)
        group.run_ids.append(run_id)
        group.first_seen = created
    return list(groups.values())
