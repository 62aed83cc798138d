"""DPCTER scoring: each coordinate and condition, the envelope positive control, prose-only
failures, the host paths, the audit table and the command."""

from __future__ import annotations

import json
import sys
from io import StringIO

import pytest
from django.core.management import call_command

from comparison.core import envelope, failures
from comparison.core.envelope import find_envelope
from comparison.core.failures import Observation, profiles, raw_observation, score
from comparison.hostlab import catalogue
from comparison.models import ProbeTarget
from comparison.probes.fixture import forkserver
from comparison.probes.fixture.fixture_content import ENVELOPE
from comparison.probes.run.runner import ProbePlan, TargetSpec, run_probe
from comparison.probes.run.scenarios import FIXTURE
from comparison.tasks import start_run
from tests.support.processes import free_port, mcp_proxy_command, server


def yes(profile, condition: str) -> set[str]:
    decided = profile.typed if condition == "typed" else profile.with_text
    return {key for key, decision in decided.items() if decision.yes}


def test_envelope_positive_control_decides_all_six_from_typed_fields():
    response = {"result": {"isError": True, "content": [{"type": "text", "text": json.dumps(ENVELOPE)}]}}
    profile = score(raw_observation(response, is_failure=True))
    assert yes(profile, "typed") == set(failures.COORDINATES)
    assert profile.policy == "fix-argument"
    assert profile.suggestion is None
    assert profile.typed["T"].evidence.startswith("typed target")


def test_prose_only_failure_detects_only_from_typed_fields():
    response = {
        "result": {"isError": True, "content": [{"type": "text", "text": "Expected integer at /count, got string"}]}
    }
    profile = score(raw_observation(response, is_failure=True))
    assert yes(profile, "typed") == {"D"}
    assert profile.typed["D"].evidence == "isError: true"
    assert yes(profile, "text") == {"D", "P", "C", "T"}
    assert profile.with_text["C"].evidence.startswith("text 'Expected integer at /count, got'")
    assert profile.with_text["T"].evidence == "text names '/count'"
    assert profile.policy == ""
    assert profile.suggestion["suggested_envelope"]["policy"] == "fix-argument"
    assert "suggestion" in profile.suggestion["note"]


@pytest.mark.parametrize(
    ("text", "cause", "policy"),
    [
        ("No such file: /data/report.csv", "resource.not_found", "fix-argument"),
        ("Unknown tool: report_v2", "tool.not_found", "alternate-tool"),
        ("count must be between 1 and 100", "argument.value", "fix-argument"),
        ("401 Unauthorized: missing bearer token", "auth.required", "authenticate"),
        ("request timed out after 30 s", "execution.timeout", "retry"),
        ("429 Too Many Requests", "rate.limit", "wait-retry"),
        ("something odd happened", "", ""),
    ],
)
def test_text_classifier(text, cause, policy):
    assert failures.classify_text(text)[:2] == (cause, policy)


def test_jsonrpc_error_gives_detection_and_policy_but_no_cause():
    response = {
        "error": {
            "code": -32602,
            "message": "Invalid params: 'count' must be an integer",
            "data": {"pointer": "/count"},
        }
    }
    profile = score(raw_observation(response, is_failure=True))
    assert yes(profile, "typed") == {"D", "P", "T"}
    assert profile.typed["P"].evidence == "JSON-RPC -32602 selects fix-argument"
    unknown = score(
        raw_observation(
            {"error": {"code": -32001, "message": "Upstream database unavailable", "data": {"retryAfterMs": 2000}}},
            is_failure=True,
        )
    )
    assert yes(unknown, "typed") == {"D", "R"}


def test_nothing_typed_and_nothing_said():
    profile = score(Observation("mcpx", "mcpx", True, text="ok"))
    assert yes(profile, "typed") == set()
    assert yes(profile, "text") == set()


def test_envelope_found_in_text_objects_and_nested():
    assert find_envelope("prefix " + json.dumps(ENVELOPE) + " suffix")["code"] == "argument.type"
    assert find_envelope({"schema": "mcp-error/1", "code": "x"})["code"] == "x"
    assert find_envelope({"error": {"schema": "mcp-error/1", "code": "x"}})["code"] == "x", "an error member"
    assert find_envelope({"error": "x", "schema": "mcp-error/1"}) is None, "an error member that is none"
    assert find_envelope("mcp-error/1 but {not json") is None


def test_envelope_in_text_skips_what_is_not_one_and_stops_where_it_must():
    found = {"schema": "mcp-error/1", "code": "found"}
    text = json.dumps(found)
    assert find_envelope("{broken " + text)["code"] == "found", "a brace that starts no JSON is skipped"
    assert find_envelope('{"a": 1} then ' + text)["code"] == "found", "an object that is no envelope is skipped"
    assert find_envelope(json.dumps({"error": found}))["code"] == "found", "an error member is the envelope"
    assert find_envelope(json.dumps({"error": "mcp-error/1", "schema": "mcp-error/1"})) is None
    assert find_envelope(json.dumps({"schema": "mcp-error/2"}) + " mcp-error/1") is None
    assert find_envelope("[" + text + "]")["code"] == "found", "an envelope inside a list is found by its brace"
    assert find_envelope('{"a": [1, 2]} ' * 3 + text)["code"] == "found"
    for before in ("{broken ", '{"a": 1} '):
        assert find_envelope(before + text + ' then {"b": 2}')["code"] == "found", "the next brace, not the last"
    # The scan gives up after MAX_ENVELOPE_ATTEMPTS objects that are not envelopes.
    attempts = envelope.MAX_ENVELOPE_ATTEMPTS
    assert find_envelope("{" * (attempts - 1) + " " + text)["code"] == "found"
    assert find_envelope("{" * attempts + " " + text) is None
    assert find_envelope("x" * envelope.MAX_ENVELOPE_SCAN + text) is None, "past the scanned prefix"
    assert find_envelope(text + "x" * envelope.MAX_ENVELOPE_SCAN)["code"] == "found"
    assert find_envelope("no braces at all, mcp-error/1") is None


def test_hosts_receive_a_jsonrpc_error_as_a_thrown_message():
    response = {"error": {"code": -32602, "message": "Unknown tool: x"}}
    scored = profiles(response, [], is_failure=True)
    consumers = [p.consumer for p in scored]
    assert consumers[0] == "proxy output"
    assert "mcpx" not in consumers
    host = scored[1]
    assert yes(host, "typed") == {"D"}, "the code survives only as text"
    assert host.with_text["P"].evidence.startswith("text 'Unknown tool'")


def test_audit_table_and_text():
    response = {"result": {"isError": True, "content": [{"type": "text", "text": "Tool x not found"}]}}
    scored = [{"profiles": [p.as_dict() for p in profiles(response, [], is_failure=True)]}] * 3
    table = failures.audit(scored)
    assert (table["proxy output"]["D"].typed, table["proxy output"]["D"].total) == (3, 3)
    assert table["proxy output"]["C"].with_text == 3
    text = failures.audit_text(table)
    assert "published (of 21)" in text
    assert "18/21" in text


def test_builtin_audit_through_the_command():
    out = StringIO()
    call_command("probe", "--builtin", "--revisions", "2025-06-18", "--audit", stdout=out)
    lines = out.getvalue().splitlines()
    proxy = next(line for line in lines if line.startswith("proxy output"))
    failures_total = sum(s.failure for s in FIXTURE)
    assert f"(of {failures_total})" in proxy
    mcpx = next(line for line in lines if line.startswith("mcpx · mcpx_call"))
    assert mcpx.split()[5].startswith("5/"), "mcpx_call erases typed Detection except where an envelope survives"


@pytest.mark.peers
def test_mcp_proxy_loses_the_jsonrpc_code_so_typed_policy_drops():
    failing = [s for s in FIXTURE if s.failure]
    direct = run_probe(
        TargetSpec("fixture", "stdio", command=catalogue.fixture_command()),
        ProbePlan(scenarios=failing, revisions=["2025-11-25"]),
    )
    port = free_port()
    command = mcp_proxy_command(port, *forkserver.fixture_command())
    with server(command, port):
        proxied = run_probe(
            TargetSpec("mcp-proxy", "http", url=f"http://127.0.0.1:{port}/mcp"),
            ProbePlan(scenarios=failing, revisions=["2025-11-25"]),
        )

    def proxy_output(outcomes):
        return failures.audit([{"profiles": o.dpcter} for o in outcomes])["proxy output"]

    before, after = proxy_output(direct), proxy_output(proxied)
    assert after["P"].typed < before["P"].typed
    rpc = next(o for o in proxied if o.scenario.key == "fail-argument-type-rpc")
    typed_policy = next(p for p in rpc.dpcter if p["consumer"] == "proxy output")["typed"]["P"]
    assert typed_policy == {"yes": False, "evidence": "no typed policy"}
    assert before["D"].typed == after["D"].typed, "Detection survives as isError"


def envelope_target(policy: str) -> ProbeTarget:
    command = [sys.executable, "-m", "tests.support.stubborn", "--stdio", "--envelope", policy]
    return ProbeTarget.objects.create(name=f"envelope {policy}", transport="stdio", command=command)


@pytest.mark.django_db
@pytest.mark.parametrize(("named", "shown"), [("reboot-the-moon", "escalate"), ("retry", "retry"), ("-", "escalate")])
def test_an_envelope_that_names_an_unknown_policy_is_read_as_escalate(client, named, shown):
    """Issue 22: The failure-gap article's fail-closed rule: a policy the product does not know escalates."""
    run = start_run(target=envelope_target(named), revisions=["2025-06-18"], scenarios=["auth-failure"])
    page = client.get(f"/probes/runs/{run.pk}/audit/", {"consumer": "proxy output", "coordinate": "P"})
    text = page.content.decode()
    assert f'<strong>{shown}</strong> <span class="muted">(from the envelope)</span>' in text, text[-3000:]
