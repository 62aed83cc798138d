"""Host models: rules beyond the vectors (provider delivery, limits, prompts, mcpx downgrade)."""

from __future__ import annotations

import base64
import json

import pytest

from comparison.hosts import cloudflare, lootbox, mcpx, opencode_v1, opencode_v2, prompt_views, sdk, tool_views
from comparison.hosts.examples import COMPOSED
from comparison.hosts.present import shorten, view_data
from comparison.hosts.view import ABSENT, base64_size

PNG = COMPOSED["image_and_link"]["content"][0]


def blob(uri: str, mime: str | None, size: int) -> dict:
    resource = {"uri": uri, "blob": base64.b64encode(b"\0" * size).decode()}
    if mime:
        resource["mimeType"] = mime
    return {"type": "resource", "resource": resource}


def test_base64_size_without_decoding():
    assert base64_size("iVBORw0K\nGgo=") == 8
    assert base64_size(base64.b64encode(b"x" * 1001).decode()) == 1001
    assert base64_size("") == 0


@pytest.mark.parametrize(
    ("version", "prefix"),
    [
        (sdk.SDK_1_22, "["),
        (sdk.OPENCODE_1_18_BINARY, "["),
        (sdk.SDK_1_29, "MCP error -32602: MCP error -32602: "),
        (sdk.SDK_1_32, "MCP error -32602: "),
        (sdk.CLIENT_2_0, "Invalid tools/call result: ["),
    ],
)
def test_sdk_error_format_per_version(version, prefix):
    parsed = sdk.parse({"content": [{"type": "video"}]}, version)
    assert not parsed.ok
    assert parsed.error.startswith(prefix)
    assert parsed.issues == [{"code": "invalid_union", "path": ["content", 0], "message": "Invalid input"}]


def test_sdk_defaults_content_keeps_unknown_keys_and_strips_annotations_in_1_22():
    parsed = sdk.parse({"toolResult": 1}, sdk.SDK_1_29)
    assert parsed.result == {"content": [], "toolResult": 1}
    block = {"type": "text", "text": "a", "annotations": {"priority": 1}, "_meta": {"k": 1}}
    assert sdk.parse({"content": [block]}, sdk.SDK_1_22).result["content"][0] == {
        "type": "text",
        "text": "a",
        "_meta": {"k": 1},
    }
    assert "annotations" in sdk.parse({"content": [block]}, sdk.SDK_1_32).result["content"][0]
    assert not sdk.parse([], sdk.SDK_1_29).ok
    assert not sdk.parse({"isError": "yes"}, sdk.SDK_1_29).ok


def test_opencode_v1_blob_limits_and_types():
    big = opencode_v1.direct({"content": [blob("file:///big.png", "image/png", 10 * 1024 * 1024 + 1)]})
    assert big.parts[0].text == "[Binary MCP resource omitted: file:///big.png (image/png, 11 MB) exceeds 10 MB]"
    assert big.attachments == []
    kb = opencode_v1.direct({"content": [blob("file:///a.zip", "application/zip", 2048)]})
    assert "(application/zip, 2 KB)" in kb.parts[0].text
    pdf = opencode_v1.direct({"content": [blob("file:///doc.pdf", "application/pdf", 10)]})
    assert [(m.mime, m.bytes, m.filename) for m in pdf.attachments] == [("application/pdf", 10, "file:///doc.pdf")]


def test_opencode_v1_provider_decides_where_media_goes():
    result = {"content": [PNG, {"type": "text", "text": "caption"}]}
    moved = [c for c in opencode_v1.direct(result, provider="openai-compatible").changes if c.action == "moved"]
    assert len(moved) == 1
    assert "separate user message" in moved[0].reason
    assert [c for c in opencode_v1.direct(result, provider="anthropic").changes if c.action == "moved"] == []
    pdf = {"content": [blob("file:///d.pdf", "application/pdf", 5)]}
    assert [c.action for c in opencode_v1.direct(pdf, provider="xai").changes] == ["moved"]


def test_opencode_v1_error_and_structured_rules():
    failed = opencode_v1.direct(
        {"isError": True, "content": [{"type": "text", "text": "  "}, {"type": "text", "text": "a"}, PNG]}
    )
    assert failed.error == "a"
    assert any(c.subject == "non-text blocks of the error" for c in failed.changes)
    both = opencode_v1.direct({"content": [{"type": "text", "text": "t"}], "structuredContent": {"a": 1}})
    assert both.parts[0].text == "t"
    assert any(c.subject == "structuredContent" and c.action == "dropped" for c in both.changes)


def test_opencode_v1_codemode_values():
    link = {"type": "resource_link", "uri": "x://y", "name": "n"}
    assert opencode_v1.codemode({"content": [link]}).script_value == "n: x://y"
    files = opencode_v1.codemode({"content": [blob("file:///dir/a.bin?x=1#f", None, 3), blob("file:///b/", None, 1)]})
    assert files.script_value == "[2 files attached to the result]"
    assert [m.filename for m in files.attachments] == ["a.bin", "b"]
    assert (
        opencode_v1.codemode({"content": [{"type": "resource", "resource": {"uri": "u", "text": ""}}]}).script_value
        == ""
    )


def test_opencode_v2_output_rules():
    text = {"content": [{"type": "text", "text": "[1, 2]"}]}
    assert opencode_v2.direct(text).output == [1, 2]
    assert opencode_v2.direct(text, output_schema=True).output == "[1, 2]"
    assert opencode_v2.direct({"content": [{"type": "text", "text": ' {"a":1}'}]}).output == ' {"a":1}'
    assert opencode_v2.direct({"content": [{"type": "text", "text": "{oops"}]}).output == "{oops"
    assert opencode_v2.direct({"content": [], "structuredContent": {}}).output == {}
    err = opencode_v2.direct({"isError": True, "content": [{"type": "resource_link", "uri": "u://x", "name": "x"}]})
    assert err.error == "u://x"


def test_lootbox_returns_the_envelope_and_never_throws_on_iserror():
    view = lootbox.script({"isError": True, "content": [{"type": "text", "text": "no", "annotations": {"a": 1}}]})
    assert view.error is None
    assert view.script_value == {"content": [{"type": "text", "text": "no"}], "isError": True}
    assert any(c.subject == "content[0] (text) annotations" for c in view.changes)


def test_cloudflare_unwrap_order_and_clip():
    assert cloudflare.script({"content": [], "toolResult": {"legacy": True}}).script_value == {"legacy": True}
    assert cloudflare.script({"content": [{"type": "text", "text": "42"}]}).script_value == 42
    long = cloudflare.script({"content": [{"type": "text", "text": "x" * 30_000}]})
    assert len(long.host_text) == 24_000
    assert long.script_value == "x" * 30_000
    spaces = cloudflare.script({"isError": True, "content": [{"type": "text", "text": "   "}]})
    assert spaces.host_text == "Error:    "


def test_mcpx_call_renders_one_text_block():
    structured = mcpx.call({"content": [{"type": "text", "text": "t"}], "structuredContent": {"n": 42}})
    assert structured.parts[0].text == '{\n  "n": 42\n}'
    failed = mcpx.call({"isError": True, "content": [{"type": "text", "text": "boom"}]})
    assert failed.outcome == "delivered"
    assert failed.parts[0].text == "boom"
    assert any(c.subject == "isError" and c.action == "dropped" for c in failed.changes)
    image = mcpx.call({"content": [PNG]})
    assert image.parts[0].text.startswith('{"content":[{"type":"image"')
    assert mcpx.call({"content": [], "structuredContent": None}).parts[0].text == "null"


def test_mcpx_says_a_result_meta_is_dropped_only_where_its_text_does_not_hold_it():
    meta = {"vendor.example/trace": "t-1"}
    with_text = mcpx.call({"content": [{"type": "text", "text": "t"}], "_meta": meta})
    assert [c.subject for c in with_text.changes if c.action == "dropped"] == ["result _meta"]
    assert "vendor.example/trace" not in with_text.parts[0].text
    raw = mcpx.call({"content": [PNG], "_meta": meta})
    assert "vendor.example/trace" in raw.parts[0].text, "the raw result JSON is the text"
    assert "result _meta" not in [c.subject for c in raw.changes]


@pytest.mark.parametrize(
    ("revision", "expected_type", "has_result_type"),
    [
        ("2026-07-28", "resource_link", True),
        ("2025-11-25", "resource_link", False),
        ("2025-06-18", "resource_link", False),
        ("2025-03-26", "resource", False),
    ],
)
def test_mcpx_downgrade(revision, expected_type, has_result_type):
    result = {
        "resultType": "complete",
        "content": [
            {"type": "resource_link", "uri": "mcpx://artifacts/1", "name": "chart.png", "mimeType": "image/png"}
        ],
    }
    out, changes = mcpx.downgrade(result, revision)
    assert out["content"][0]["type"] == expected_type
    assert ("resultType" in out) is has_result_type
    if expected_type == "resource":
        assert out["content"][0]["resource"] == {
            "uri": "mcpx://artifacts/1",
            "mimeType": "image/png",
            "text": "chart.png — mcpx://artifacts/1",
        }
        assert any("CT-06" in change for change in changes)
    assert result["content"][0]["type"] == "resource_link", "the input is not modified"


def test_mcpx_downgrade_older_revisions():
    result = {"content": [{"type": "audio", "data": "AAAA", "mimeType": "audio/wav"}], "structuredContent": {"a": 1}}
    out, _ = mcpx.downgrade(result, "2024-11-05")
    assert [b["type"] for b in out["content"]] == ["text", "text"]
    assert "structuredContent" not in out


def test_prompt_views():
    v1, v2, flattened = prompt_views(COMPOSED["prompt_few_shot"], arguments=["diff"])
    assert v1.script_value == {"template": "Review this change: $1\nI will look for bugs first.\n\n", "hints": ["$1"]}
    assert v2.script_value["prompt"] == "Review this change: $1\nI will look for bugs first."
    assert any(c.subject == "messages[2] (image)" for c in v1.changes)
    text = flattened.parts[0].text
    assert text == "Review a diff\n\nReview this change: $1\n\n[assistant] I will look for bugs first."
    assert any("resource" in c.subject for c in flattened.changes)


def test_ten_megabyte_image_stays_small_in_views():
    data = base64.b64encode(b"\x89PNG" + b"\0" * (10 * 1024 * 1024)).decode()
    result = {"content": [{"type": "image", "data": data, "mimeType": "image/png"}]}
    views = tool_views(result)
    assert views[0].attachments[0].bytes == 10 * 1024 * 1024 + 4
    rendered = json.dumps([view_data(view) for view in views])
    assert len(rendered) < 50_000
    assert shorten("x" * 200, 10) == "xxxxxxxxxx… [200 characters]"


def test_absent_is_not_null():
    view = opencode_v1.direct({"content": []})
    assert view.script_value is ABSENT
    assert "script_value" not in view_data(view)


def test_agreement_flags_a_register_state_the_model_contradicts():
    from comparison.hosts.agreement import row_host_views

    # The resource_link example: opencode v1's direct path drops the link, lootbox keeps it.
    _, entries = row_host_views("CT-05", {"opencode-v1": "has", "lootbox": "lacks"})
    by_key = {entry.view.key: entry for entry in entries}
    assert (by_key["opencode-v1"].assessment, by_key["opencode-v1"].agreement) == ("dropped", "disagrees")
    assert (by_key["lootbox"].assessment, by_key["lootbox"].agreement) == ("kept", "disagrees")
    _, entries = row_host_views("CT-05", {"opencode-v1": "lacks", "lootbox": "has"})
    by_key = {entry.view.key: entry for entry in entries}
    assert by_key["opencode-v1"].agreement == by_key["lootbox"].agreement == "agrees"
    assert by_key["opencode-v1-codemode"].agreement == "", "code mode is shown, not checked"


def test_a_stored_host_view_reads_back_whatever_the_database_holds():
    """Result pages read host views back from JSON that may be old or damaged: each field of the
    wrong kind reads as empty, and a view written by this version reads back equal."""
    from comparison.hosts import tool_views
    from comparison.hosts.present import PresentedView, present

    damaged = {
        "key": 5,
        "parts": [None, {"file": {"mime": "image/png", "bytes": "9"}}, {"text": "kept"}],
        "changes": [None, {"rows": [1, "CT-01"], "action": "dropped"}],
        "attachments": "x",
        "notes": ["a", 2],
        "host_is_error": "yes",
    }
    view = PresentedView.from_json(damaged)
    assert view.key == ""
    assert view.attachments == ()
    assert view.notes == ("a",)
    assert [part.text for part in view.parts] == [None, None, "kept"]
    assert view.parts[1].file.bytes == 0
    assert view.changes[1].rows == ("CT-01",)
    assert view.changes[1].action == "dropped"
    assert view.host_is_error is None
    assert not view.has_script_value
    for stored in (None, 1, "x", []):
        assert PresentedView.from_json(stored).key == ""
    result = {"content": [{"type": "text", "text": "hi"}], "structuredContent": {"a": 1}, "isError": False}
    for shown in (present(v) for v in tool_views(result)):
        assert PresentedView.from_json(shown.to_json()) == shown
