"""The probe catalogue, one scenario family per module (see ARCHITECTURE.md, "scenario families").
A new family is a module with a `FAMILY` and a line here; the runner, the wire client, the fixture
and the pages know families only through `base.Family`."""

from __future__ import annotations

from typing import Any

from . import (
    caching,
    cancellation,
    changes,
    content,
    failures,
    logging,
    pagination,
    progress,
    prompts,
    server_requests,
    sessions,
    upstream_told,
)
from .base import Family, Scenario

FAMILIES: tuple[Family, ...] = (
    content.FAMILY,
    prompts.FAMILY,
    failures.FAMILY,
    progress.FAMILY,
    logging.FAMILY,
    server_requests.FAMILY,
    pagination.FAMILY,
    changes.FAMILY,
    cancellation.FAMILY,
    upstream_told.FAMILY,
    sessions.FAMILY,
    caching.FAMILY,
)
BY_NAME = {family.name: family for family in FAMILIES}


def family_of(scenario: Scenario) -> Family | None:
    return BY_NAME.get(scenario.family)


def fixture_scenarios() -> tuple[Scenario, ...]:
    return tuple(scenario for family in FAMILIES for scenario in family.scenarios)


def capabilities(revision: str, scenarios: list[Scenario] | tuple[Scenario, ...]) -> dict[str, Any]:
    """What the probe declares at `revision` for these scenarios: every capability their families need."""
    declared: dict[str, Any] = {}
    for name in dict.fromkeys(scenario.family for scenario in scenarios):
        family = BY_NAME.get(name)
        if family is not None:
            declared.update(family.capabilities(revision))
    return declared


def fixture_tools() -> dict[str, Any]:
    return {tool.name: tool for family in FAMILIES for tool in family.tools}
