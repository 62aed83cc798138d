"""The cells of the scenario families that play more than one message: which scenarios exist at a
revision over a transport, playing one, and its outcome from the family's assessment. Pure, no
Django; the runner calls these for every scenario whose family has a `play`."""

from __future__ import annotations

import logging
from typing import Any

from comparison.hosts import protocol
from comparison.probes import families
from comparison.probes.assessment import tries
from comparison.probes.families.base import Finding, Played, Scenario, worst
from language.vocabulary import REVISIONS, ProbeVerdict

logger = logging.getLogger(__name__)


def applicable(scenarios: list[Scenario], revision: str, transport: str) -> list[Scenario]:
    """The scenarios that exist at `revision` over `transport` (the others get no cell at all)."""
    return [scenario for scenario in scenarios if scenario.applies(revision, transport)]


def play(client: Any, scenario: Scenario, revision: str, key: str) -> Played:
    family = families.family_of(scenario)
    try:
        return family.play(client, scenario, revision, key)
    except Exception as error:  # a bug of ours meeting an odd answer: this cell, not the run
        logger.exception("could not play %s at %s", scenario.key, revision)
        return Played(failure=f"mcp-compare could not play this scenario: {type(error).__name__}: {error}"[:500])


def plays(scenario: Scenario) -> bool:
    family = families.family_of(scenario)
    return family is not None and family.play is not None


def repeats(scenario: Scenario) -> bool:
    """Whether the scenario's outcome can depend on timing, so it is played more than once."""
    family = families.family_of(scenario)
    return family is not None and family.timing


def compares(scenario: Scenario) -> bool:
    """Whether its assessment compares with the same scenario played against the upstream directly."""
    family = families.family_of(scenario)
    return family is not None and family.compared


def family_outcome(outcome: Any, played: Played | None, found: Any, spec: Any, reference: Played | None = None) -> Any:
    """A family scenario's cell: its messages in order, what its assessment found (over every try
    of a timing-sensitive cell, probes.tries), its verdict, and which hosts it changes anything
    for (comparison.hosts.protocol)."""
    scenario, revision = outcome.scenario, outcome.requested
    attempts = found.tries.get(scenario.key) or ([played] if played is not None else [])
    outcome.exchanges = found.opening + ([e.as_dict() for e in played.exchanges] if played else [])
    made = [attempt for attempt in attempts if attempt.ok]
    if found.failure or not made:
        outcome.failure = found.failure or found.skipped.get(scenario.key) or (played.failure if played else "not sent")
        return outcome
    outcome.duration_ms = sum(e.duration_ms for attempt in attempts for e in attempt.exchanges)
    outcome.response = played.exchanges[-1].response if played.exchanges else None
    family = families.family_of(scenario)
    tried = []
    for attempt in attempts:
        if not attempt.ok:
            tried.append([Finding(ProbeVerdict.FAILED, scenario.key, attempt.failure)])
            continue
        if reference is not None and reference.ok:
            attempt.notes["reference"] = reference.notes
        try:
            tried.append(family.assess(scenario, attempt, outcome.negotiated or revision))
        except Exception as error:  # a bug of ours meeting an odd answer: this cell, not the run
            logger.exception("could not assess %s at %s", scenario.key, revision)
            outcome.failure = f"mcp-compare could not assess this scenario: {type(error).__name__}: {error}"[:500]
            return outcome
    verdict, findings = tries.combine(tried)
    compared = compares(scenario) and reference is not None and reference.ok
    if spec.upstream != "fixture" and not compared:
        verdict, findings = _upstream_unknown(scenario, findings)
    outcome.findings = [finding.as_dict() for finding in findings]
    outcome.assessed = verdict
    if len(attempts) > 1:
        outcome.tries = [
            {
                "try": number,
                "verdict": worst(found_in_try),
                "findings": [finding.as_dict() for finding in found_in_try],
                "exchanges": [e.as_dict() for e in attempt.exchanges],
            }
            for number, (attempt, found_in_try) in enumerate(zip(attempts, tried, strict=True), start=1)
        ]
    outcome.diff_against = "what the fixture sent and received"
    if spec.upstream == "fixture":
        outcome.interop = protocol.interop(
            protocol.Cell(
                scenario.key,
                outcome.negotiated or revision,
                outcome.assessed,
                expected=ProbeVerdict.AS_EXPECTED,
                testable=outcome.assessed not in (ProbeVerdict.NOT_TESTABLE, ProbeVerdict.NOT_COMPARED),
                kinds=protocol.finding_kinds(outcome.findings),
            )
        )
    return outcome


def _upstream_unknown(scenario: Scenario, findings: list[Finding]) -> tuple[str, list[Finding]]:
    """A cell judged by what the fixture sends (its own tools, pages and journal), through a target
    whose upstream is something else, not probed directly: what that upstream sent is not known,
    so nothing it lacks or refuses is the target's. What was seen stays in the finding."""
    seen = "; ".join(f.detail for f in findings if f.verdict != ProbeVerdict.AS_EXPECTED and f.detail)
    detail = (
        "the target's upstream is not the fixture and was not probed directly: this cell is judged against "
        "what the fixture sends, so what it lacks or refuses is not known to be the target's"
    )
    detail += f" (seen: {seen})" if seen else ""
    return ProbeVerdict.NOT_COMPARED, [Finding(ProbeVerdict.NOT_COMPARED, scenario.key, detail[:500])]


def not_applicable(scenario, revision: str, transport: str) -> str:
    """Why a scenario has no cell at a revision over a transport; "" where it has one."""
    if scenario.applies(revision, transport):
        return ""
    if not scenario.exists_at(revision):
        return f"{scenario.title}: not part of {revision}"
    return f"{scenario.title}: only over {', '.join(scenario.transports)}"


def scenario_groups(scenarios, transport: str) -> list[tuple[str, list]]:
    """The run form's scenarios by family, in catalogue order, with the revisions each exists in."""
    groups: dict[str, list] = {}
    for scenario in scenarios:
        if transport not in scenario.transports:
            continue
        family = families.BY_NAME.get(scenario.family)
        span = [f"from {scenario.introduced}"] if scenario.introduced != REVISIONS[0] else []
        span += [f"until {scenario.removed}"] if scenario.removed else []
        groups.setdefault(family.title if family else "Scenarios", []).append((scenario, ", ".join(span)))
    return list(groups.items())
