"""The scenario families beyond request → answer (progress, logging, server→client requests,
pagination, cancellation, what the upstream was told): on the fixture directly at every revision
each one shows what arrived, and each loss a relay inflicts (tests/support/relay.py) is named in the
verdict, the finding and the message it concerns; the relay that changes nothing reports nothing."""

from __future__ import annotations

import sys

import pytest

from comparison.hosts import protocol
from comparison.probes import families
from comparison.probes.families.base import Played, Step
from comparison.probes.fixture import forkserver
from comparison.probes.run.runner import ProbePlan, TargetSpec, builtin_fixture, run_probe
from comparison.probes.run.scenarios import FIXTURE
from comparison.probes.transport.exchange import Limits
from language.vocabulary import REVISIONS, ProbeVerdict
from tests.support.relay_targets import RELAY

PLAYED = [s for s in FIXTURE if families.family_of(s).play is not None]
AS_EXPECTED, LOST, REFUSED, CHANGED = (
    ProbeVerdict.AS_EXPECTED,
    ProbeVerdict.LOST,
    ProbeVerdict.REFUSED,
    ProbeVerdict.CHANGED,
)


def relay(lose: str) -> TargetSpec:
    command = [sys.executable, str(RELAY), "--lose", lose, "--", *forkserver.fixture_command()]
    return TargetSpec(f"relay losing {lose}", "stdio", command=command, upstream="fixture")


def cells(outcomes) -> dict[tuple[str, str], object]:
    return {(o.scenario.key, str(o.requested)): o for o in outcomes}


@pytest.fixture(scope="module")
def direct():
    return cells(run_probe(builtin_fixture(), ProbePlan(scenarios=PLAYED, revisions=[str(r) for r in REVISIONS])))


def received(outcome, method: str) -> list[dict]:
    return [
        step["message"]
        for exchange in outcome.exchanges
        for step in exchange.get("sequence") or []
        if step["direction"] == "received" and step["message"].get("method") == method
    ]


def test_every_family_scenario_exists_where_it_should():
    by_key = {s.key: s for s in PLAYED}
    assert not by_key["ask-sampling"].exists_at("2026-07-28"), "sampling rides the result (MRTR) at 2026-07-28"
    assert by_key["mrtr-sampling"].exists_at("2026-07-28")
    assert not by_key["mrtr-sampling"].exists_at("2025-11-25")
    assert not by_key["ask-elicit-form"].exists_at("2025-03-26")
    assert by_key["ask-elicit-form"].exists_at("2025-06-18")
    assert not by_key["ask-elicit-url"].exists_at("2025-06-18")
    assert by_key["ask-elicit-url"].exists_at("2025-11-25")
    assert by_key["told-headers"].applies("2025-06-18", "http")
    assert not by_key["told-headers"].applies("2025-06-18", "stdio")
    assert {s.family for s in PLAYED} == {
        "progress", "logging", "server-requests", "pagination", "cancellation", "upstream-told", "changes",
        "sessions", "caching", "negotiation",
    }  # fmt: skip


@pytest.mark.parametrize("revision", [str(r) for r in REVISIONS])
def test_the_fixture_directly_delivers_every_family_at(direct, revision):
    here = {key: o for (key, rev), o in direct.items() if rev == revision}
    assert here
    assert all(o.verdict == AS_EXPECTED for o in here.values()), {
        k: (o.verdict, o.failure, o.findings) for k, o in here.items() if o.verdict != AS_EXPECTED
    }
    progress = here["progress"]
    tokens = [m["params"]["progressToken"] for m in received(progress, "notifications/progress")]
    assert tokens == [progress.exchanges[-1]["request"]["params"]["_meta"]["progressToken"]] * 3
    levels = [m["params"]["level"] for m in received(here["logging"], "notifications/message")]
    assert levels == ["info", "warning"], "debug is below the level the probe asked for"
    if revision < "2026-07-28":
        assert received(here["ask-sampling"], "sampling/createMessage"), "the request reached the probe"
        assert received(here["ask-roots"], "roots/list")
        if revision >= "2025-06-18":
            assert received(here["ask-elicit-form"], "elicitation/create")
    else:
        first = here["mrtr-sampling"].exchanges[-2]["response"]["result"]
        assert first["resultType"] == "input_required"
        assert first["inputRequests"]["ask"]["method"] == "sampling/createMessage"
    pages = [e for e in here["pages-tools"].exchanges if e.get("method") == "tools/list"]
    assert [bool(e["request"].get("params", {}).get("cursor")) for e in pages] == [False, True, True]
    assert received(here["list-changed"], "notifications/tools/list_changed")
    assert [m["params"]["uri"] for m in received(here["resource-updated"], "notifications/resources/updated")] == [
        "fixture://notes/readme.md"
    ]
    if revision == "2026-07-28":
        texts = [e["response"]["result"]["contents"][0]["text"] for e in here["cache-private"].exchanges[-2:]]
        assert texts[0] != texts[1], "each caller got its own private result"
    cancel = here["cancel"]
    assert cancel.exchanges[-2]["unanswered"], "a cancelled call gets no answer"


def test_a_relay_that_changes_nothing_reports_nothing(direct):
    through = cells(run_probe(relay("none"), ProbePlan(scenarios=PLAYED, revisions=[str(r) for r in REVISIONS])))
    assert through.keys() == direct.keys()
    assert {key: o.verdict for key, o in through.items()} == dict.fromkeys(through, AS_EXPECTED)


#: loss → {scenario: (verdict, the message or parameter named)} at 2025-11-25 (and 2026-07-28
#: where the family has a form of its own there).
LOSSES = {
    "notifications": {
        "progress": (LOST, "notifications/progress"),
        "logging": (LOST, "notifications/message"),
        "list-changed": (LOST, "notifications/tools/list_changed"),
        "resource-updated": (LOST, "notifications/resources/updated"),
    },
    "server-requests": {
        "ask-sampling": (REFUSED, "sampling/createMessage"),
        "ask-elicit-form": (REFUSED, "elicitation/create"),
        "ask-elicit-url": (REFUSED, "elicitation/create"),
        "ask-roots": (REFUSED, "roots/list"),
    },
    "swallow-replies": {
        "ask-sampling": (LOST, "sampling/createMessage answer"),
        "ask-elicit-form": (LOST, "elicitation/create answer"),
        "ask-elicit-url": (LOST, "elicitation/create answer"),
        "ask-roots": (LOST, "roots/list answer"),
    },
    "cursor": {f"pages-{kind}": (LOST, "params.cursor") for kind in ("tools", "prompts", "resources", "templates")},
    "next-cursor": {
        f"pages-{kind}": (LOST, "result.nextCursor") for kind in ("tools", "prompts", "resources", "templates")
    },
    "progress-token": {"progress": (LOST, "params._meta.progressToken")},
    "cancel": {"cancel": (LOST, "notifications/cancelled")},
    "told": {"told-version": (CHANGED, "protocolVersion"), "told-capabilities": (LOST, "clientCapabilities")},
    "meta": {
        "told-meta": (LOST, "params._meta.mcp-compare.dev/probe"),
        "progress": (LOST, "params._meta.progressToken"),
    },
    "malformed": {
        "progress": (CHANGED, "notifications/progress"),
        "logging": (LOST, "notifications/message"),
        "resource-updated": (CHANGED, "params.uri"),
    },
}
LOSSES_2026 = {
    "input-responses": {
        f"mrtr-{kind}": (LOST, "inputResponses") for kind in ("sampling", "elicit-form", "elicit-url", "roots")
    },
    "cancel": {"cancel": (LOST, "notifications/cancelled")},
    "notifications": {
        "progress": (LOST, "notifications/progress"),
        "logging": (LOST, "notifications/message"),
        "list-changed": (LOST, "notifications/tools/list_changed"),
        "resource-updated": (LOST, "notifications/resources/updated"),
    },
    "hints": {
        "cache-list": (LOST, "ttlMs"),
        "cache-read": (LOST, "ttlMs"),
        "cache-private": (LOST, "ttlMs"),
    },
    "shared-cache": {"cache-private": (CHANGED, "cacheScope private")},
}


def _check_loss(lose: str, revision: str, expected: dict[str, tuple[str, str]]) -> None:
    limits = Limits(total_timeout=8.0)
    outcomes = cells(run_probe(relay(lose), ProbePlan(scenarios=PLAYED, revisions=[revision], limits=limits)))
    for key, (verdict, named) in expected.items():
        outcome = outcomes[(key, revision)]
        assert outcome.verdict == verdict, (key, outcome.verdict, outcome.failure, outcome.findings)
        assert named in [f["path"] for f in outcome.findings], (key, outcome.findings)
        assert outcome.interop, "scored against the fixture's known behaviour"
        hit = {host for host, same in outcome.interop.items() if not same}
        assert hit == _affected(key, revision), (key, "a loss counts against the hosts it changes anything for")
    others = {k: o.verdict for (k, _), o in outcomes.items() if k not in expected}
    assert set(others.values()) == {AS_EXPECTED}, f"only the lost scenarios change: {others}"


EVERY_HOST = {"opencode-v1", "opencode-v2", "lootbox", "cloudflare", "mcpx"}
#: Who a proxy's loss changes anything for, per scenario, at a revision every host negotiates
#: (comparison.hosts.protocol; the sources are in its table, tests/e2e/test_real_protocol.py checks the
#: opencode and codemode rows on the real hosts). mcpx is in every set: nothing here models it.
#: mcpx (the registers' subject proxy) has no reaction read from a source: unknown, scored for
#: nobody, except where a change reaches every host whatever it does.
AFFECTED = {
    "progress": {"opencode-v1"},
    "logging": set(),
    "ask-sampling": set(),
    "ask-elicit-form": {"opencode-v2"},
    "ask-elicit-url": {"opencode-v2"},
    "ask-roots": {"opencode-v1", "opencode-v2"},
    "mrtr-sampling": set(),
    "mrtr-elicit-form": {"opencode-v2"},
    "mrtr-elicit-url": {"opencode-v2"},
    "mrtr-roots": {"opencode-v1", "opencode-v2"},
    "pages-tools": {"opencode-v1", "opencode-v2"},
    "pages-prompts": {"opencode-v1", "opencode-v2"},
    "pages-resources": {"opencode-v1"},
    "pages-templates": {"opencode-v1"},
    "list-changed": {"opencode-v1", "opencode-v2"},
    "resource-updated": set(),
    "cancel": {"opencode-v1", "opencode-v2"},
    "told-version": EVERY_HOST - {"mcpx"},
    "told-capabilities": {"opencode-v1", "opencode-v2"},
    "told-client-info": set(),
    "told-meta": set(),
    "told-headers": {"opencode-v1", "opencode-v2"},
    "session-get": {"opencode-v1", "opencode-v2"},
    "session-delete": set(),
    "session-unknown": set(),  # opencode v2's reaction is not modelled: unknown
    "cache-list": set(),
    "cache-read": set(),
    "cache-private": EVERY_HOST,
    "told-sessions": set(),
    "negotiated-revision": EVERY_HOST,
    "offered-capabilities": EVERY_HOST,
}


def _affected(key: str, revision: str) -> set[str]:
    """AFFECTED, less the hosts that never negotiate `revision`."""
    return {host for host in AFFECTED[key] if protocol.negotiates(host, revision)}


def test_every_played_scenario_says_who_a_loss_affects():
    assert {s.key for s in PLAYED} == set(AFFECTED)
    for key, hosts in AFFECTED.items():
        hit = {
            host
            for host, same in protocol.interop(protocol.Cell(key, "2025-06-18", LOST, expected=AS_EXPECTED)).items()
            if not same
        }
        assert hit == hosts, key


def test_a_cell_at_a_revision_a_host_never_negotiates_is_not_counted_against_it():
    assert _affected("list-changed", "2026-07-28") == {"opencode-v2"}
    assert _affected("told-version", "2025-11-25") == EVERY_HOST - {"lootbox", "mcpx"}
    outcomes = {
        o.host: o for o in protocol.outcomes(protocol.Cell("list-changed", "2026-07-28", LOST, expected=AS_EXPECTED))
    }
    assert outcomes["lootbox"].says == "never negotiates 2026-07-28 (newest 2025-06-18)"
    assert outcomes["opencode-v2"].status == protocol.AFFECTED


def test_what_each_host_would_see_names_the_consequence_and_its_source():
    seen = {
        o.host: o for o in protocol.outcomes(protocol.Cell("pages-tools", "2025-06-18", LOST, expected=AS_EXPECTED))
    }
    assert seen["opencode-v1"].status == protocol.AFFECTED
    assert "tools after the first page are missing" in seen["opencode-v1"].says
    assert seen["lootbox"].status == protocol.UNAFFECTED
    assert seen["lootbox"].says.startswith("unaffected: reads the first page only")
    assert seen["lootbox"].source.endswith("mcp_schema_fetcher.ts:69")
    assert seen["cloudflare"].source.startswith("@cloudflare/codemode 0.5.6 dist/mcp.js:74")
    assert seen["mcpx"].status == protocol.UNSCORED, "no source says what mcpx does: unknown, never affected"
    assert seen["mcpx"].source == ""
    untested = protocol.outcomes(
        protocol.Cell("pages-tools", "2025-06-18", "not testable", expected=AS_EXPECTED, testable=False)
    )
    assert {o.status for o in untested} == {protocol.UNSCORED}
    assert (
        protocol.interop(
            protocol.Cell("pages-tools", "2025-06-18", "not testable", expected=AS_EXPECTED, testable=False)
        )
        == {}
    )
    fine = protocol.interop(protocol.Cell("pages-tools", "2025-06-18", AS_EXPECTED, expected=AS_EXPECTED))
    assert fine == dict.fromkeys(EVERY_HOST, True)


@pytest.mark.parametrize("lose", sorted(LOSSES))
def test_each_loss_of_a_relay_is_named(lose):
    _check_loss(lose, "2025-11-25", LOSSES[lose])


@pytest.mark.parametrize("lose", sorted(LOSSES_2026))
def test_each_loss_of_a_relay_is_named_at_2026(lose):
    _check_loss(lose, "2026-07-28", LOSSES_2026[lose])


def test_a_flood_of_notifications_is_a_bounded_failure_never_a_hang():
    limits = Limits(total_timeout=5.0, max_events=200)
    outcomes = run_probe(relay("flood"), ProbePlan(scenarios=PLAYED, revisions=["2025-11-25"], limits=limits))
    assert outcomes
    # What the opening agreed is read from the session, which opened: only the calls fail.
    called = [o for o in outcomes if o.scenario.family != "negotiation"]
    assert all(o.verdict == ProbeVerdict.FAILED for o in called)
    assert "more than 200 messages without the response" in outcomes[0].failure


def test_a_scenario_without_the_upstreams_report_is_not_testable_never_green():
    """An answer the family cannot read (a proxy's rewrite of the echo) says so; it is not passed."""
    scenario = next(s for s in PLAYED if s.key == "told-meta")

    class Answered:
        response = {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "rewritten"}]}}
        request = {"params": {}}
        sequence: list = []

    played = Played(exchanges=[Answered()], steps=[Step("received", Answered.response)])
    found = families.family_of(scenario).assess(scenario, played, "2025-11-25")
    assert [(f.verdict, f.message) for f in found] == [(ProbeVerdict.NOT_TESTABLE, "tools/call echo-context")]


def test_the_probe_declares_what_the_families_need_and_nothing_at_the_content_families():
    assert families.capabilities("2025-11-25", PLAYED) == {
        "sampling": {},
        "roots": {"listChanged": True},
        "elicitation": {"form": {}, "url": {}},
    }
    assert families.capabilities("2025-06-18", PLAYED)["elicitation"] == {}
    assert "elicitation" not in families.capabilities("2025-03-26", PLAYED)
    content_only = [s for s in FIXTURE if s.family == "content"]
    assert families.capabilities("2025-11-25", content_only) == {}


@pytest.mark.django_db
def test_the_run_result_and_api_pages_show_families_sequences_and_inapplicable_cells(client):
    from comparison.models import ProbeResult
    from comparison.services.probing import ensure_builtin_target
    from comparison.tasks import start_run

    target = ensure_builtin_target()
    run = start_run(
        target=target,
        revisions=["2025-03-26", "2026-07-28"],
        scenarios=["text", "progress", "ask-elicit-form", "mrtr-sampling"],
    )
    run.refresh_from_db()
    # ask-elicit-form has no form at 2025-03-26 nor at 2026-07-28; mrtr-sampling none at 2025-03-26.
    assert (run.status, run.done, run.total) == ("done", 5, 5)
    page = client.get(run.get_absolute_url()).content.decode()
    assert page.count('class="muted not-applicable"') == 3
    assert "elicitation/create, form during a call: not part of 2025-03-26" in page
    assert 'class="family-row"' in page
    assert "Progress notifications" in page
    assert "By scenario family" in page
    progress = ProbeResult.objects.get(run=run, scenario="progress", requested_revision="2025-03-26")
    assert progress.family == "progress"
    detail = client.get(progress.get_absolute_url()).content.decode()
    assert "The exchange as a sequence" in detail
    tries, played = detail.split("Every try</h2>")[1].split('id="sequence-h"')
    assert played.count("<code>notifications/progress</code>") == 3, "the first try's sequence"
    assert tries.count('data-try="') == 3, "every try of a timing-sensitive cell, kept"
    assert tries.count("<code>notifications/progress</code>") == 9
    assert "The upstream&#x27;s account" in detail or "The upstream's account" in detail
    report = detail.split("account</h3>")[1]
    assert "&quot;sent&quot;" in report, "the upstream's report, highlighted"
    seen = detail.split('id="host-outcomes"')[1].split("</section>")[0]
    assert seen.count("<tr data-host=") == 5
    assert 'data-host="opencode-v1"><th scope="row">opencode v1</th><td class="host-outcome-as-expected">' in seen
    assert "resetTimeoutOnProgress" in seen, "each host's reaction names its source"
    outcomes = client.get(f"/api/v1/results/{progress.pk}/").json()["host_outcomes"]
    assert [(o["host"], o["status"]) for o in outcomes][:3] == [
        ("opencode-v1", "as expected"),
        ("opencode-v2", "as expected"),
        ("lootbox", "as expected"),
    ]
    text = ProbeResult.objects.get(run=run, scenario="text", requested_revision="2025-03-26")
    assert 'id="host-outcomes"' not in client.get(text.get_absolute_url()).content.decode()
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_superuser("prober", "", "pw-prober-123"))
    form = client.get(target.get_absolute_url()).content.decode()
    assert "<legend>Progress notifications</legend>" in form
    assert "<legend>Streamable HTTP sessions</legend>" not in form, "a stdio target has no HTTP sessions"
    assert 'ttlMs and cacheScope on tools/list <span class="muted">(from 2026-07-28)</span>' in form
    api = client.get(f"/api/v1/runs/{run.pk}/").json()
    assert {r["family"] for r in api["results"]} == {"content", "progress", "server-requests"}
    assert api["counts"]["lost by proxy"] == 0


def test_junit_and_baselines_treat_losses_as_failures_and_untestable_as_errors():
    from comparison.core.pipeline import check_baseline, junit_xml, read_baseline

    results = [
        {"scenario": "progress", "requested_revision": "2025-11-25", "verdict": "lost by proxy", "failure": "",
         "findings": [{"message": "the upstream sent 3, 0 reached the client"}]},
        {"scenario": "ask-roots", "requested_revision": "2025-11-25", "verdict": "refused by proxy", "failure": "",
         "findings": [{"message": "Method not found"}]},
        {"scenario": "told-headers", "requested_revision": "2025-11-25", "verdict": "not testable", "failure": "",
         "findings": [{"message": "stdio upstream"}]},
    ]  # fmt: skip
    xml = junit_xml("relay", results)
    assert 'failures="2"' in xml
    assert 'errors="1"' in xml
    assert "the upstream sent 3, 0 reached the client" in xml
    baseline = read_baseline("progress@2025-11-25: changed by proxy\nask-roots@2025-11-25: lost by proxy\n")
    found = check_baseline(baseline, results)
    assert [(s, was, now) for s, _, was, now in found.regressions] == [
        ("progress", "changed by proxy", "lost by proxy"),
        ("told-headers", "as expected", "not testable"),
    ]
    assert found.stale == [], "refused ranks with lost: neither better nor worse"


@pytest.mark.parametrize(
    ("key", "notes", "expected"),
    [
        ("session-unknown", {"status": 404}, []),
        ("session-unknown", {"status": 400}, [(ProbeVerdict.CHANGED, "Mcp-Session-Id")]),
        ("session-unknown", {"status": 200}, [(ProbeVerdict.LOST, "Mcp-Session-Id")]),
        ("session-delete", {"delete": 200, "status": 404}, []),
        ("session-delete", {"delete": 500, "status": 404}, [(ProbeVerdict.CHANGED, "DELETE")]),
        ("session-get", {"get": "HTTP 405"}, [(ProbeVerdict.LOST, "GET stream")]),
        ("session-get", {"get": "open"}, []),
    ],
)
def test_the_session_rules_read_each_status(key, notes, expected):
    """supergateway answered an unknown session with 400 before 4.0.0 (its #123): no peer here does any more."""
    from comparison.probes.families import sessions

    scenario = next(s for s in sessions.FAMILY.scenarios if s.key == key)
    found = sessions.assess(scenario, Played(notes=notes), "2025-11-25")
    assert [(f.verdict, f.message) for f in found] == expected


def test_the_probe_command_fails_on_a_loss_and_says_which():
    from io import StringIO

    from django.core.management import CommandError, call_command

    command = f"{sys.executable} {RELAY} --lose notifications -- {' '.join(forkserver.fixture_command())}"
    out = StringIO()
    with pytest.raises(CommandError) as caught:
        call_command(
            "probe",
            "--command",
            command,
            "--upstream-fixture",
            "--revisions",
            "2025-11-25",
            "--scenarios",
            "progress",
            "text",
            stdout=out,
        )
    assert caught.value.returncode == 1, "a proxy that loses progress breaks the build"
    assert (
        "1 as expected, 0 changed by proxy, 0 invalid for revision, 0 failed to probe, 1 lost by proxy"
        in out.getvalue()
    )
    assert "the upstream sent 3, 0 reached the client" in out.getvalue()


def test_the_fixture_pages_lists_and_refuses_a_cursor_it_never_gave():
    from comparison.probes.families import pagination

    assert pagination.page(["a"], ["b", "c", "d"], None) == (["a"], "fixture-page-2")
    assert pagination.page(["a"], ["b", "c", "d"], "fixture-page-2") == (["b", "c"], "fixture-page-3")
    assert pagination.page(["a"], ["b", "c", "d"], "fixture-page-3") == (["d"], None)
    assert pagination.page(["a"], [], None) == (["a"], None)
    for cursor in ("fixture-page-4", "fixture-page-1", "fixture-page-x", "other", 2):
        with pytest.raises(pagination.BadCursor):
            pagination.page(["a"], ["b", "c", "d"], cursor)
