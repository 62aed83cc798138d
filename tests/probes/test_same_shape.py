"""A loss is blamed on a proxy only once the same exchange, with no proxy in between, comes
through whole: the fixture served in the target's own shape is probed for every cell judged lost
or refused (comparison.probes.assessment.same_shape and runner.check_losses_alone)."""

from __future__ import annotations

import dataclasses
import sys

from comparison.probes.assessment import same_shape
from comparison.probes.fixture import forkserver
from comparison.probes.processes.control import RunControl
from comparison.probes.run.revision_session import Terms, probe_revision
from comparison.probes.run.runner import (
    ProbePlan,
    TargetSpec,
    _outcome,
    builtin_fixture,
    check_losses_alone,
    run_probe,
)
from comparison.probes.run.scenarios import FIXTURE
from comparison.probes.transport.exchange import Limits
from language.vocabulary import ProbeVerdict as V
from tests.support.relay_targets import RELAY, through_stdio_relay

REVISION = "2025-06-18"
KEYS = ["progress", "logging", "ask-sampling", "text"]


def shape_notes(outcome) -> list[str]:
    return [f["message"] for f in outcome.findings if f.get("rule") == same_shape.RULE]


def test_the_shape_is_the_targets_side_facing_the_client():
    assert same_shape.shape_of("stdio", []) == same_shape.STDIO
    assert same_shape.shape_of("http", ["json", "sse"]) == same_shape.STREAMABLE
    assert same_shape.shape_of("http", ["legacy sse", "legacy sse"]) == same_shape.LEGACY
    legacy = same_shape.served(same_shape.LEGACY, 4100)
    assert legacy.url == "http://127.0.0.1:4100/sse"
    assert legacy.launch[-1] == "--sse"
    streamable = same_shape.served(same_shape.STREAMABLE, 4101)
    assert streamable.url == "http://127.0.0.1:4101/mcp"
    assert "--sse" not in streamable.launch
    assert same_shape.served(same_shape.STDIO, 4102).launch == ()


def test_a_loss_the_fixture_alone_does_not_have_stays_the_proxys_and_says_it_was_checked():
    outcomes = {o.scenario.key: o for o in through_stdio_relay("notifications", KEYS, [REVISION], tries_=1)}
    outcomes |= {o.scenario.key: o for o in through_stdio_relay("server-requests", ["ask-sampling"], [REVISION], 1)}
    for key, verdict in (("progress", V.LOST), ("logging", V.LOST), ("ask-sampling", V.REFUSED)):
        assert outcomes[key].verdict == verdict, (key, outcomes[key].findings)
        assert shape_notes(outcomes[key]) == [
            "checked with no proxy in between: the fixture served over stdio gives the probe's client this "
            "exchange whole, so the proxy is where it goes"
        ]
        assert outcomes[key].interop, "a confirmed loss is scored"
    assert outcomes["text"].verdict == V.AS_EXPECTED
    assert shape_notes(outcomes["text"]) == [], "only a blamed cell is checked"


def lossy_stdio_relay() -> TargetSpec:
    relay = [sys.executable, str(RELAY), "--lose", "notifications", "--", *forkserver.fixture_command()]
    return TargetSpec("relay losing notifications", "stdio", command=relay, upstream="fixture")


def test_a_loss_the_same_shape_has_with_no_proxy_is_not_the_proxys():
    # Stands in for a shape that loses the exchange on its own: the same lossy relay answers the
    # check, so the same exchange fails with "no proxy" too and the proxy is not blamed.
    spec, limits, control = lossy_stdio_relay(), Limits(), RunControl()
    chosen = [s for s in FIXTURE if s.key in ("progress", "text")]
    found = probe_revision(spec, chosen, REVISION, Terms(limits, control, "sameshapetest"))
    direct = probe_revision(builtin_fixture(), chosen, REVISION, Terms(limits, control, "sameshapetest-direct"))
    made = [_outcome(s, REVISION, found, direct.answers.get(s.key), spec) for s in chosen]
    assert {o.scenario.key: str(o.verdict) for o in made} == {"progress": V.LOST, "text": V.AS_EXPECTED}
    check_losses_alone(spec, made, found, direct.answers, Terms(limits, control), alone_spec=lossy_stdio_relay())
    progress = next(o for o in made if o.scenario.key == "progress")
    assert progress.verdict == V.NOT_COMPARED
    assert progress.interop == {}, "scored for nobody"
    [note] = shape_notes(progress)
    assert note.startswith("not the proxy's: with no proxy in between, the fixture served over stdio gives")
    assert '"lost by proxy" here too' in note


def test_a_check_that_cannot_start_leaves_the_loss_and_says_so():
    spec, limits, control = lossy_stdio_relay(), Limits(), RunControl()
    chosen = [s for s in FIXTURE if s.key == "progress"]
    found = probe_revision(spec, chosen, REVISION, Terms(limits, control, "sameshapetest"))
    direct = probe_revision(builtin_fixture(), chosen, REVISION, Terms(limits, control, "sameshapetest-direct"))
    made = [_outcome(s, REVISION, found, direct.answers.get(s.key), spec) for s in chosen]
    missing = TargetSpec("gone", "stdio", command=["/nonexistent/fixture"], upstream="fixture")
    check_losses_alone(spec, made, found, direct.answers, Terms(limits, control), alone_spec=missing)
    assert made[0].verdict == V.LOST
    [note] = shape_notes(made[0])
    assert note.startswith("not checked with no proxy in between: the fixture over stdio could not be probed")


def test_a_target_whose_upstream_is_not_the_fixture_is_never_blamed_for_what_the_fixture_would_send():
    # The lossy relay with its upstream unsaid (`probe --command` without --upstream-fixture, or a
    # server that is not the fixture at all): the families that play the fixture's own tools have
    # nothing to compare with, nor have the pages of a list when no upstream was probed directly, so
    # their cells are "not compared", with what was seen kept.
    spec = dataclasses.replace(lossy_stdio_relay(), upstream="")
    judged = ("progress", "logging", "ask-sampling", "pages-tools")
    chosen = [s for s in FIXTURE if s.key in (*judged, "negotiated-revision")]
    made = {o.scenario.key: o for o in run_probe(spec, ProbePlan(scenarios=chosen, revisions=[REVISION], tries=1))}
    for key in judged:
        assert made[key].verdict == V.NOT_COMPARED, (key, made[key].findings)
        [finding] = made[key].findings
        assert "upstream is not the fixture" in finding["message"]
        assert made[key].interop == {}, "scored for nobody"
    assert "seen: the upstream sent" in made["progress"].findings[0]["message"]
    assert made["negotiated-revision"].verdict == V.NOT_COMPARED, "the upstream's own revision is not known"
