"""Evidence for every register (issue 34): the spec anchor vocabulary read from the official
schemas and pages, each kind of anchor a row's text and citations give it, each kind of check
declaring its anchors, and evidence meeting rows by anchor, on the shipped registers and on a
register no check was written for."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from comparison.core import spec_checks
from comparison.hosts.findings import findings, findings_for
from comparison.probes.conformance import conformance
from comparison.probes.run.scenarios import EVERYTHING, FIXTURE
from comparison.services.probing import ensure_builtin_target
from comparison.tasks import start_run
from evidence.rules import evidence, evidence_related
from language.anchors import kinds
from language.anchors.row_anchors import CitedLine, cited_anchors, page_section, resolve, row_anchors, text_anchors
from language.anchors.schema_lines import place_at
from language.anchors.vocabulary import vocabulary
from language.vocabulary import REVISIONS
from registers.loader import load_registers
from tests.conftest import PROJECT, TEST_DATA

# --- the vocabulary: read from the schemas and pages, per revision --------------------------------


def present(anchor: str) -> list[str]:
    return sorted(vocabulary().revisions_of(anchor))


def test_methods_notifications_and_definitions_come_from_each_revisions_schema():
    assert present("method:logging/setLevel") == ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
    assert present("method:subscriptions/listen") == ["2026-07-28", "draft"]
    assert present("notification:notifications/progress") == [*REVISIONS, "draft"]
    assert present("type:AudioContent")[0] == "2025-03-26"
    assert present("field:Tool.outputSchema")[0] == "2025-06-18"
    assert vocabulary().literals["resource_link"] == "ResourceLink"
    assert vocabulary().short_methods["setLevel"] == "logging/setLevel"


def test_capabilities_error_codes_and_meta_keys_come_from_the_schemas():
    assert "2024-11-05" in present("capability:logging")
    assert present("capability:tools.listChanged")
    assert present("error:-32602") == [*REVISIONS, "draft"]
    assert present("meta:io.modelcontextprotocol/logLevel") == ["2026-07-28", "draft"]


def test_headers_http_methods_and_statuses_come_from_the_transport_pages():
    assert "2025-03-26" in present("header:Mcp-Session-Id")
    assert present("header:MCP-Protocol-Version")
    assert {"http:GET", "http:POST", "http:DELETE"} <= set(vocabulary().present)
    assert present("status:405")
    assert present("status:404")
    assert {"pagination", "caching", "streamable-http", "transports"} <= vocabulary().pages


def test_a_cited_schema_line_belongs_to_its_definition_and_property():
    place = place_at("2025-11-25", 1520)
    assert (place.definition, place.prop) == ("SetLevelRequest", "method")
    assert place_at("2024-11-05", 714).definition == "SetLevelRequest", "a doc comment belongs to what follows"
    assert place_at("2025-11-25", 176) is None, "an error constant is no definition"
    assert cited_anchors(CitedLine("schema/2025-11-25/schema.ts", 176)) == ["error:-32602"]
    assert "method:logging/setLevel" in cited_anchors(CitedLine("schema/2025-11-25/schema.ts", 1520))
    assert place_at("1999-01-01", 3) is None
    assert place_at("2025-11-25", 10**6) is None


def test_a_cited_page_line_gives_the_page_and_its_section():
    assert page_section("2026-07-28", "server/utilities/pagination.mdx", 1) == ""
    found = cited_anchors(CitedLine("2024-11-05/server/utilities/pagination.mdx", 80))
    assert found[0] == "page:pagination"
    assert found[1].startswith("page:pagination#")
    assert cited_anchors(CitedLine("2025-03-26/changelog.mdx", 25)) == [], "a changelog is about everything"
    assert cited_anchors(CitedLine("2026-07-28/../../etc/passwd.mdx", 1)) == []


# --- a row's anchors, from its own text ------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("tools/list", ["method:tools/list"]),
        ("notifications/progress", ["notification:notifications/progress"]),
        ("CallToolResult", ["type:CallToolResult"]),
        ("Tool.title", ["field:Tool.title"]),
        ("nextCursor", ["prop:nextCursor"]),
        ("audio", ["type:AudioContent"]),
        ("-32602", ["error:-32602"]),
        ("Mcp-Session-Id", ["header:Mcp-Session-Id"]),
        ("mcp-session-id", ["header:Mcp-Session-Id"]),
        ("io.modelcontextprotocol/logLevel", ["meta:io.modelcontextprotocol/logLevel"]),
        ("DELETE", ["http:DELETE"]),
        ("405 Method Not Allowed", ["status:405"]),
        ("setLevel info", ["method:logging/setLevel"]),
        ("isError: true", ["prop:isError"]),
        ("_meta", []),
        ("mcpx_call", []),
        ("type", []),
    ],
)
def test_each_kind_of_identifier_in_backticks_names_its_anchor(token, expected):
    assert resolve(token) == expected


def test_a_generic_property_is_scoped_by_the_definition_beside_it():
    named = [value for value, _ in text_anchors("`_meta` on `Prompt` (not on arguments)")]
    assert named == ["type:Prompt", "field:Prompt._meta"]
    blocks = [value for value, _ in text_anchors("`_meta` on content blocks", title=True)]
    assert "type:ContentBlock" in blocks
    assert "field:AudioContent._meta" in blocks, "a union scopes to its members"
    audio = [value for value, _ in text_anchors("audio allowed in `PromptMessage.content`", title=True)]
    assert audio == ["field:PromptMessage.content", "type:AudioContent"]
    assert [v for v, _ in text_anchors("plain prose with content blocks")] == [], "plain words count in titles only"


def test_a_row_gets_its_anchors_with_how_each_was_found():
    found = row_anchors(
        {
            "title": "`logging/setLevel` request removed",
            "what": "The level moves to `io.modelcontextprotocol/logLevel`.",
            "detail": "An invalid level is `-32602`.",
        },
        [CitedLine("schema/2024-11-05/schema.ts", 714), CitedLine("2026-07-28/server/utilities/logging.mdx", 60)],
    )
    how = {item.anchor: item.how for item in found}
    assert how["method:logging/setLevel"] == "title"
    assert how["meta:io.modelcontextprotocol/logLevel"] == "what"
    assert how["error:-32602"] == "detail"
    assert how["type:SetLevelRequest"] == "schema-citation"
    assert how["page:logging"] == "page-citation"
    assert [item.anchor for item in found if item.subject] == ["method:logging/setLevel"]
    assert row_anchors({"title": "Nothing the spec names"}, []) == []


# --- checks declare anchors, and no check names a row ----------------------------------------------


ROW_ID = re.compile(r"\"(?:CT|FG|PRM|TOOL|LOG|PG|PC)-\d\d\"")


def test_every_scenario_declares_anchors_the_vocabulary_knows():
    vocab = vocabulary()
    for scenario in (*FIXTURE, *EVERYTHING):
        assert scenario.anchors, scenario.key
        for value in scenario.anchors:
            kind, name = kinds.split(value)
            known = name in vocab.owners if kind == kinds.PROP else value.split("#")[0] in vocab.present
            assert known, (scenario.key, value)
        assert "rows" not in scenario.as_dict()


def test_no_scenario_schema_check_or_suite_mapping_names_a_register_row():
    for path in [
        *(PROJECT / "comparison" / "probes").rglob("*.py"),
        PROJECT / "comparison" / "core" / "spec_checks.py",
    ]:
        assert not ROW_ID.search(path.read_text(encoding="utf-8")), path


def test_a_suite_scenario_has_its_own_anchors_and_those_of_ours():
    anchors = conformance.suite_anchors(("logging",), ("method:ping",))
    assert anchors[0] == "method:ping"
    assert "notification:notifications/message" in anchors


def test_host_findings_meet_rows_by_anchor():
    assert all(finding.get("anchors") and "rows" not in finding for finding in findings())
    assert findings_for(["type:AudioContent"]), "names one of its anchors"
    assert findings_for(["field:ImageContent.data"], subject=["type:ImageContent"]), "its title's definition"
    assert not findings_for(["field:ImageContent.data"]), "a property of it, not named by the title"


# --- evidence by anchor ----------------------------------------------------------------------------


def cell(target: str, verdict: str, *anchors: str, scenario: str = "s") -> evidence.ProbeCell:
    return evidence.ProbeCell(1, 1, target, scenario, "2025-11-25", (), {}, "", anchors, verdict, "family")


def test_a_probe_through_the_rows_own_subject_takes_a_stance_on_its_status():
    row = evidence.RowRevisions(
        title="`logging/setLevel`",
        anchors=("method:logging/setLevel",),
        subject=("method:logging/setLevel",),
        status_subject="mcp-proxy",
        status="yes",
    )
    kept = evidence.row_evidence(
        "XX-01",
        {},
        evidence.RowMeasurements(None, [], [cell("mcp-proxy (stdio)", "as expected", "method:logging/setLevel")]),
        [],
        row,
    )
    status = next(item for item in kept if item.host == evidence_related.STATUS_ENTRY)
    assert (status.claim, status.verdict) == ("mcp-proxy: ✓", evidence.AGREES)
    lost = evidence.row_evidence(
        "XX-01",
        {},
        evidence.RowMeasurements(None, [], [cell("mcp-proxy", "lost by proxy", "method:logging/setLevel")]),
        [],
        row,
    )
    assert next(i for i in lost if i.host == evidence_related.STATUS_ENTRY).verdict == evidence.DISAGREES
    other = evidence.row_evidence(
        "XX-01",
        {},
        evidence.RowMeasurements(None, [], [cell("supergateway", "lost by proxy", "method:logging/setLevel")]),
        [],
        row,
    )
    assert [i.host for i in other] == [evidence.RELATED_ENTRY], "another target is related only"
    assert other[0].verdict == evidence.RELATED
    assert "meets the row on method:logging/setLevel" in other[0].sources[0].detail


def test_a_row_with_no_anchor_or_no_check_says_why():
    assert evidence_related.no_evidence_reason(evidence.RowRevisions()).startswith("no anchor")
    why = evidence_related.no_evidence_reason(evidence.RowRevisions(anchors=("prop:tools",)))
    assert why.endswith("exercises prop:tools")


@pytest.mark.django_db
def test_a_register_no_check_was_written_for_gets_evidence_from_a_run(client):
    """tests/data/unseen-anchors.md: rows about sessions, pagination, progress and the schema, in
    a prefix nothing here names; a run of the built-in target gives each evidence by its anchors."""
    load_registers([TEST_DATA / "unseen-anchors.md"])
    start_run(target=ensure_builtin_target(), revisions=["2025-03-26", "2026-07-28"], scenarios=[])
    page = client.get("/registers/unseen-anchors/UA-01/").content.decode()
    assert 'id="anchors"' in page
    assert "header" in page
    assert '<tr data-host="related checks">' in page
    row = client.get("/api/v1/rows/UA-02/").json()
    assert {item["anchor"] for item in row["anchors"]} >= {"prop:nextCursor", "page:pagination"}
    assert row["evidence"]["related checks"]["verdict"] == "related"
    assert row["probe_verdicts"], "the latest verdicts of the cells that meet it"
    spec = client.get("/api/v1/rows/UA-03/").json()["evidence"]["the spec"]
    assert spec["verdict"] == "disagrees", "a naming title the schema contradicts"
    none = client.get("/registers/unseen-anchors/UA-04/").content.decode()
    assert 'id="no-anchor"' in none
    assert 'id="no-evidence"' in none
    data = json.loads(b"".join(client.get("/disagreements/?format=json").streaming_content))
    assert [(d["row_id"], d["host"]) for d in data["disagreements"]] == [
        ("UA-03", "the spec"),
        ("UA-05", "opencode-v1"),
    ]
    audio = client.get("/api/v1/rows/UA-05/").json()["evidence"]["opencode-v1"]
    kinds_ = {(source["kind"], source["stance"]) for source in audio["sources"]}
    assert ("host model", "disagrees") in kinds_, "the host models judge what an unseen row's title names"
    assert ("probe", "disagrees") in kinds_, "and so do the probe cells about it"


# --- the shipped registers ----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_shipped_rows_keep_their_verdicts_and_every_register_has_evidence(loaded):
    import io

    from django.core.management import call_command

    start_run(target=ensure_builtin_target(), revisions=list(REVISIONS), scenarios=[])
    out = io.StringIO()
    call_command("evidence_coverage", "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert set(report) == {
        "content-types",
        "failure-gap",
        "logging",
        "pagination-caching",
        "progress-cancellation",
        "prompts",
        "tools",
    }
    for slug, entry in report.items():
        with_evidence = entry["stance"] + entry["related only"]
        assert with_evidence >= 0.8 * entry["rows"], (slug, entry)
        assert entry["disagrees"] == [], slug
    from registers.filters import snapshot
    from registers.models import Row

    row_ids = dict(Row.objects.values_list("pk", "row_id"))
    verdicts = {row_ids[facts.pk]: facts.evidence for facts in snapshot().facts}
    before = json.loads((Path(TEST_DATA) / "shipped_verdicts.json").read_text(encoding="utf-8"))["verdicts"]
    changed = {row: (was, verdicts[row]) for row, was in before.items() if verdicts[row] != was}
    assert changed == {"CT-17": ("untested", "related")}


def test_the_schema_check_reads_each_title_shape():
    assert spec_checks.naming_title("`logging/setLevel` request removed")
    assert spec_checks.naming_title("`PromptArgument.title`: in the schema, not in 2025-06-18 prose")
    assert not spec_checks.naming_title("`tools/list` in deterministic order")
    assert not spec_checks.naming_title("`Tool.name` format: 1–128 chars")


def test_what_travelled_in_a_cell_is_read_from_its_messages_however_they_nest():
    from language.anchors.travelled import MAX_DEPTH, travelled

    exchanges = [
        {"request": {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}, "notifications": [
            {"jsonrpc": "2.0", "method": "notifications/progress"}]},
        {"method": "not a message"},
    ]  # fmt: skip
    assert travelled(exchanges) == ["method:tools/call", "notification:notifications/progress"]
    deep: dict = {"jsonrpc": "2.0", "method": "ping"}
    for _ in range(MAX_DEPTH + 5):
        deep = {"inner": deep}
    assert travelled(deep) == [], "a hostile nesting is not read past its bound"
    assert travelled("garbage") == []


def test_the_fixture_probed_directly_speaks_to_where_a_method_is_used():
    row = evidence.RowRevisions(
        introduced="2024-11-05",
        removed="2026-07-28",
        title="`logging/setLevel` request removed",
        anchors=("method:logging/setLevel",),
        subject=("method:logging/setLevel",),
    )

    def direct(revision: str, used: bool) -> evidence.ProbeCell:
        seen = ("method:logging/setLevel",) if used else ()
        return evidence.ProbeCell(1, 1, "built-in", "logging", revision, (), {}, "", ("method:logging/setLevel",),
                                  "as expected", "logging", seen, True)  # fmt: skip

    cells = [direct(revision, revision != "2026-07-28") for revision in REVISIONS]
    source = evidence_related.fixture_source(row, cells)
    assert (source.stance, source.label) == (evidence.AGREES, evidence_related.FIXTURE_LABEL)
    wrong = evidence_related.fixture_source(row, [direct(revision, True) for revision in REVISIONS])
    assert wrong.stance == evidence.DISAGREES
    assert "2026-07-28: used, the register says absent" in wrong.detail
    through = [evidence.ProbeCell(**{**direct("2026-07-28", True).__dict__, "direct": False})]
    assert evidence_related.fixture_source(row, through) is None, "a proxy's cells say nothing of the protocol"
    unused = [direct(revision, False) for revision in REVISIONS]
    assert evidence_related.fixture_source(row, unused) is None, "never used: the cells do not exercise it"


def test_a_suite_check_cites_spec_pages_and_its_scenario_meets_rows_by_them():
    checks = conformance.read_checks(
        json.dumps(
            [
                {"id": "tools-call", "status": "SUCCESS", "specReferences": [
                    {"id": "MCP-Tools", "url": "https://modelcontextprotocol.io/specification/2025-06-18/server/tools#calling-tools"},
                    {"id": "SEP-1034", "url": "https://github.com/modelcontextprotocol/modelcontextprotocol/issues/1034"},
                    {"id": "bad", "url": ["not", "a", "url"]}]},
            ]
        )
    )  # fmt: skip
    assert checks[0].references == ("page:tools", "page:tools#calling-tools")
    rows = conformance.compare(
        conformance.Pass({"tools-call-simple-text": checks}), conformance.Pass({"tools-call-simple-text": checks})
    )
    assert {"page:tools#calling-tools", "type:TextContent"} <= set(rows[0].anchors)


@pytest.mark.django_db
def test_the_suites_scenarios_in_a_stored_run_are_related_checks(client):
    from comparison.models import ProbeRun

    load_registers([TEST_DATA / "unseen-anchors.md"])
    target = ensure_builtin_target()
    suite_row = {"scenario": "server-sse-multiple-streams", "verdict": "lost by proxy", "anchors": ["header:Mcp-Session-Id"],
                 "direct": {"passed": 1, "failed": 0, "checks": []}, "via": {"passed": 0, "failed": 1, "checks": []}}  # fmt: skip
    ProbeRun.objects.create(
        target=target, revisions=["2025-11-25"], scenarios=[], status="done",
        conformance_results={"status": "", "rows": [suite_row]},
    )  # fmt: skip
    evidence_ = client.get("/api/v1/rows/UA-01/").json()["evidence"]["related checks"]
    [source] = evidence_["sources"]
    assert source["label"].startswith("the conformance suite via")
    assert "server-sse-multiple-streams" in source["detail"]
    assert source["stance"] is None


def test_a_row_no_example_was_written_for_is_shown_on_the_example_for_what_its_title_names():
    from comparison.hosts.examples import ROW_EXAMPLES, example_for

    assert example_for("XX-01", "`audio` content block") == ("audio_only", "audio")
    assert example_for("XX-01", "`CallToolResult.isError`; hosts throw it") == ("is_error_with_text", "failure")
    assert example_for("XX-01", "`resource_link` rewritten as embedded resource") is None, "a behaviour of it"
    assert example_for("XX-01", "`mcpx_exec` returns artifacts as `resource_link` blocks") is None, (
        "about another thing that involves the block: its host claims are not about delivering it"
    )
    assert example_for("XX-01", "Hosts show a spinner") is None
    assert example_for("CT-14", "anything") == ROW_EXAMPLES["CT-14"]
