"""One answer of a request → answer scenario, assessed: the revision's rules and schema, every
host's view of it, DPCTER for a failure, and the comparison with what the upstream sent (the
upstream or the fixture probed directly, or the fixture's known answer), with what the revision
asks a server to add set apart and hosts scored only at revisions they negotiate. Pure, no Django.
"""

from __future__ import annotations

import copy
from typing import Any

from comparison.core import failures
from comparison.hosts import change_kinds, is_prompt_result, measured, prompt_views, protocol, tool_views
from comparison.hosts.change_kinds import ADDED_AS_REVISION_ASKS
from comparison.hosts.present import present
from comparison.hosts.view import HostView
from comparison.probes.assessment import interop, listing, revisions, strictness
from comparison.probes.assessment.diffing import diff, payload
from comparison.probes.families import pagination
from comparison.probes.families.base import Finding
from comparison.probes.run.scenarios import Scenario, expected_fixture_response
from comparison.probes.transport.wire import STATELESS_REVISION
from language.vocabulary import ProbeVerdict

AS_EXPECTED = ProbeVerdict.AS_EXPECTED


FIXTURE_SERVER_INFO = {"name": "mcp-compare-fixture", "title": "mcp-compare fixture upstream", "version": "1.0.0"}


def expected_for(scenario: Scenario, revision: str) -> dict[str, Any] | None:
    """The fixture's answer as it goes out at `revision`: 2026-07-28 results carry a resultType,
    and the SDK stamps its typed (non-tool) results with the server's identity."""
    expected = expected_fixture_response(scenario)
    if expected and "result" in expected and revision == STATELESS_REVISION:
        expected = copy.deepcopy(expected)
        expected["result"].setdefault("resultType", "complete")
        if scenario.method != "tools/call":
            expected["result"]["_meta"] = {"io.modelcontextprotocol/serverInfo": FIXTURE_SERVER_INFO}
    return expected


def host_views_of(scenario: Scenario, response_payload: dict[str, Any] | None) -> list[HostView]:
    """Every host's view of the result the scenario asked for (none for an error or another kind)."""
    if not response_payload or "result" not in response_payload:
        return []
    result = response_payload["result"]
    if scenario.method == "tools/call" and isinstance(result, dict):
        return tool_views(result)
    if scenario.method == "prompts/get" and is_prompt_result(result):
        return prompt_views(result)
    return []


def assess(
    outcome: Any, exchange: Any, spec: Any, direct_exchange: Any = None, lab: dict[str, measured.Measured] | None = None
) -> Any:
    """Fill an outcome from a completed exchange: findings, host views, DPCTER, the diff, and what
    each host the `lab` measured would see (hosts.measured)."""
    scenario, revision = outcome.scenario, outcome.requested
    outcome.duration_ms = exchange.duration_ms
    outcome.response = exchange.response
    strays = [step["message"].get("id") for step in exchange.sequence if step.get("channel") == "stray"]
    answered = revisions.answer_findings(exchange.response, exchange.repairs, strays)
    outcome.findings = [finding.as_dict() for finding in answered]
    got = payload(exchange.response)
    if got and isinstance(got.get("result"), dict):
        checked = revisions.findings(got["result"], scenario.method, outcome.negotiated or revision)
        outcome.findings += [finding.as_dict() for finding in checked]
    views = host_views_of(scenario, got)
    # Stored and shown with long strings shortened.
    outcome.host_views = [present(view).to_json() for view in views]
    if scenario.failure:
        # Scored on the full texts: an envelope cut short for display would not parse.
        full_views = [present(view, limit=None) for view in views]
        scored = failures.profiles(exchange.response, full_views, is_failure=True)
        outcome.dpcter = [profile.as_dict() for profile in scored]
    if scenario.method == "tools/call" and lab:
        outcome.predictions = [measured.prediction(got, host) for host in lab.values()]
    _compare(outcome, _named_back(scenario, exchange.request, got), spec, direct_exchange, lab)
    return outcome


def _named_back(scenario: Scenario, sent: Any, got: dict | None) -> dict | None:
    """A read made under the URI the proxy lists answers with that URI: compared under the
    upstream's (the rename is the list's finding, not the read's)."""
    asked = (sent.get("params") or {}).get("uri") if isinstance(sent, dict) else None
    upstream = scenario.params.get("uri")
    result = got.get("result") if isinstance(got, dict) else None
    if scenario.method != "resources/read" or asked == upstream or not isinstance(result, dict):
        return got
    contents = result.get("contents")
    if not isinstance(contents, list):
        return got
    back = [{**c, "uri": upstream} if isinstance(c, dict) and c.get("uri") == asked else c for c in contents]
    return {**got, "result": {**result, "contents": back}}


def _compare(
    outcome: Any, got: dict | None, spec: Any, direct_exchange: Any, lab: dict[str, measured.Measured] | None = None
) -> None:
    """The outcome's diff, findings and scores against the reference: what the upstream sent, probed
    directly, else the fixture's known answer."""
    scenario = outcome.scenario
    negotiated = outcome.negotiated or outcome.requested
    if direct_exchange is not None and direct_exchange.ok:
        outcome.diff_against = (
            "the fixture probed directly" if spec.upstream == "fixture" else "upstream probed directly"
        )
        direct = strictness.normalized(scenario.method, payload(direct_exchange.response))
        got = strictness.normalized(scenario.method, _as_revision_asks(outcome, negotiated, direct, got))
        outcome.diff = diff(direct, got)
        later = pagination.later_names(scenario.method) if spec.upstream == "fixture" else ()
        named = listing.decorations(scenario.method, direct, got) + listing.membership(
            scenario.method, direct, got, later
        )
        rest = listing.unexplained(scenario.method, outcome.diff) if named else outcome.diff
        outcome.findings += [f.as_dict() for f in named + strictness.explain(direct, got, rest)]
        scored = interop.cell_interop(scenario.method, got, direct)
        if named and listing.explained(scenario.method, outcome.diff, direct, got):
            # Every difference is a kind of change: what each kind does to a host decides.
            kinds = tuple(dict.fromkeys(f.kind for f in named))
            aspect = listing.ASPECTS[scenario.method]
            impacts = {host: change_kinds.impact(kinds, host, aspect) for host in scored}
            # A host whose reaction to these kinds no source gives is unknown: scored for nobody.
            scored = {
                host: scored[host] if found is None else not found.affected
                for host, found in impacts.items()
                if found is None or found.known
            }
        outcome.interop = _negotiating(scored, negotiated)
        if scenario.method == "tools/call" and lab:
            outcome.interop |= measured.interop(direct, got, lab, negotiated)
    elif spec.upstream == "fixture":
        expected = expected_for(scenario, negotiated)
        if expected is not None:
            outcome.diff_against = "the fixture's known answer"
            got = strictness.normalized(scenario.method, _as_revision_asks(outcome, negotiated, expected, got))
            expected = strictness.normalized(scenario.method, expected)
            if "error" in expected and got and "error" in got:
                # The fixture's own error text is not fixed for every case: compare what it states.
                outcome.diff = diff(expected["error"], got["error"], "error", subset=True)
            else:
                outcome.diff = diff(expected, got)
            outcome.findings += [f.as_dict() for f in strictness.explain(expected, got, outcome.diff)]
            outcome.interop = _negotiating(
                interop.cell_interop(scenario.method, got, payload(expected), same_error=_states_alike), negotiated
            )
            if scenario.method == "tools/call" and lab:
                # The fixture's own error texts are not fixed: an error is compared by what it states.
                sent = got if _both_errors_alike(expected, got) else expected
                outcome.interop |= measured.interop(sent, got, lab, negotiated)


def _as_revision_asks(outcome: Any, revision: str, sent: dict | None, got: dict | None) -> dict | None:
    """`got` without what the revision asks a server to add where the upstream left it out (the
    2026-07-28 serverInfo `_meta`), each noted as a finding that changes nothing for hosts."""
    kept, added = revisions.asked_additions(revision, sent, got)
    outcome.findings += [
        Finding(
            AS_EXPECTED,
            path,
            f"set by the proxy, as {revision} asks a server to: changes nothing for hosts",
            ADDED_AS_REVISION_ASKS,
        ).as_dict()
        for path in added
    ]
    return kept


def _negotiating(scored: dict[str, bool], revision: str) -> dict[str, bool]:
    """A host that never negotiates the revision is never affected by what happens there."""
    return {host: same or not protocol.negotiates(host, revision) for host, same in scored.items()}


def _both_errors_alike(expected: Any, got: Any) -> bool:
    both = isinstance(expected, dict) and isinstance(got, dict) and "error" in expected and "error" in got
    return both and _states_alike(expected["error"], got["error"])


def _states_alike(expected_error: Any, got_error: Any) -> bool:
    return not diff(expected_error, got_error, "error", subset=True)
