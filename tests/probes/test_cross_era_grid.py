"""The cross-era grid: an upstream pinned to one revision answers as a server of that revision
does (era_gate), a client at every revision meets it directly with the outcome the revisions'
rules give (era_rules), and a grid run is stored, paged, exported, compared and badged by pair.
The peers (mcp-proxy, supergateway) across eras are in tests/e2e/test_cross_era_peers.py."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from collections import Counter

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from comparison.core import era_grid, pipeline
from comparison.models import ProbeResult, ProbeRun, ProbeTarget
from comparison.probes.assessment import era_rules
from comparison.probes.fixture import era_gate
from comparison.probes.processes.launch import free_port, launched
from comparison.probes.run.grid_run import run_grid
from comparison.probes.run.runner import ProbePlan, TargetSpec, builtin_fixture
from comparison.probes.run.scenarios import FIXTURE
from comparison.probes.targets import pinning
from comparison.probes.transport.exchange import Limits
from comparison.probes.transport.http_transport import HttpTransport
from comparison.probes.transport.wire import WireClient
from comparison.services.probing import RunRefused, ensure_builtin_target
from comparison.tasks import start_run
from language.vocabulary import REVISIONS

LEGACY = [str(r) for r in REVISIONS[:4]]
MODERN = str(REVISIONS[4])
ALL = [str(r) for r in REVISIONS]
#: A few scenarios: the opening, a list, a tool result.
FEW = [s for s in FIXTURE if s.key in ("negotiated-revision", "tools-list", "text")]


# --- the gate: what a pinned upstream answers ------------------------------------------------------


def _initialize(version: str) -> dict:
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": version}}


def test_a_pinned_upstream_answers_initialize_with_its_own_version_or_the_one_asked():
    gate = era_gate.RevisionGate(era_gate.parse_pin("2024-11-05,2025-06-18"))
    passed, answer = gate.inbound(_initialize("2025-06-18"))
    assert answer is None
    assert passed["params"]["protocolVersion"] == "2025-06-18"
    passed, answer = era_gate.RevisionGate(gate.pin).inbound(_initialize("2025-11-25"))
    assert answer is None
    assert passed["params"]["protocolVersion"] == "2025-06-18", "the newest it speaks"
    passed, answer = era_gate.RevisionGate(gate.pin).inbound(_initialize("1900-01-01"))
    assert passed["params"]["protocolVersion"] == "2025-06-18"


def test_a_modern_only_upstream_refuses_initialize_naming_what_it_speaks():
    passed, answer = era_gate.RevisionGate(era_gate.parse_pin(MODERN)).inbound(_initialize("2025-11-25"))
    assert passed is None
    assert answer["error"]["code"] == -32022
    assert answer["error"]["data"] == {"supported": [MODERN], "requested": "2025-11-25"}


def test_a_legacy_only_upstream_does_not_know_the_modern_era():
    pin = era_gate.parse_pin("2025-11-25")
    discover = {"jsonrpc": "2.0", "id": 2, "method": "server/discover", "params": {}}
    assert era_gate.RevisionGate(pin).inbound(discover)[1]["error"]["code"] == -32601
    enveloped = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/list",
        "params": {"_meta": {era_gate.ENVELOPE_VERSION: MODERN}},
    }
    assert era_gate.RevisionGate(pin).inbound(enveloped)[1]["error"]["code"] == -32600
    gate = era_gate.RevisionGate(pin)
    gate.inbound(_initialize("2025-11-25"))
    listen = {"jsonrpc": "2.0", "id": 4, "method": "subscriptions/listen", "params": {}}
    assert gate.inbound(listen)[1]["error"]["code"] == -32601, "a method newer than the session is not found"
    ping = {"jsonrpc": "2.0", "id": 5, "method": "ping"}
    assert gate.inbound(ping) == (ping, None)


def test_streamable_http_refusals_of_a_pinned_upstream():
    legacy, modern = era_gate.parse_pin("2025-06-18"), era_gate.parse_pin(MODERN)
    tools = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    status, body = era_gate.http_refusal(legacy, "POST", {}, tools)
    assert status == 400
    assert body["error"]["code"] == -32600, "no session: the era's 400"
    status, body = era_gate.http_refusal(modern, "POST", {}, _initialize("2025-06-18"))
    assert status == 400
    assert body["error"]["data"]["supported"] == [MODERN]
    headers = {"mcp-session-id": "abc", "mcp-protocol-version": "2025-11-25"}
    assert era_gate.http_refusal(legacy, "POST", headers, tools)[0] == 400, "a version it does not speak"
    assert era_gate.http_refusal(legacy, "POST", {"mcp-session-id": "abc"}, tools) is None
    assert era_gate.http_refusal(modern, "POST", {}, tools) is None


def test_a_pin_names_revisions_only():
    assert era_gate.parse_pin("all") is None
    assert era_gate.parse_pin("") is None
    assert era_gate.parse_pin("2026-07-28,2024-11-05").revisions == ("2024-11-05", MODERN)
    with pytest.raises(era_gate.BadPin, match="not a revision: 2025-01-01"):
        era_gate.parse_pin("2025-01-01")


# --- the rules of a pair ------------------------------------------------------------------------


def test_the_rules_of_every_pair_follow_the_compatibility_matrix():
    outcomes = Counter(era_rules.direct_rule(c, u).outcome for c in ALL for u in ALL)
    assert outcomes == {"works": 5, "counter-offer": 16, "fails": 4}
    assert era_rules.direct_rule(MODERN, "2024-11-05").agreed == "2024-11-05"
    failing = era_rules.direct_rule("2025-11-25", MODERN)
    assert failing.outcome == "fails"
    assert failing.agreed == ""
    assert any(c.path.endswith("2026-07-28/basic/versioning.mdx") for c in failing.cites)
    lifecycle = era_rules.direct_rule("2025-06-18", "2025-03-26").cites[0]
    assert lifecycle.text == "docs/specification/2025-03-26/basic/lifecycle.mdx:126-136"
    assert lifecycle.url.startswith(f"{era_rules.SPEC_REPOSITORY}/blob/{era_rules.SPEC_COMMIT}/")
    assert "answer the client as a server of 2025-06-18" in era_rules.direct_rule("2025-06-18", MODERN).bridge


# --- the grid's readings ------------------------------------------------------------------------


def _cells(client, upstream, agreed, verdicts, interop=None):
    return [
        {
            "id": None,
            "scenario": f"s{i}",
            "requested_revision": client,
            "upstream_revision": upstream,
            "negotiated_revision": agreed,
            "verdict": verdict,
            "interop": interop or {},
        }
        for i, verdict in enumerate(verdicts)
    ]


def test_a_pair_reads_what_the_target_did_across_eras():
    ok, failed = "as expected", "failed to probe"
    results = (
        _cells("2024-11-05", MODERN, "2024-11-05", [ok, ok])  # a bridge where the upstream alone fails
        + _cells("2025-11-25", "2025-11-25", "", [failed, failed])  # refused where both speak it
        + _cells("2025-06-18", MODERN, "", [failed])  # no common era, none made
        + _cells("2025-06-18", "2025-03-26", "2025-03-26", [ok, "lost by proxy"])  # the upstream's offer
        + _cells(MODERN, "2024-11-05", "2025-11-25", [ok])
        + _cells(MODERN, "2025-03-26", "2025-11-25", [ok])  # the proxy's own offer, whatever the upstream
    )
    grid = era_grid.grid_of(results)
    read = {key: pair.reading for key, pair in grid.pairs.items()}
    assert read == {
        ("2024-11-05", MODERN): era_grid.TRANSLATED,
        ("2025-06-18", "2025-03-26"): era_grid.PASSED_THROUGH,
        ("2025-06-18", MODERN): era_grid.AS_THE_RULES_SAY,
        ("2025-11-25", "2025-11-25"): era_grid.REFUSED,
        (MODERN, "2024-11-05"): era_grid.OWN_OFFER,
        (MODERN, "2025-03-26"): era_grid.OWN_OFFER,
    }
    assert grid.pairs[("2025-06-18", "2025-03-26")].percent == "50%"
    assert era_grid.no_common_era(grid) == {("2025-06-18", MODERN)}
    direct = era_grid.grid_of(results, direct=True)
    assert direct.pairs[("2025-06-18", "2025-03-26")].reading == era_grid.COUNTER_OFFERED


def test_per_host_lines_read_the_hosts_revision_and_two_grids_compare():
    before = _cells("2025-06-18", "2024-11-05", "2025-06-18", ["as expected"] * 2, {"claude-code": True})
    after = _cells("2025-06-18", "2024-11-05", "2025-06-18", ["as expected", "lost by proxy"])
    after[1]["interop"] = {"claude-code": False}
    grid = era_grid.grid_of(after, {"claude-code": ("Claude Code", "2025-06-18"), "cline": ("Cline", "2024-11-05")})
    assert [(line.host, line.shares) for line in grid.hosts] == [("claude-code", {"2024-11-05": (0, 1)})]
    changes = era_grid.compare_grids(era_grid.grid_of(before), grid)
    assert changes == [
        {
            "client_revision": "2025-06-18",
            "upstream_revision": "2024-11-05",
            "before": {"reading": "translated", "percent": "100%", "agreed": "2025-06-18"},
            "after": {"reading": "translated", "percent": "50%", "agreed": "2025-06-18"},
        }
    ]


def test_a_grid_cell_is_keyed_by_its_pair_in_baselines_and_junit():
    cell = {
        "scenario": "text",
        "requested_revision": MODERN,
        "upstream_revision": "2024-11-05",
        "verdict": "failed to probe",
    }
    assert pipeline.cell_key(cell) == ("text", f"{MODERN}/2024-11-05")
    assert pipeline.cell_key({**cell, "upstream_revision": MODERN}) == ("text", MODERN), "the diagonal is a plain cell"
    baseline = pipeline.read_baseline(pipeline.write_baseline([cell], "t"))
    assert baseline == {("text", f"{MODERN}/2024-11-05"): "failed to probe"}
    assert pipeline.check_baseline(baseline, [cell]).regressions == []
    junit = pipeline.junit_xml("t", [{**cell, "duration_ms": 1}], strict=False, seconds=1)
    assert f'name="{MODERN}/2024-11-05"' in junit
    assert 'name="upstream_revision" value="2024-11-05"' in junit


# --- pinning a target ---------------------------------------------------------------------------


def test_targets_are_pinned_where_their_upstream_is_started_or_named():
    builtin = pinning.pin_spec(builtin_fixture(), "2025-03-26")
    assert builtin.command[-1] == "2025-03-26"
    proxy = TargetSpec(
        "p",
        "http",
        url="http://127.0.0.1:9/mcp",
        launch=["mcp-proxy", "--", "py", "-m", pinning.FIXTURE_MODULE, "--stdio"],
    )
    assert pinning.pin_spec(proxy, MODERN).launch[-4:] == [pinning.PINNED_MODULE, "--revisions", MODERN, "--stdio"]
    gateway = TargetSpec("g", "http", launch=["supergateway", "--stdio", f"py -m {pinning.FIXTURE_MODULE} --stdio"])
    assert (
        pinning.pin_spec(gateway, "2024-11-05").launch[-1]
        == f"py -m {pinning.PINNED_MODULE} --revisions 2024-11-05 --stdio"
    )
    named = TargetSpec("n", "http", url=f"http://127.0.0.1:9/{pinning.PLACEHOLDER}/mcp")
    assert pinning.pin_spec(named, "2025-06-18").url == "http://127.0.0.1:9/2025-06-18/mcp"
    elsewhere = TargetSpec("e", "http", url="http://127.0.0.1:9/mcp")
    assert "MCP_COMPARE_UPSTREAM_REVISIONS" in pinning.pinnable(elsewhere)
    with pytest.raises(pinning.Unpinnable):
        run_grid(elsewhere, ProbePlan(scenarios=FEW, revisions=ALL), upstream_revisions=ALL)


# --- the fixture pinned, met directly -----------------------------------------------------------


def test_the_fixture_pinned_meets_every_client_as_the_rules_say():
    outcomes = run_grid(builtin_fixture(), ProbePlan(scenarios=FEW, revisions=ALL), upstream_revisions=ALL)
    assert {(str(o.requested), o.upstream_revision) for o in outcomes} == {(c, u) for c in ALL for u in ALL}
    for outcome in outcomes:
        rule = era_rules.direct_rule(str(outcome.requested), outcome.upstream_revision)
        assert outcome.negotiated == rule.agreed, (outcome.requested, outcome.upstream_revision, outcome.failure)
        if rule.outcome == era_rules.FAILS:
            assert "-32022" in outcome.failure
            assert MODERN in outcome.failure
        else:
            assert outcome.verdict == "as expected", (outcome.scenario.key, outcome.requested, outcome.findings)
    grid = era_grid.grid_of([o.as_dict() for o in outcomes], direct=True)
    assert grid.readings == {"carried": 5, "counter-offered": 16, "as the rules say": 4}


@pytest.mark.parametrize(
    ("pin", "client", "agreed"),
    [
        ("2024-11-05", "2025-06-18", "2024-11-05"),  # the HTTP+SSE transport alone, at the same URL
        ("2025-03-26", MODERN, "2025-03-26"),  # a modern request refused with a 400: fall back
        (MODERN, MODERN, MODERN),
        (MODERN, "2025-11-25", ""),  # a legacy client has no way forward
    ],
)
def test_the_fixture_pinned_over_http_speaks_its_eras_transport(pin, client, agreed):
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    command = [sys.executable, "-m", pinning.PINNED_MODULE, "--port", str(port), "--revisions", pin]
    with launched(command, url):
        wire = WireClient(HttpTransport(url, limits=Limits()))
        try:
            session = wire.open(client)
            assert session.negotiated == agreed, session.failure
            if agreed:
                assert wire.request("tools/list", {}).ok
                assert bool(wire.transport.legacy_endpoint) is (pin == "2024-11-05")
        finally:
            wire.close()


def test_the_fixture_refuses_a_pin_that_names_no_revision():
    found = subprocess.run(
        [sys.executable, "-m", pinning.PINNED_MODULE, "--stdio", "--revisions", "2025-13-01"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert found.returncode == 2
    assert "--revisions: not a revision: 2025-13-01" in found.stderr


# --- the command --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_probe_command_runs_a_grid_and_prints_it(capsys):
    call_command("probe", "--builtin", "--upstream-revisions", "all", "--scenarios", "tools-list", "text")
    out = capsys.readouterr().out
    assert "cross-era grid" in out
    assert f"{MODERN}→2024-11-05 ⇢ upstream 2024-11-05" in out
    assert "0/2 as the rules say" in out, "a legacy client before a modern-only upstream fails as the rules say"
    with pytest.raises(CommandError, match="not a revision"):
        call_command("probe", "--builtin", "--upstream-revisions", "2025-01-01")
    with pytest.raises(CommandError, match="cannot tell its upstream which revision"):
        call_command("probe", "--url", "http://127.0.0.1:9/mcp", "--upstream-revisions", "all")


# --- runs, pages, API, exports, badge -----------------------------------------------------------


@pytest.fixture
def prober(db):
    user = User.objects.create_user("gridder", password="pw-gridder-123")
    user.user_permissions.add(Permission.objects.get(codename="run_probe"))
    return User.objects.get(pk=user.pk)


@pytest.fixture
def grid_run(db, prober):
    target = ensure_builtin_target()
    client = Client()
    client.force_login(prober)
    response = client.post(
        f"/probes/targets/{target.pk}/run/",
        {"revision": ALL, "upstream_revision": ["2024-11-05", MODERN], "scenario": ["tools-list", "text"]},
    )
    run = ProbeRun.objects.get()
    assert response["Location"] == run.get_absolute_url()
    return run


def test_a_grid_run_is_stored_pair_by_pair(grid_run):
    assert grid_run.status == "done"
    assert grid_run.upstream_revisions == ["2024-11-05", MODERN]
    assert grid_run.done == grid_run.total == 2 * 5 * 2
    stored = Counter(ProbeResult.objects.filter(run=grid_run).values_list("upstream_revision", flat=True))
    assert stored == {"2024-11-05": 10, MODERN: 10}
    diagonal = ProbeResult.objects.filter(run=grid_run).diagonal()
    assert {(r.requested_revision, r.upstream_revision) for r in diagonal} == {
        ("2024-11-05", "2024-11-05"),
        (MODERN, MODERN),
    }


def test_the_grid_page_shows_every_pair_and_leads_to_its_results(grid_run, client):
    page = client.get(f"/probes/runs/{grid_run.pk}/grid/").content.decode()
    assert page.count('class="era-chip era-') >= 10
    assert f"?pair=2025-06-18/{MODERN}#pair" in page
    pair = client.get(f"/probes/runs/{grid_run.pk}/grid/?pair=2025-06-18/{MODERN}").content.decode()
    assert "A client of 2025-06-18, an upstream of 2026-07-28" in pair
    assert "as the rules say" in pair
    assert "versioning.mdx:159-172" in pair
    result = ProbeResult.objects.get(
        run=grid_run, requested_revision="2025-06-18", upstream_revision=MODERN, scenario="text"
    )
    assert result.get_absolute_url() in pair
    run_page = client.get(grid_run.get_absolute_url()).content.decode()
    assert 'id="grid-note"' in run_page
    assert f"/probes/runs/{grid_run.pk}/grid/" in run_page
    target_page = client.get(grid_run.target.get_absolute_url()).content.decode()
    assert 'id="latest-grid"' in target_page
    assert "counter-offered" in target_page


def test_the_grid_page_reads_the_database_a_fixed_number_of_times(grid_run, client):
    client.get(f"/probes/runs/{grid_run.pk}/grid/")  # the lab's snapshot read once
    with CaptureQueriesContext(connection) as small:
        client.get(f"/probes/runs/{grid_run.pk}/grid/?pair=2024-11-05/{MODERN}")
    ProbeResult.objects.bulk_create(
        ProbeResult(run=grid_run, scenario=f"extra-{i}", method="tools/list", requested_revision=MODERN,
                    upstream_revision="2024-11-05", verdict="as expected")
        for i in range(40)
    )  # fmt: skip
    with CaptureQueriesContext(connection) as big:
        client.get(f"/probes/runs/{grid_run.pk}/grid/?pair=2024-11-05/{MODERN}")
    assert len(big) == len(small)


def test_the_grid_exports_and_api_carry_the_pair(grid_run, client):
    data = json.loads(client.get(f"/probes/runs/{grid_run.pk}/grid/?format=json").content)
    assert data["upstream_revisions"] == ["2024-11-05", MODERN]
    assert len(data["pairs"]) == 10
    rows = list(
        csv.DictReader(io.StringIO(client.get(f"/probes/runs/{grid_run.pk}/grid/?format=csv").content.decode()))
    )
    failing = next(r for r in rows if r["client_revision"] == "2024-11-05" and r["upstream_revision"] == MODERN)
    assert failing["reading"] == "as the rules say"
    assert "versioning.mdx" in failing["cites"]
    markdown = client.get(f"/probes/runs/{grid_run.pk}/grid/?format=md").content.decode()
    assert "| client | upstream 2024-11-05 | upstream 2026-07-28 |" in markdown
    api = client.get(f"/api/v1/runs/{grid_run.pk}/grid/").json()
    pair = next(p for p in api["pairs"] if p["client_revision"] == MODERN and p["upstream_revision"] == "2024-11-05")
    assert pair["reading"] == "counter-offered"
    assert pair["agreed"] == "2024-11-05"
    assert len(pair["results"]) == 2
    only = client.get(f"/api/v1/runs/{grid_run.pk}/grid/?pair={MODERN}/2024-11-05").json()
    assert [(p["client_revision"], p["upstream_revision"]) for p in only["pairs"]] == [(MODERN, "2024-11-05")]
    run = client.get(f"/api/v1/runs/{grid_run.pk}/").json()
    assert run["upstream_revisions"] == ["2024-11-05", MODERN]
    assert run["grid"].endswith("/grid/")
    one = client.get(f"/api/v1/results/{pair['results'][0]['id']}/").json()
    assert one["upstream_revision"] == "2024-11-05"
    badge = client.get(f"/probes/targets/{grid_run.target_id}/badge.svg?pair=2025-11-25/{MODERN}").content.decode()
    assert "as the rules say" in badge
    assert "2025-11-25 ⇢ 2026-07-28" in badge
    unknown = client.get(f"/probes/targets/{grid_run.target_id}/badge.svg?pair=<b>/x").content.decode()
    assert "<b>" not in unknown
    assert "pair not in the grid" in unknown


def test_two_runs_grids_compare(grid_run, client, prober):
    second = start_run(
        target=grid_run.target, revisions=ALL, upstream_revisions=["2024-11-05"], scenarios=["tools-list"], user=prober
    )
    page = client.get(f"/probes/runs/{second.pk}/grid/?against={grid_run.pk}").content.decode()
    assert "Against the grid of run" in page
    assert "2024-11-05 / 2026-07-28" in page, "a pair only the first run had"
    api = client.get(f"/api/v1/runs/{second.pk}/grid/?against={grid_run.pk}").json()
    assert {(c["client_revision"], c["upstream_revision"]) for c in api["against"]["changes"]} >= {
        ("2024-11-05", MODERN)
    }


def test_a_grid_needs_a_target_whose_upstream_can_be_pinned(db, prober):
    target = ProbeTarget.objects.create(name="elsewhere", transport="http", url="http://127.0.0.1:9/mcp")
    with pytest.raises(RunRefused, match="MCP_COMPARE_UPSTREAM_REVISIONS"):
        start_run(target=target, revisions=[], upstream_revisions=["2024-11-05"], scenarios=[], user=prober)
    client = Client()
    client.force_login(prober)
    page = client.get(target.get_absolute_url()).content.decode()
    assert 'name="upstream_revision"' not in page
    assert "cannot tell its upstream which revision" in page
    assert 'name="upstream_revision"' in client.get(ensure_builtin_target().get_absolute_url()).content.decode()


def test_a_grid_made_elsewhere_is_uploaded_with_its_pairs(db, capsys):
    from comparison.models.tokens import ApiToken

    target = ProbeTarget.objects.create(name="ci-proxy", transport="http", url="http://127.0.0.1:3301/mcp")
    ci = User.objects.create_user("ci-grid", password="pw-ci-0123456789")
    target.uploaders.add(ci)
    secret = ApiToken.issue(ci, "CI")[1]
    call_command("probe", "--builtin", "--upstream-revisions", f"2024-11-05,{MODERN}", "--scenarios", "text", "--json")
    report = json.loads(capsys.readouterr().out)
    response = Client().post(
        "/api/v1/runs/upload/?target=ci-proxy",
        json.dumps(report),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )
    assert response.status_code == 201, response.content
    run = ProbeRun.objects.get(pk=response.json()["id"])
    assert run.upstream_revisions == ["2024-11-05", MODERN]
    assert run.results.exclude(upstream_revision="").count() == 10
    page = Client().get(f"/probes/runs/{run.pk}/grid/").content.decode()
    assert "as the rules say" in page


def test_a_proxy_answering_the_revision_asked_in_front_of_another_era_bridges_it():
    from comparison.probes.families import negotiation

    asked = {"requested": "2025-06-18", "negotiated": "2025-06-18"}
    pinned = {"requested": "2025-06-18", "negotiated": "2024-11-05", "pinned": "2024-11-05"}
    assert negotiation._revision(asked, pinned) == [], "what a server of 2025-06-18 must answer"
    own = negotiation._revision({**asked, "negotiated": "2025-03-26"}, pinned)
    assert [(f.verdict, f.detail) for f in own] == [
        ("changed by proxy", "asked 2025-06-18; the upstream agrees to 2024-11-05 directly, the proxy to 2025-03-26")
    ]
    unpinned = negotiation._revision(asked, {"requested": "2025-06-18", "negotiated": "2025-11-25"})
    assert unpinned[0].verdict == "changed by proxy", "outside the grid the upstream speaks every revision"
