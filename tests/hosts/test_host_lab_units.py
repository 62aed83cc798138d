"""The host lab's pure parts, without any host: each dialect read and answered, the fake model's
script over real HTTP, the egress trap, the recorder, and the readings of a capture."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from comparison.hostlab import dialects
from comparison.hostlab.dialects import anthropic_messages, gemini, openai_chat, openai_responses
from comparison.hostlab.egress_trap import EgressTrap
from comparison.hostlab.fake_model import FakeModel, Script, find_tool
from comparison.hostlab.features import judge
from comparison.hostlab.lab import stable
from comparison.hostlab.reached import reached
from comparison.hostlab.told import told

RECORDER = Path("comparison/hostlab/recorder.py")
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="


def post(url: str, body: dict) -> tuple[str, bytes]:
    headers = {"Content-Type": "application/json"}
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)  # noqa: S310 - loopback
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - loopback
        return response.headers["Content-Type"], response.read()


def test_find_tool_matches_only_the_servers_tool():
    offered = ("view_image", "mcp__probe.image", "mcp__probe.image_2")
    assert find_tool(offered, "image") == "mcp__probe.image"
    assert find_tool(("mcp_probe_is_error",), "is-error") == "mcp_probe_is_error"
    assert find_tool(("view_image", "image"), "image") is None


@pytest.mark.parametrize(
    ("dialect", "path"),
    [
        (openai_chat, "/v1/chat/completions"),
        (openai_responses, "/v1/responses"),
        (anthropic_messages, "/v1/messages?beta=true"),
        (gemini, "/v1beta/models/m:streamGenerateContent?alt=sse"),
    ],
)
def test_each_dialect_is_found_by_its_path(dialect, path):
    assert dialects.by_path(path) is dialect


def chat_turn(outputs: int) -> dict:
    messages = [{"role": "user", "content": "CASE=image please"}]
    for index in range(outputs):
        call_id = f"c{index}"
        messages.append({"role": "assistant", "tool_calls": [{"id": call_id, "function": {"name": "probe_image"}}]})
        messages.append({"role": "tool", "tool_call_id": call_id, "content": "done"})
    return {"messages": messages, "tools": [{"function": {"name": "probe_image"}}], "stream": True}


def test_the_fake_model_calls_the_tool_then_captures_the_result_over_http():
    with FakeModel(Script("image")) as model:
        kind, first = post(model.url + "/v1/chat/completions", chat_turn(0))
        assert kind == "text/event-stream"
        assert b'"name": "probe_image"' in first
        post(model.url + "/v1/chat/completions", chat_turn(1))
        assert model.capture is not None
        assert model.called_as == "probe_image"
        assert len(model.requests) == 2


def test_the_fake_model_searches_first_when_the_host_hides_the_tool():
    with FakeModel(Script("image")) as model:
        body = {"messages": [{"role": "user", "content": "CASE=image"}], "tools": [{"name": "ToolSearch"}]}
        _, reply = post(model.url + "/v1/messages", body)
        assert b"select:mcp__probe__image" in reply
        assert model.stage == "searched"


def test_responses_reads_namespaced_tools_and_the_output_item():
    body = {
        "input": [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "CASE=x"}]},
            {"type": "function_call", "call_id": "call_target", "name": "x", "namespace": "mcp__probe"},
            {
                "type": "function_call_output",
                "call_id": "call_target",
                "output": [{"type": "input_text", "text": "hi"}],
            },
        ],
        "tools": [{"type": "namespace", "name": "mcp__probe", "tools": [{"type": "function", "name": "x"}]}],
    }
    turn = openai_responses.read(body)
    assert turn.offered == ("mcp__probe.x",)
    assert turn.outputs[0].name == "mcp__probe.x"
    seen = reached({"outputs": [o.__dict__ | {"siblings": list(o.siblings)} for o in turn.outputs]})
    assert seen["parts"] == [{"kind": "text", "text": "hi"}]


def test_gemini_reads_a_function_response_with_sibling_media():
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "CASE=image"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "mcp_probe_image"}}]},
            {
                "role": "user",
                "parts": [
                    {"functionResponse": {"name": "mcp_probe_image", "response": {"error": "boom"}}},
                    {"inlineData": {"mimeType": "image/png", "data": PNG}},
                ],
            },
        ],
        "tools": [{"functionDeclarations": [{"name": "mcp_probe_image"}]}],
    }
    turn = gemini.read(body)
    output = turn.outputs[0]
    capture = {"outputs": [{"name": output.name, "call_id": "", "raw": output.raw, "siblings": list(output.siblings)}]}
    seen = reached(capture, "mcp_probe_image")
    assert seen["error_flag"] is True
    assert seen["parts"][1] == {"kind": "image", "mime": "image/png", "bytes": 70, "via": "inlineData"}


def test_anthropic_replies_parse_as_server_sent_events():
    reply = anthropic_messages.call("mcp__probe__x", {"a": 1}, True)
    events = [line for line in reply.body.decode().splitlines() if line.startswith("event: ")]
    assert events[0] == "event: message_start"
    assert events[-1] == "event: message_stop"


def test_the_egress_trap_refuses_and_records():
    with EgressTrap() as trap:
        port = int(trap.url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n")
            answer = sock.recv(100)
    assert answer.startswith(b"HTTP/1.1 403")
    assert trap.attempts == ["CONNECT example.com:443 HTTP/1.1"]


def test_the_recorder_passes_lines_both_ways_and_records_them(tmp_path):
    record = tmp_path / "record.jsonl"
    env_file = tmp_path / "env.json"
    env_file.write_text(json.dumps({"LAB_SECRET": "s3cret-value"}))
    echo = [
        sys.executable,
        "-c",
        "import os,sys\nfor l in sys.stdin: print(l.strip()+os.environ['LAB_SECRET'], flush=True)",
    ]
    done = subprocess.run(
        [sys.executable, str(RECORDER), str(record), "--env-file", str(env_file), "--", *echo],
        input=b'{"a":1}\n',
        capture_output=True,
        timeout=30,
        check=True,
    )
    assert done.stdout == b'{"a":1}s3cret-value\n'
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert [line["dir"] for line in lines] == ["host->up", "up->host"]


def test_the_recorder_never_records_an_answer_before_its_request(tmp_path):
    # CI once recorded the echo's answer first: the record was written after the line was passed
    # on, so the answering side could win the race. Many lines make a lost race likely to show.
    record = tmp_path / "record.jsonl"
    echo = [sys.executable, "-c", "import sys\nfor l in sys.stdin: print(l.strip(), flush=True)"]
    sent = b"".join(b'{"id":%d}\n' % i for i in range(300))
    subprocess.run(
        [sys.executable, str(RECORDER), str(record), "--", *echo],
        input=sent,
        capture_output=True,
        timeout=60,
        check=True,
    )
    asked: set[int] = set()
    for entry in map(json.loads, record.read_text().splitlines()):
        number = json.loads(entry["line"])["id"]
        if entry["dir"] == "host->up":
            asked.add(number)
        else:
            assert number in asked, f"answer {number} recorded before its request"
    assert len(asked) == 300


def test_told_reads_the_2026_envelope_and_pagination():
    envelope = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "h"},
    }
    lines = [
        {"dir": "host->up", "line": json.dumps({"id": 1, "method": "server/discover", "params": {"_meta": envelope}})},
        {"dir": "host->up", "line": json.dumps({"id": 2, "method": "tools/list", "params": {"_meta": envelope}})},
        {"dir": "up->host", "line": json.dumps({"id": 2, "result": {"tools": [], "nextCursor": "p2"}})},
        {"dir": "host->up", "line": "not json"},
    ]
    found = told(lines)
    assert found["protocol_version"] == "2026-07-28"
    assert found["first_request"] == "server/discover"
    assert found["client_info"] == {"name": "h"}
    assert found["pagination"]["tools/list"].startswith("stopped after 1 page")


def reply(result: dict) -> dict:
    return {"jsonrpc": "2.0", "id": 1, "result": result}


def seen(*parts: dict, flag=None) -> dict:
    text = "\n".join(p["text"] for p in parts if p["kind"] == "text")
    return {"reached": True, "parts": list(parts), "error_flag": flag, "glue": [], "text": text}


def test_judge_tells_kept_changed_and_dropped_apart():
    image = {"type": "image", "data": PNG, "mimeType": "image/png"}
    kept = judge(reply({"content": [image]}), seen({"kind": "image", "mime": "image/png", "bytes": 70, "via": "x"}))
    assert [c["chip"] for c in kept] == ["kept"]
    as_text = judge(reply({"content": [image]}), seen({"kind": "text", "text": json.dumps(image)}))
    assert [c["chip"] for c in as_text] == ["changed"]
    placeholder = judge(reply({"content": [image]}), seen({"kind": "text", "text": "[image: image/png]"}))
    assert [(c["chip"], c["detail"]) for c in placeholder] == [("dropped", "only a placeholder naming image/png")]


def test_judge_reads_a_failure_that_looks_like_a_success():
    result = {"isError": True, "content": [{"type": "text", "text": "Not found"}]}
    assert judge(reply(result), seen({"kind": "text", "text": "Not found"}))[-1]["chip"] == "dropped"
    assert judge(reply(result), seen({"kind": "text", "text": "Not found"}, flag=True))[-1]["chip"] == "kept"
    worded = judge(reply(result), seen({"kind": "text", "text": "Tool failed: Not found"}))
    assert worded[-1]["chip"] == "changed"


def test_judge_says_not_measured_when_nothing_reached():
    assert judge(None, seen())[0]["chip"] == "not measured"
    nothing = {"reached": False, "parts": [], "error_flag": None, "glue": [], "text": ""}
    assert judge(reply({"content": []}), nothing)[0]["chip"] == "not measured"


def test_a_failure_flag_shown_in_the_text_is_changed_not_dropped():
    result = {"isError": True, "content": [{"type": "text", "text": "Not found"}]}
    shown = json.dumps({"content": [{"type": "text", "text": "Not found"}], "isError": True}, indent=2)
    cells = judge(reply(result), seen({"kind": "text", "text": shown}))
    assert (cells[-1]["feature"], cells[-1]["chip"]) == ("error-flag", "changed")
    assert "flag shown in the text" in cells[-1]["detail"]


def test_structured_content_is_found_by_parsing_whatever_the_spacing():
    value = {"city": "New York", "tags": ["a b", "c"]}
    result = {"content": [{"type": "text", "text": "Weather in New York"}], "structuredContent": value}
    pretty = "Weather in New York\nResult:\n" + json.dumps(value, indent=4)
    assert judge(reply(result), seen({"kind": "text", "text": pretty}))[-1]["chip"] == "changed"
    only_text = judge(reply(result), seen({"kind": "text", "text": "Weather in New York"}))
    assert only_text[-1]["chip"] == "dropped", "text unlike the value: the value never reached the model"
    near = judge(reply(result), seen({"kind": "text", "text": json.dumps({**value, "city": "Boston"})}))
    assert near[-1]["chip"] == "dropped", "another value is not the value"


def line(direction: str, message: dict) -> dict:
    return {"dir": direction, "line": json.dumps(message)}


def test_not_measured_says_why_the_tool_was_never_called():
    from comparison.hostlab.features import not_called_reason

    opened = line("host->up", {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}})
    answer = line("up->host", {"jsonrpc": "2.0", "id": 0, "result": {}})
    listing = line("host->up", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    tools = line("up->host", {"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "echo"}]}})
    assert not_called_reason([], "echo") == "the host never started the server (nothing reached it)"
    assert not_called_reason([opened], "echo") == "the server never answered initialize"
    assert not_called_reason([opened, answer, listing, tools], "search") == (
        "no such tool: the server lists no tool named 'search'"
    )
    assert not_called_reason([opened, answer, listing, tools], "echo") == "the host never called the tool"
    assert judge(None, seen(), "the server never answered initialize")[0]["detail"] == (
        "the server never answered initialize"
    )


def test_volatile_bits_are_replaced():
    assert stable("Wall time: 0.0046 seconds\nOutput:") == "Wall time: N seconds\nOutput:"
    assert stable("[Image: source: /tmp/mcp-compare-lab-x-1/a/b.png]") == "[Image: source: <lab home>]"


def test_sample_arguments_fill_a_schema_as_a_model_would():
    from comparison.hostlab.fake_model import sample_arguments

    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "number"},
            "n": {"type": "integer"},
            "mode": {"type": "string", "enum": ["fast", "slow"]},
            "d": {"type": "string", "default": "x"},
            "inner": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
        },
    }
    assert sample_arguments(schema) == {"a": 3, "n": 2, "mode": "fast", "d": "x", "inner": {"ok": True}}
    assert sample_arguments(None) == {}


def test_every_tool_mode_calls_each_offered_tool_then_those_a_search_names():
    from comparison.hostlab.fake_model import ANY_TOOL

    with FakeModel(Script(ANY_TOOL)) as model:
        body = {"messages": [{"role": "user", "content": "go"}], "tools": [{"function": {"name": "probe_a"}}]}
        _, first = post(model.url + "/v1/chat/completions", body)
        assert b'"name": "probe_a"' in first
        search = {
            "messages": [
                {"role": "user", "content": "go"},
                {"role": "assistant", "tool_calls": [{"id": "s", "function": {"name": "tool_search"}}]},
                {
                    "role": "tool",
                    "tool_call_id": "s",
                    "content": '<function>{"name":"mcp__probe__b","parametersJsonSchema":'
                    '{"properties":{"x":{"type":"integer"}}}}</function>',
                },
            ],
            "tools": [{"function": {"name": "tool_search"}}, {"function": {"name": "tool_call"}}],
        }
        model.stage = "searched"
        _, bridged = post(model.url + "/v1/chat/completions", search)
        assert b'"name": "tool_call"' in bridged
        assert b"mcp__probe__b" in bridged
        assert b'\\"x\\": 2' in bridged


def test_read_checks_says_not_measured_when_no_check_was_made(tmp_path):
    from comparison.hostlab.conformance_client import read_checks

    (tmp_path / "tools_call-2026-12-03T00").mkdir()
    (tmp_path / "tools_call-2026-12-03T00" / "checks.json").write_text(
        json.dumps([{"id": "tool-add-numbers", "status": "FAILURE", "details": {"message": "not called"}}])
    )
    (tmp_path / "initialize-2026-12-03T00").mkdir()
    (tmp_path / "initialize-2026-12-03T00" / "checks.json").write_text("[]")
    found = read_checks(tmp_path)
    assert found["tools_call"]["outcome"] == "fail"
    assert found["tools_call"]["checks"][0]["message"] == "not called"
    assert found["initialize"]["outcome"] == "not measured"


PUBLISHED = ["0.3.1", "0.3.2", "0.3.3", "0.3.4", "0.3.7", "0.4.0-beta.1", "0.4.0", "0.5.0"]


def test_version_specs_read_against_the_published_list():
    from comparison.hostlab.versions import SpecError, choose

    assert choose("0.3.2..0.4.0", PUBLISHED) == ["0.3.2", "0.3.3", "0.3.4", "0.3.7", "0.4.0"]
    assert choose("latest:2", PUBLISHED) == ["0.4.0", "0.5.0"]
    assert choose("0.5.0,0.3.1", PUBLISHED) == ["0.3.1", "0.5.0"]
    for bad in ("9.9.9", "0.3.1..9.9.9", "latest:x", "latest:0", ""):
        with pytest.raises(SpecError):
            choose(bad, PUBLISHED)


def test_ranges_say_since_until_and_the_gaps():
    from comparison.hostlab.ranges import next_to_bisect, ranges

    chips = {"0.3.1": "dropped", "0.3.2": "kept", "0.3.7": "kept", "0.5.0": "changed", "0.4.0": "not measured"}
    found, gaps = ranges(chips, PUBLISHED)
    assert [(r.chip, r.since, r.until, r.exact) for r in found] == [
        ("dropped", "0.3.1", "0.3.1", False),
        ("kept", "0.3.2", "0.3.7", True),
        ("changed", "0.5.0", "0.5.0", False),
    ]
    assert found[1].words() == "kept since 0.3.2; measured 0.3.2 – 0.3.7"
    assert [(g.after, g.before, g.unmeasured) for g in gaps] == [
        ("0.3.2", "0.3.7", ["0.3.3", "0.3.4"]),
        ("0.3.7", "0.5.0", ["0.4.0"]),
    ]
    assert next_to_bisect(chips, PUBLISHED) == ["0.4.0"]
    assert next_to_bisect({"0.3.1": "kept", "0.3.7": "dropped"}, PUBLISHED) == ["0.3.3"]
    # A release that cannot be installed is passed over; when none is left the change is as narrow as it gets.
    assert next_to_bisect({"0.3.1": "kept", "0.3.7": "dropped"}, PUBLISHED, frozenset({"0.3.3"})) == ["0.3.4"]
    assert next_to_bisect({"0.3.1": "kept", "0.3.3": "dropped"}, PUBLISHED, frozenset({"0.3.2"})) == []


def test_a_claim_is_checked_only_on_the_feature_a_row_is_about():
    from comparison.hostlab import claims

    assert claims.features_for({"type:ImageContent"}) == ["image"]
    assert claims.features_for({"type:TextContent"}) == ["text"], "an is-error scenario has text but is about isError"
    assert claims.features_for({"type:EmbeddedResource"}) == ["resource-text", "resource-blob"]
    assert claims.features_for({"type:ContentBlock"}) == [], "a union row is not one feature"


def test_a_claim_reads_the_pinned_version_measured_or_inside_a_range_and_never_guesses():
    from comparison.hostlab import claims

    published = ["1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0"]
    chips = {"1.0.0": "kept", "1.2.0": "kept", "1.4.0": "dropped"}
    assert claims.chip_at(chips, "1.2.0", published) == ("kept", "measured at 1.2.0")
    chip, how = claims.chip_at(chips, "1.1.0", published)
    assert chip == "kept"
    assert "1.0.0 and 1.2.0" in how
    assert claims.chip_at(chips, "1.3.0", published)[0] == "not measured", "a change lies somewhere between"
    assert claims.chip_at(chips, "2.0.0", published)[0] == "not measured"
    assert claims.verdict("has", "kept") == claims.AGREES
    assert claims.verdict("has", "dropped") == claims.CONTRADICTS
    assert claims.verdict("lacks", "changed") == claims.CONTRADICTS, "something reached the model"
    assert claims.verdict("lacks", "not supported") == claims.AGREES
    assert claims.verdict("partial", "kept") == claims.UNDECIDED
    assert claims.verdict("has", "not measured") == "not measured"


def test_check_row_uses_the_registers_pin_and_skips_hosts_the_lab_cannot_run():
    from comparison.hostlab import claims

    pin = claims.pins()["opencode-v1"]
    chips = {"opencode": {"audio": {pin.version: "kept"}}}
    found = claims.check_row(
        {"type:AudioContent"},
        {"opencode-v1": ("lacks", "where"), "lootbox": ("has", "label"), "opencode-v2": ("has", "label")},
        chips,
        {"opencode": [pin.version]},
        {("opencode", pin.version, "audio"): 7},
    )
    assert [(c.register_host, c.version, c.verdict, c.observation_id) for c in found] == [
        ("opencode-v1", pin.version, claims.CONTRADICTS, 7)
    ]


def test_per_host_sums_and_host_interop_prefers_captures_and_labels_models():
    from comparison.hostlab import through

    rows = [
        {"host": "opencode", "label": "opencode", "version": "1.18.33", "scenario": "image", "verdict": "differs",
         "changed": [{"feature": "image", "direct": "kept", "via": "absent"}]},
        {"host": "opencode", "label": "opencode", "version": "1.18.33", "scenario": "text", "verdict": "same",
         "changed": []},
        {"host": "codex", "label": "Codex CLI", "version": "0.169.0", "scenario": "text", "verdict": "not compared",
         "changed": []},
    ]  # fmt: skip
    hosts = through.per_host(rows)
    assert (hosts["opencode"]["same"], hosts["opencode"]["differs"]) == (1, 1)
    assert hosts["codex"]["not compared"] == 1
    assert "image (image: kept → absent)" in through.words(hosts["opencode"])
    modelled = {
        "opencode-v1": {"same": 5, "scored": 5, "percent": 100.0},
        "lootbox": {"same": 1, "scored": 2, "percent": 50.0},
        "mcpx": {"same": 0, "scored": 0, "percent": None},
    }
    lines = through.host_interop(hosts, modelled, {"lootbox": "lootbox", "opencode-v1": "opencode v1"})
    by_host = {line["host"]: line for line in lines}
    assert by_host["opencode"]["source"] == "captures"
    assert by_host["opencode"]["percent"] == 50.0, "the captures, not the model's 100 %"
    assert "opencode v1" not in by_host, "a model the captures replace is not shown twice"
    assert by_host["lootbox"]["source"] == "model"
    assert by_host["Codex CLI"]["percent"] is None, "nothing compared is not a score"
    assert "mcpx" not in by_host, "a model with nothing scored is left out"


def test_an_http_targets_headers_reach_each_hosts_configuration_and_never_its_command_line(tmp_path):
    from comparison.hostlab.adapters import ADAPTERS
    from comparison.hostlab.adapters.base import Context

    secret = "Bearer lab-header-s3cret"
    context = Context(
        home=tmp_path, model_url="http://127.0.0.1:9/v1", server=["unused"], server_env={}, prompt="p", tool="text",
        server_url="http://127.0.0.1:9/mcp", server_headers={"Authorization": secret},
    )  # fmt: skip
    for key, adapter in ADAPTERS.items():
        if not adapter.runnable:
            continue
        launch = adapter.launch(context, tmp_path / "bin")
        assert secret not in " ".join(launch.argv), key
        configured = " ".join(launch.files.values()) + json.dumps(launch.env)
        assert "Authorization" in configured, f"{key} does not send the target's header"
        assert "lab-header-s3cret" in configured, key


def test_a_bare_tool_name_matches_only_for_a_host_that_offers_bare_names():
    assert find_tool(("Read", "image", "view_image"), "image", bare=True) == "image"
    assert find_tool(("Read", "image"), "image") is None
    assert find_tool(("mcp__probe__image", "image"), "image", bare=True) == "mcp__probe__image"


def test_a_host_whose_first_start_missed_its_mcp_tools_is_started_again(tmp_path):
    """Adapter.starts: a run whose model never saw the tool is started again, up to the bound, and
    the observation says how many starts it took; with one start it says the tool was not called."""
    from comparison.hostlab import lab
    from comparison.hostlab.adapters.base import Adapter, Launch

    starts = tmp_path / "starts"

    def launch(context, executable):
        argv = [sys.executable, str(Path("tests/support/racing_host.py").resolve()), context.model_url, str(starts)]
        return Launch(argv=argv, env={"PROMPT": context.prompt}, cwd=context.project)

    racing = Adapter("racing", "Racing", "", "1", "OpenAI Chat Completions", "plain", "node", launch, starts=3)
    item = lab.run_one(racing, "text")
    assert item["starts"] == 2
    assert int(starts.read_text()) == 2
    assert item["reached"]["text"] == "hello from the stand-in"
    starts.unlink()
    once = lab.run_one(Adapter(**{**racing.__dict__, "starts": 1}), "text")
    assert once["starts"] == 1
    assert not once["reached"]["reached"]


def test_a_host_that_offers_bare_tool_names_gets_its_tool_called(tmp_path):
    """The run's fake model is told the host offers MCP tools under their own names: it calls
    `text`, not a tool named for the server (there is none), and the result reaches it."""
    from comparison.hostlab import lab
    from comparison.hostlab.adapters.base import Adapter, Launch

    starts = tmp_path / "starts"
    starts.write_text("1")  # the stand-in offers its MCP tool from the second start on

    def launch(context, executable):
        argv = [sys.executable, str(Path("tests/support/racing_host.py").resolve()), context.model_url, str(starts)]
        return Launch(argv=argv, env={"PROMPT": context.prompt, "BARE": "1"}, cwd=context.project)

    bare = Adapter("bare", "Bare", "", "1", "OpenAI Chat Completions", "plain", "node", launch, bare_tool_names=True)
    item = lab.run_one(bare, "text")
    assert item["called_as"] == "text"
    assert item["reached"]["text"] == "hello from the stand-in"


def test_a_json_text_written_out_again_is_changed_not_dropped():
    sent = reply({"content": [{"type": "text", "text": json.dumps({"error": {"code": "argument.type", "n": 1}})}]})
    compact = json.dumps({"error": {"code": "argument.type", "n": 1}}, separators=(",", ":"))
    cells = judge(sent, seen({"kind": "text", "text": "MCP server 'probe': " + compact}))
    assert cells[0] == {"feature": "text", "chip": "changed", "detail": "its JSON value, written out again"}
    other = json.dumps({"error": {"code": "argument.value", "n": 1}}, separators=(",", ":"))
    assert judge(sent, seen({"kind": "text", "text": other}))[0]["chip"] == "dropped"


def test_every_tool_mode_with_bare_names_calls_every_tool_but_the_hosts_own():
    from comparison.hostlab.fake_model import ANY_TOOL

    script = Script(ANY_TOOL, bare_names=True, own_tools=("Read", "Bash"))
    offered = [{"function": {"name": name}} for name in ("Read", "Bash", "test_simple_text")]
    with FakeModel(script) as model:
        _, first = post(model.url + "/v1/chat/completions", {"messages": [{"role": "user"}], "tools": offered})
        assert b'"name": "test_simple_text"' in first
        assert model.called == ["test_simple_text"]
