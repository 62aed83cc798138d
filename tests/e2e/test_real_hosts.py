"""Differential checks against the real hosts: the @cloudflare/codemode package under Node and the
opencode binary driven headless. The real host wins: a difference here means the model is wrong.

Needs `npm install` in comparison/hostlab/node (scripts/test.sh does it)."""

from __future__ import annotations

import json

import pytest

from comparison.hostlab import codemode_node as real_cloudflare
from comparison.hostlab.compare import error_signature
from comparison.hostlab.install import missing
from comparison.hostlab.opencode_serve import OpencodeHost
from comparison.hosts import cloudflare, opencode_v1
from comparison.hosts.examples import COMPOSED, vectors

pytestmark = pytest.mark.realhost

CASES = {**vectors(), **{name: value for name, value in COMPOSED.items() if "messages" not in value}}


@pytest.fixture(scope="module", autouse=True)
def installed():
    gaps = missing()
    assert not gaps, f"real hosts not installed ({', '.join(gaps)}): run npm install in comparison/hostlab/node"


def model_outcome(view) -> dict:
    if view.error is not None:
        return {"throws": error_signature(view.error)}
    return {"value": view.script_value}


def real_outcome(outcome: dict) -> dict:
    if "throws" in outcome:
        return {"throws": error_signature(outcome["throws"])}
    return {"value": outcome["value"]}


@pytest.fixture(scope="module")
def cloudflare_results() -> dict[str, dict]:
    results = real_cloudflare.run([{"name": name, "input": value} for name, value in CASES.items()])
    return {item["name"]: item for item in results}


@pytest.mark.parametrize("name", sorted(CASES))
def test_cloudflare_model_matches_the_package(cloudflare_results, name):
    real = cloudflare_results[name]
    view = cloudflare.script(CASES[name])
    assert model_outcome(view) == real_outcome(real["script"])
    if view.error is None:
        assert view.host_text == real["host"]["text"]
    else:
        assert real["host"]["text"].startswith("Error: ")
        assert error_signature(view.host_text.removeprefix("Error: ")) == error_signature(
            real["host"]["text"].removeprefix("Error: ")
        )
    assert view.host_is_error == real["host"]["isError"]


def test_cloudflare_connector_skips_sdk_validation(cloudflare_results):
    """McpConnector has no SDK in between: it unwraps what the SDK path would reject."""
    assert cloudflare_results["structured_null"]["connector"] == {"value": "plain"}
    assert cloudflare_results["unknown_block_type"]["connector"]["value"]["content"][1]["type"] == "video"


@pytest.fixture(scope="module")
def opencode_captures() -> dict[str, object]:
    with OpencodeHost(CASES) as host:
        return {name: host.capture(name) for name in CASES}


def model_delivery(view) -> dict:
    """opencode v1 direct, as the model receives it over an OpenAI-compatible API: the tool
    message text (the error text on failure) and the media; image attachments carry no filename there."""
    text = view.error if view.error is not None else view.parts[0].text
    media = []
    for m in view.attachments:
        item = {"mime": m.mime, "bytes": m.bytes}
        if m.filename is not None and not m.mime.startswith("image/"):
            item["filename"] = m.filename
        media.append(item)
    return {"text": error_signature(text), "attachments": media}


@pytest.mark.parametrize("name", sorted(CASES))
def test_opencode_v1_model_matches_the_binary(opencode_captures, name):
    capture = opencode_captures[name]
    assert capture.tool_text is not None, f"no tool result captured for {name}"
    real = {"text": error_signature(capture.tool_text), "attachments": capture.attachments}
    assert model_delivery(opencode_v1.direct(CASES[name])) == real, json.dumps(capture.request)[:500]


@pytest.fixture(scope="module")
def opencode_codemode_captures() -> dict[str, object]:
    with OpencodeHost(CASES, code_mode=True) as host:
        return {name: host.capture(name) for name in CASES}


def codemode_delivery(view) -> dict:
    """opencode v1 code mode as the model receives it: `execute` returns the script's value (a
    string as is, anything else as 2-space JSON) or the thrown message, plus the attached files."""
    if view.error is not None:
        text = view.error
    elif isinstance(view.script_value, str):
        text = view.script_value
    else:
        text = json.dumps(view.script_value, indent=2, ensure_ascii=False)
    media = [{"mime": m.mime, "bytes": m.bytes} for m in view.attachments]
    return {"text": error_signature(text), "attachments": media}


@pytest.mark.parametrize("name", sorted(CASES))
def test_opencode_v1_codemode_model_matches_the_binary(opencode_codemode_captures, name):
    capture = opencode_codemode_captures[name]
    assert capture.tool_text is not None, f"no execute result captured for {name}"
    real = {
        "text": error_signature(capture.tool_text),
        "attachments": [{"mime": a["mime"], "bytes": a["bytes"]} for a in capture.attachments],
    }
    assert codemode_delivery(opencode_v1.codemode(CASES[name])) == real
