"""Both transports read alike after the answer (issue 33, item 3): over stdio a relay that passes
a call's notifications on a few milliseconds after its answer (tests/support/relay.py
--lose late-notifications) was called "lost", because the stdio transport stopped reading at
the answer while the HTTP transport read the GET stream for the call's settle time."""

from __future__ import annotations

import pytest

from comparison.tasks import start_run
from language.vocabulary import REVISIONS
from tests.support.relay_targets import relay_target

BEFORE_LISTEN = [str(revision) for revision in REVISIONS if str(revision) < "2026-07-28"]


@pytest.mark.django_db
def test_notifications_relayed_just_after_the_answer_are_not_lost():
    run = start_run(
        target=relay_target("late-notifications"),
        revisions=BEFORE_LISTEN,
        scenarios=["list-changed", "resource-updated", "logging"],
    )
    verdicts = {(r.scenario, r.requested_revision): (r.verdict, r.failure) for r in run.results.all()}
    lost = {cell: verdict for cell, verdict in verdicts.items() if verdict[0] == "lost by proxy"}
    assert lost == {}, lost
    for revision in BEFORE_LISTEN:
        assert verdicts[("list-changed", revision)][0] == "as expected", verdicts
