"""The probe catalogue, one scenario family per module (see ARCHITECTURE.md, "scenario families").
A new family is a module with a `FAMILY` and a line here; the runner, the wire client, the fixture
and the pages know families only through `base.Family`."""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType
from typing import Any

from comparison.probes.families import (
    caching,
    cancellation,
    changes,
    content,
    failures,
    logging,
    negotiation,
    pagination,
    progress,
    prompts,
    server_requests,
    sessions,
    upstream_told,
)
from comparison.probes.families.base import Family, Scenario


def _declared(module: ModuleType) -> Family:
    """The module's family with each scenario's anchors: its own, its entry in the module's
    SCENARIO_ANCHORS, the family's ANCHORS, and the method it sends."""
    own = getattr(module, "SCENARIO_ANCHORS", {})
    family = module.FAMILY

    def anchored(scenario: Scenario) -> Scenario:
        method = (f"method:{scenario.method}",) if "/" in scenario.method else ()
        found = (*scenario.anchors, *own.get(scenario.key, ()), *module.ANCHORS, *method)
        return replace(scenario, anchors=tuple(dict.fromkeys(found)))

    return replace(family, scenarios=tuple(anchored(s) for s in family.scenarios), anchors=module.ANCHORS)


FAMILIES: tuple[Family, ...] = tuple(
    _declared(module)
    for module in (
        content,
        prompts,
        failures,
        progress,
        logging,
        server_requests,
        pagination,
        changes,
        cancellation,
        upstream_told,
        sessions,
        caching,
        negotiation,
    )
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
