"""Probes against the fixture: runner, revision rules, schema checks, diffs and the command."""

from __future__ import annotations

import json
import sys
from collections import Counter
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from comparison.probes.assessment import revisions
from comparison.probes.assessment.diffing import diff
from comparison.probes.run.runner import (
    AS_EXPECTED,
    CHANGED,
    INVALID,
    ProbePlan,
    TargetSpec,
    builtin_fixture,
    run_probe,
)
from comparison.probes.run.scenarios import FIXTURE, expected_fixture_response
from tests.support.processes import free_port, listening_addresses, server


@pytest.fixture(scope="module")
def builtin_outcomes():
    return run_probe(builtin_fixture(), ProbePlan(scenarios=list(FIXTURE), revisions=list(revisions.REVISIONS)))


def cell(outcomes, key, revision):
    return next(o for o in outcomes if o.scenario.key == key and o.requested == revision)


def test_builtin_run_covers_every_scenario_and_revision(builtin_outcomes):
    # Every scenario at every revision it exists in over stdio: nothing else, nothing missing.
    expected = {(s.key, str(r)) for s in FIXTURE for r in revisions.REVISIONS if s.applies(r, "stdio")}
    assert {(o.scenario.key, o.requested) for o in builtin_outcomes} == expected
    assert len(builtin_outcomes) == len(expected)
    counts = Counter(o.verdict for o in builtin_outcomes)
    assert counts[CHANGED] == 0, "the fixture run directly changes nothing"
    assert counts["failed to probe"] == 0
    odd = [
        (o.scenario.key, o.requested, o.verdict, o.findings[:1])
        for o in builtin_outcomes
        if o.verdict not in (AS_EXPECTED, INVALID)
    ]
    assert odd == [], "no loss, refusal or untestable cell"
    assert {o.negotiated for o in builtin_outcomes} == set(revisions.REVISIONS)


# What the fixture sends, written out by hand (not built from fixture_content, which the runner's
# own expectations come from): a change to the fixture or to the runner's expectations shows here.
HAND_WRITTEN = {
    "text": {"content": [{"type": "text", "text": "hello from the fixture"}]},
    "is-error": {"content": [{"type": "text", "text": "Not found: no such file /data/report.csv"}], "isError": True},
    "structured": {
        "content": [{"type": "text", "text": "Light rain over the park, about fourteen degrees."}],
        "structuredContent": {"city": "New York", "conditions": "light rain", "celsius": 14},
    },
    "audio": {
        "content": [
            {
                "type": "audio",
                "data": "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=",
                "mimeType": "audio/wav",
            }
        ]
    },
}


@pytest.mark.parametrize("key", sorted(HAND_WRITTEN))
def test_the_fixture_answers_what_it_is_known_to_answer(builtin_outcomes, key):
    for revision in ("2025-03-26", "2025-06-18", "2025-11-25"):
        outcome = cell(builtin_outcomes, key, revision)
        assert outcome.response["result"] == HAND_WRITTEN[key], (key, revision)
        assert outcome.verdict in (AS_EXPECTED, INVALID)
        assert outcome.diff == [], "the fixture's answer matches its known answer"
    stateless = cell(builtin_outcomes, key, "2026-07-28").response["result"]
    assert stateless == {**HAND_WRITTEN[key], "resultType": "complete"}
    error = cell(builtin_outcomes, "rpc-error", "2025-06-18").response["error"]
    assert error == {
        "code": -32001,
        "message": "Upstream database unavailable",
        "data": {"retryAfterMs": 2000, "target": "db"},
    }


def test_the_fixture_does_not_downgrade(builtin_outcomes):
    audio = cell(builtin_outcomes, "audio", "2024-11-05")
    assert audio.verdict == INVALID
    assert audio.findings[0]["anchor"] == "type:AudioContent"
    assert cell(builtin_outcomes, "audio", "2025-03-26").verdict == AS_EXPECTED
    link = cell(builtin_outcomes, "resource-link", "2025-03-26")
    assert any(f["anchor"] == "type:ResourceLink" for f in link.findings)
    unknown = cell(builtin_outcomes, "unknown-type", "2026-07-28")
    assert any(f["rule"] == "schema" for f in unknown.findings)


def test_stateless_revision_and_host_views(builtin_outcomes):
    text = cell(builtin_outcomes, "text", "2026-07-28")
    assert text.response["result"]["resultType"] == "complete"
    assert [e["method"] for e in text.exchanges] == ["server/discover", "tools/call"]
    assert len(text.host_views) == 7
    prompt = cell(builtin_outcomes, "prompt-multi", "2025-06-18")
    assert [v["key"] for v in prompt.host_views] == [
        "opencode-v1-slash-command",
        "opencode-v2-slash-command",
        "mcpx-prompt",
    ]
    error = cell(builtin_outcomes, "rpc-error", "2025-06-18")
    assert error.response["error"] == {
        "code": -32001,
        "message": "Upstream database unavailable",
        "data": {"retryAfterMs": 2000, "target": "db"},
    }
    assert error.host_views == []


def test_revision_rules():
    result = {
        "content": [
            {"type": "resource_link", "uri": "u", "name": "n", "_meta": {}},
            {"type": "text", "text": "t", "annotations": {"lastModified": "2025-01-01"}},
        ],
        "structuredContent": {},
        "resultType": "complete",
    }
    found = {(f.path, f.anchor) for f in revisions.rule_findings(result, "tools/call", "2025-03-26")}
    assert found == {
        ("content[0]", "type:ResourceLink"),
        ("content[0]._meta", "field:TextContent._meta"),
        ("content[1].annotations.lastModified", "field:Annotations.lastModified"),
        ("structuredContent", "field:CallToolResult.structuredContent"),
        ("resultType", "field:CallToolResult.resultType"),
    }
    assert revisions.rule_findings(result, "tools/call", "2026-07-28") == []
    prompts = {"prompts": [{"name": "p", "title": "T", "icons": []}]}
    assert [f.anchor for f in revisions.rule_findings(prompts, "prompts/list", "2025-06-18")] == ["field:Prompt.icons"]


def test_schema_findings():
    assert revisions.schema_findings({"content": [{"type": "text", "text": "x"}]}, "tools/call", "2024-11-05") == []
    bad = revisions.schema_findings({"content": [{"type": "text"}]}, "tools/call", "2025-11-25")
    assert bad
    assert bad[0].rule == "schema"
    assert revisions.schema_findings({"content": "nope"}, "tools/call", "2026-07-28")


def test_diff():
    assert diff({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 2]}) == []
    changes = diff({"result": {"content": [1], "x": 1}}, {"result": {"content": [2], "isError": False}})
    assert {(c["path"], c["change"]) for c in changes} == {
        ("result.content[0]", "changed"),
        ("result.x", "removed"),
        ("result.isError", "added"),
    }
    assert diff({"code": 1}, {"code": 1, "message": "m"}, subset=True) == []


def test_expected_answers_come_from_the_fixture_content():
    scenario = next(s for s in FIXTURE if s.key == "rpc-error")
    assert expected_fixture_response(scenario)["error"]["code"] == -32001


def test_probe_over_http_against_the_fixture_server():
    port = free_port()
    command = [sys.executable, "-m", "comparison.probes.fixture.fixture_server", "--port", str(port)]
    with server(command, port) as process:
        assert listening_addresses(process.pid) == [f"127.0.0.1:{port}"]
        spec = TargetSpec("fixture over HTTP", "http", url=f"http://127.0.0.1:{port}/mcp", upstream="fixture")
        outcomes = run_probe(spec, ProbePlan(scenarios=list(FIXTURE), revisions=list(revisions.REVISIONS)))
    counts = Counter(o.verdict for o in outcomes)
    assert counts[CHANGED] == 0
    assert counts["failed to probe"] == 0
    assert counts[AS_EXPECTED] + counts[INVALID] == len(outcomes), [
        (o.scenario.key, o.requested, o.verdict, o.findings)
        for o in outcomes
        if o.verdict not in (AS_EXPECTED, INVALID)
    ]
    assert cell(outcomes, "text", "2025-11-25").exchanges[0]["framing"] == "sse"


def test_command_json_and_exit_codes():
    out = StringIO()
    call_command(
        "probe", "--builtin", "--revisions", "2025-06-18", "--scenarios", "text", "rpc-error", "--json", stdout=out
    )
    payload = json.loads(out.getvalue())
    assert payload["counts"] == {AS_EXPECTED: 2}
    assert [r["scenario"] for r in payload["results"]] == ["text", "rpc-error"]
    with pytest.raises(CommandError) as caught:
        call_command(
            "probe", "--builtin", "--revisions", "2024-11-05", "--scenarios", "audio", "--strict", stdout=StringIO()
        )
    assert caught.value.returncode == 1
    with pytest.raises(CommandError, match="exactly one"):
        call_command("probe", stdout=StringIO())
    with pytest.raises(CommandError) as caught:  # a comma instead of a space
        call_command("probe", "--builtin", "--revisions", "2025-06-18,2025-11-25", stdout=StringIO())
    assert "choose from '2024-11-05', '2025-03-26'" in str(caught.value), "the revisions as written, not enums"
    refused = free_port()
    with pytest.raises(CommandError) as caught:
        call_command(
            "probe",
            "--url",
            f"http://127.0.0.1:{refused}/mcp",
            "--revisions",
            "2025-06-18",
            "--scenarios",
            "text",
            stdout=StringIO(),
        )
    assert caught.value.returncode == 1
