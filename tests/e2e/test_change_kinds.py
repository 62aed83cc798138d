"""Verdicts that hold on any proxy (issue 33): every kind of change a test relay makes is named at
every revision where its scenario exists, a faithful relay is clean run after run, and what each
kind changes for a host is read from the kind, not from whether the host uses the message.

The relays are written here (tests/support/relay.py over stdio, tests/support/http_relay.py over HTTP), each in
front of the real fixture; the probe runs against them as against any target.
"""

from __future__ import annotations

import sys
from collections import defaultdict

import pytest

from comparison.hosts import change_kinds, protocol
from comparison.probes.assessment import revisions, tries
from comparison.probes.families import changes, server_requests
from comparison.probes.families.base import Finding, Played
from comparison.probes.fixture import forkserver
from comparison.probes.processes.launch import launched
from comparison.probes.run.runner import ProbePlan, TargetSpec, run_probe
from comparison.probes.run.scenarios import FIXTURE
from comparison.tasks import start_run
from language.vocabulary import REVISIONS
from language.vocabulary import ProbeVerdict as V
from tests.support.relay_targets import (
    ALL,
    RELAY,
    cells,
    http_relay_spec,
    kinds,
    relay_target,
    through_http_relay,
    through_stdio_relay,
)

HERE = RELAY.parent  # the relays the tests use, in tests/support
PROJECT = HERE.parents[1]
STATELESS = "2026-07-28"


def exists(key: str, transport: str) -> list[str]:
    scenario = next(s for s in FIXTURE if s.key == key)
    return [revision for revision in ALL if scenario.applies(revision, transport)]


PAGES = ["pages-tools", "pages-prompts", "pages-resources", "pages-templates"]


def test_merged_pages_are_named_wherever_a_list_is_paged():
    found = cells(through_stdio_relay("merge-pages", [*PAGES, "tools-list", "prompts-list"]))
    for key in [*PAGES, "tools-list", "prompts-list"]:
        for revision in exists(key, "stdio"):
            outcome = found[(key, revision)]
            assert outcome.verdict == V.CHANGED, (key, revision, outcome.findings, outcome.failure)
            assert change_kinds.MERGED_PAGES in kinds(outcome), (key, revision, outcome.findings)
    pages_tools = found[("pages-tools", "2025-06-18")]
    assert "the upstream sent 3 pages (50 + 2 + 2 items), the client got 1 page (54 items)" in str(pages_tools.findings)
    # Lootbox and Cloudflare read one page: through this proxy they see more tools. opencode follows cursors.
    assert pages_tools.interop["lootbox"] is False
    assert pages_tools.interop["cloudflare"] is False
    assert pages_tools.interop["opencode-v1"] is True


def test_decorated_lists_are_named_field_by_field():
    found = cells(through_stdio_relay("decorate-lists", ["tools-list", "prompts-list", "pages-tools", "pages-prompts"]))
    for key in ["tools-list", "prompts-list", "pages-tools", "pages-prompts"]:
        for revision in exists(key, "stdio"):
            outcome = found[(key, revision)]
            assert outcome.verdict == V.CHANGED, (key, revision)
            assert kinds(outcome) >= {change_kinds.DECORATED_LIST}, (key, revision, outcome.findings)
    messages = " ".join(f["message"] for f in found[("pages-prompts", "2025-11-25")].findings)
    assert "added `_meta` to 8 of 8 prompts" in messages
    assert "added `arguments`" in messages
    assert "added `title` to 50 of 50 tools" in " ".join(
        f["message"] for f in found[("tools-list", "2025-11-25")].findings
    )


def test_an_injected_progress_token_is_named_at_every_revision():
    found = cells(through_stdio_relay("inject-progress-token", ["told-meta", "progress"]))
    for revision in exists("told-meta", "stdio"):
        outcome = found[("told-meta", revision)]
        assert outcome.verdict == V.CHANGED, (revision, outcome.findings)
        assert kinds(outcome) == {change_kinds.INJECTED_PARAMETER}
        assert "progressToken" in outcome.findings[0]["path"]
        assert found[("progress", revision)].verdict == V.AS_EXPECTED, "the client's own token passes untouched"


def test_progress_dropped_in_every_second_call_is_intermittent_with_every_try_kept():
    found = cells(through_stdio_relay("every-second-progress", ["progress"]))
    for revision in exists("progress", "stdio"):
        outcome = found[("progress", revision)]
        assert outcome.verdict == V.INTERMITTENT, (revision, outcome.findings)
        assert "lost in 1 of 3 tries" in outcome.findings[0]["message"]
        assert [attempt["verdict"] for attempt in outcome.tries] == [V.AS_EXPECTED, V.LOST, V.AS_EXPECTED]
        assert all(attempt["exchanges"] for attempt in outcome.tries), "each try keeps its messages"


def test_one_try_of_the_same_relay_would_have_called_it_as_expected():
    """Why cells repeat: the first call through this relay is fine, so one try says nothing is wrong."""
    found = cells(through_stdio_relay("every-second-progress", ["progress"], ["2025-11-25"], tries_=1))
    assert found[("progress", "2025-11-25")].verdict == V.AS_EXPECTED


def test_the_serverinfo_meta_2026_07_28_asks_for_is_no_change_and_affects_nobody():
    found = cells(
        through_stdio_relay("server-info", ["text", "image", "structured", "mixed"], ["2025-11-25", STATELESS])
    )
    for key in ["text", "image", "structured", "mixed"]:
        outcome = found[(key, STATELESS)]
        assert outcome.diff == [], (key, outcome.diff)
        assert kinds(outcome) == {change_kinds.ADDED_AS_REVISION_ASKS}, key
        assert all(outcome.interop.values()), (key, outcome.interop)
    assert found[("text", STATELESS)].verdict == V.AS_EXPECTED
    assert kinds(found[("text", "2025-11-25")]) == set(), "before 2026-07-28 the relay adds nothing"


def test_messages_moved_to_the_get_stream_are_named_and_lost_only_for_hosts_without_one():
    found = cells(through_http_relay("move-to-get", ["progress", "logging"]))
    for key in ["progress", "logging"]:
        for revision in exists(key, "http"):
            outcome = found[(key, revision)]
            if revision == STATELESS:  # no session, no GET stream: nothing to move to
                assert outcome.verdict == V.AS_EXPECTED, (key, revision, outcome.findings)
                continue
            assert change_kinds.MOVED_TO_GET_STREAM in kinds(outcome), (key, revision, outcome.findings)
    logging = found[("logging", "2025-06-18")]
    assert kinds(logging) == {change_kinds.MOVED_TO_GET_STREAM}
    assert logging.interop["opencode-v1"] is True, "opencode opens the GET stream: it gets them there"
    assert "mcpx" not in logging.interop, "no source says what mcpx does with the GET stream: unknown, unscored"


def test_a_session_the_proxy_opens_of_its_own_upstream_is_named():
    found = cells(through_http_relay("own-session", ["told-sessions", "told-client-info"]))
    for revision in exists("told-sessions", "http"):
        outcome = found[("told-sessions", revision)]
        assert outcome.verdict == V.CHANGED, (revision, outcome.findings)
        assert kinds(outcome) == {change_kinds.EXTRA_UPSTREAM_SESSION}
        assert "relay-own-session" in outcome.findings[0]["message"]
        assert "with a GET stream" in outcome.findings[0]["message"]
        assert len(outcome.findings) == 1, "one finding, however many sessions"
        assert all(outcome.interop.values()), "no host's own session changes"
        assert found[("told-client-info", revision)].verdict == V.AS_EXPECTED, "the client's session is its own"


def test_a_faithful_stdio_relay_is_clean_in_ten_consecutive_runs():
    differing = defaultdict(list)
    for run in range(10):
        for outcome in through_stdio_relay("none"):
            if outcome.verdict not in (V.AS_EXPECTED, V.INVALID):  # the fixture's own invalid cells
                differing[(outcome.scenario.key, outcome.requested)].append((run, outcome.verdict, outcome.findings))
    assert dict(differing) == {}


def test_a_faithful_http_relay_is_clean_in_ten_consecutive_runs():
    """Ten runs against one launch of the relay (the timing-sensitive and compared families at every
    revision): a relay started afresh for each run costs its start ten times, not more checking."""
    timing = [s.key for s in FIXTURE if s.family in ("progress", "logging", "changes", "cancellation", "pagination")]
    chosen = [s for s in FIXTURE if s.key in {*timing, "told-sessions", "tools-list", "prompts-list"}]
    spec = http_relay_spec("none")
    differing = defaultdict(list)
    with launched(spec.launch, spec.url, cwd=PROJECT):
        served = TargetSpec(spec.name, "http", url=spec.url, upstream="fixture")
        for run in range(10):
            for outcome in run_probe(served, ProbePlan(scenarios=chosen, revisions=ALL)):
                if outcome.verdict not in (V.AS_EXPECTED, V.INVALID):
                    differing[(outcome.scenario.key, outcome.requested)].append(
                        (run, outcome.verdict, outcome.findings)
                    )
    assert dict(differing) == {}


# The pure parts.


def test_tries_that_agree_give_their_verdict_and_tries_that_disagree_are_intermittent():
    lost = [Finding(V.LOST, "notifications/progress", "the upstream sent 3, 0 reached the client")]
    assert tries.combine([[], [], []]) == (V.AS_EXPECTED, [])
    assert tries.combine([lost, lost, lost])[0] == V.LOST
    verdict, found = tries.combine([[], lost, []])
    assert verdict == V.INTERMITTENT
    assert found[0].detail.startswith("intermittent: lost in 1 of 3 tries")
    failed = [Finding(V.FAILED, "progress", "no response within 15 s")]
    verdict, found = tries.combine([[], failed, []])
    assert verdict == V.AS_EXPECTED
    assert "1 of 3 tries could not be made" in found[0].detail
    assert tries.combine([failed, failed])[0] == V.FAILED


def test_what_each_kind_of_change_does_to_each_host():
    impact = change_kinds.impact
    assert impact([change_kinds.MERGED_PAGES], "lootbox", "pages-tools").affected
    assert not impact([change_kinds.MERGED_PAGES], "opencode-v1", "pages-tools").affected
    assert not impact([change_kinds.MERGED_PAGES], "cloudflare", "pages-prompts").affected, "never lists prompts"
    assert impact([change_kinds.SPLIT_PAGES], "cloudflare", "pages-tools").affected
    assert not impact([change_kinds.MOVED_TO_GET_STREAM], "opencode-v2", "logging").affected
    assert not impact([change_kinds.ADDED_AS_REVISION_ASKS], "mcpx", "text").affected
    assert impact(["some-kind-nobody-knows"], "mcpx", "text") is None, "an unknown kind falls back"
    outcomes = protocol.outcomes(
        protocol.Cell(
            "progress", "2025-06-18", V.CHANGED, expected=V.AS_EXPECTED, kinds=(change_kinds.MOVED_TO_GET_STREAM,)
        )
    )
    status = {o.host: o.status for o in outcomes}
    assert status["opencode-v1"] == "unaffected"
    assert status["mcpx"] == "not scored", "not modelled: unknown, never counted as affected"
    at_newest = protocol.interop(protocol.Cell("progress", STATELESS, V.LOST, expected=V.AS_EXPECTED))
    assert at_newest["lootbox"] is True, "a host is affected only at revisions it negotiates"


def test_what_a_revision_asks_a_server_to_add_is_set_apart_from_the_diff():
    sent = {"result": {"content": []}}
    got = {"result": {"content": [], "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "p"}}}}
    assert revisions.asked_additions(STATELESS, sent, got) == (
        sent,
        ["result._meta.io.modelcontextprotocol/serverInfo"],
    )
    assert revisions.asked_additions("2025-11-25", sent, got) == (got, []), "only where the revision asks for it"
    vendor = {"result": {"content": [], "_meta": {"vendor/x": 1}}}
    assert revisions.asked_additions(STATELESS, sent, vendor) == (vendor, []), "anything else stays a change"


def test_mrtr_input_a_proxy_answers_itself_is_refused_as_before_2026_07_28():
    scenario = next(s for s in server_requests.FAMILY.scenarios if s.key == "mrtr-sampling")
    from comparison.probes.transport.exchange import Exchange

    answered = Exchange("tools/call", {}, response={"jsonrpc": "2.0", "id": 2, "result": {"content": []}})
    played = Played(exchanges=[answered], upstream={"asked": "sampling/createMessage", "answer": {"result": {}}})
    played.notes["first"] = {"content": [], "resultType": "complete"}
    found = server_requests.assess(scenario, played, STATELESS)
    assert [f.verdict for f in found] == [V.REFUSED], found
    error = Exchange("tools/call", {}, response={"jsonrpc": "2.0", "id": 2, "error": {"code": -1, "message": "no"}})
    played = Played(exchanges=[error])
    played.notes["first"] = None
    assert [f.verdict for f in server_requests.assess(scenario, played, STATELESS)] == [V.REFUSED]


def test_a_listen_stream_acknowledged_and_closed_is_a_loss_not_untestable():
    scenario = next(s for s in changes.FAMILY.scenarios if s.key == "resource-updated")
    played = Played(notes={"listen_closed": "subscriptions/listen was acknowledged ({}), then its stream closed"})
    found = changes.assess(scenario, played, STATELESS)
    assert [(f.verdict, f.message) for f in found] == [(V.LOST, "subscriptions/listen")]


@pytest.mark.parametrize("kind", sorted(change_kinds.KINDS))
def test_every_kind_has_a_title_and_says_something_for_every_host(kind):
    assert change_kinds.title(kind) != kind
    for host in protocol.HOSTS:
        assert change_kinds.impact([kind], host, "pages-tools").says


# How many tries: the run form, the command, the default.


@pytest.mark.django_db
def test_the_run_form_sets_the_tries_and_every_try_is_stored():
    from django.contrib.auth.models import Permission, User
    from django.test import Client

    from comparison.models import ProbeResult, ProbeRun
    from comparison.services.probing import ensure_builtin_target

    target = ensure_builtin_target()
    user = User.objects.create_user("prober", password="pw-prober-123")
    user.user_permissions.add(Permission.objects.get(codename="run_probe"))
    client = Client()
    client.force_login(user)
    page = client.get(target.get_absolute_url()).content.decode()
    assert 'name="tries"' in page
    assert 'value="3"' in page, "the default is shown"
    client.post(
        f"/probes/targets/{target.pk}/run/", {"revision": ["2025-06-18"], "scenario": ["progress"], "tries": "2"}
    )
    run = ProbeRun.objects.get()
    assert run.tries == 2
    progress = ProbeResult.objects.get(run=run, scenario="progress")
    assert [attempt["try"] for attempt in progress.tries] == [1, 2]
    assert client.get(f"/api/v1/runs/{run.pk}/").json()["tries"] == 2
    assert [attempt["try"] for attempt in client.get(f"/api/v1/results/{progress.pk}/").json()["tries"]] == [1, 2]
    client.post(f"/probes/targets/{target.pk}/run/", {"revision": ["2025-06-18"], "scenario": ["text"], "tries": "x"})
    assert ProbeRun.objects.latest("created").tries == 3, "a value that is no number is the default"
    client.post(f"/probes/targets/{target.pk}/run/", {"revision": ["2025-06-18"], "scenario": ["text"], "tries": "99"})
    assert ProbeRun.objects.latest("created").tries == 10, "at most 10"


def test_the_command_takes_the_tries_and_prints_intermittent():
    from io import StringIO

    from django.core.management import CommandError, call_command

    command = (
        f"{sys.executable} {HERE / 'relay.py'} --lose every-second-progress -- {' '.join(forkserver.fixture_command())}"
    )
    out = StringIO()
    with pytest.raises(CommandError) as caught:
        call_command(
            "probe", "--command", command, "--upstream-fixture", "--revisions", "2025-11-25",
            "--scenarios", "progress", "--tries", "2", stdout=out,
        )  # fmt: skip
    assert caught.value.returncode == 1, "an intermittent loss breaks the build"
    assert "intermittent" in out.getvalue()
    assert "lost in 1 of 2 tries" in out.getvalue()
    call_command(
        "probe", "--command", command, "--upstream-fixture", "--revisions", "2025-11-25",
        "--scenarios", "progress", "--tries", "1", stdout=StringIO(),
    )  # fmt: skip


def test_a_proxy_that_filters_log_levels_itself_loses_only_the_set_level():
    """npm mcp-proxy 6.7.19 answers logging/setLevel itself and filters what it passes on: the
    client gets the levels it asked for, and only the upstream's not being told is a loss."""
    from comparison.probes.families import logging
    from comparison.probes.families.base import Step

    scenario = logging.FAMILY.scenarios[0]
    arrived = [
        Step("received", {"method": "notifications/message", "params": {"level": level}})
        for level in ("info", "warning")
    ]
    played = Played(steps=arrived, upstream={"level": None, "sent": ["debug", "info", "warning"]})
    found = logging.assess(scenario, played, "2025-11-25")
    assert [(f.verdict, f.message) for f in found] == [(V.LOST, "logging/setLevel")]
    played.steps = arrived[1:]
    assert (V.LOST, "notifications/message") in [
        (f.verdict, f.message) for f in logging.assess(scenario, played, "2025-11-25")
    ]


ASKS = ["ask-sampling", "ask-elicit-form", "ask-elicit-url", "ask-roots"]


def test_server_requests_routed_to_the_get_stream_are_answered_there_as_a_conformant_client_does():
    """A proxy that sends the upstream's requests out on the session's GET stream: the probe's
    client answers them there (as the official SDK client does), so the upstream gets its answer
    and nothing is blamed on the proxy as lost (#48: 15 cells were "lost by proxy"). The move itself
    is named: a host that opens no GET stream never sees the request."""
    found = cells(through_http_relay("requests-on-get", ASKS))
    judged = 0
    for key in ASKS:
        for revision in exists(key, "http"):
            outcome = found[(key, revision)]
            if revision == STATELESS:  # no session, no GET stream: nothing to move to
                assert outcome.verdict == V.AS_EXPECTED, (key, revision, outcome.findings)
                continue
            assert outcome.verdict == V.CHANGED, (key, revision, outcome.findings, outcome.failure)
            assert kinds(outcome) == {change_kinds.MOVED_TO_GET_STREAM}, (key, revision, outcome.findings)
            assert not [f for f in outcome.findings if f["verdict"] == V.LOST], outcome.findings
            replies = [m for e in outcome.exchanges for m in e["sequence"] if m["channel"] == "reply"]
            assert replies, (key, revision, "answered on the side connection")
            judged += 1
    assert judged >= 8


BEFORE_LISTEN = [str(revision) for revision in REVISIONS if str(revision) < "2026-07-28"]


@pytest.mark.django_db
def test_notifications_relayed_just_after_the_answer_are_not_lost():
    """Both transports read alike after the answer (issue 33, item 3): over stdio a relay that
    passes a call's notifications on a few milliseconds after its answer (tests/support/relay.py
    --lose late-notifications) was called "lost", because the stdio transport stopped reading at
    the answer while the HTTP transport read the GET stream for the call's settle time."""
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
