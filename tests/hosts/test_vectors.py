"""Every vector passes for every host path; the check itself can fail; the command reports it."""

from __future__ import annotations

import copy
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from comparison.hosts import TOOL_PATHS
from comparison.hosts.examples import VECTORS
from comparison.hosts.vectors import differences, normal_form

DATA = json.loads(VECTORS.read_text(encoding="utf-8"))
PATHS = {path.key: path for path in TOOL_PATHS}
CASES = [(v["name"], key) for v in DATA["vectors"] for key in v["expect"]]


def check(vector: dict, key: str) -> list[str]:
    return differences(vector["expect"][key], normal_form(key, PATHS[key].render(vector["input"])))


@pytest.mark.parametrize(("name", "key"), CASES, ids=[f"{n}-{k}" for n, k in CASES])
def test_vector(name, key):
    vector = next(v for v in DATA["vectors"] if v["name"] == name)
    assert check(vector, key) == []


def test_every_vector_has_every_host_path():
    assert len(DATA["vectors"]) == 20
    for vector in DATA["vectors"]:
        assert set(vector["expect"]) == set(PATHS) - {"mcpx"}


@pytest.mark.parametrize(
    ("key", "field", "wrong"),
    [
        ("opencode-v1", "model_text", "something else"),
        ("cloudflare", "host_is_error", True),
        ("opencode-v2", "model_parts", []),
        ("lootbox", "throws", {"match": "boom"}),
    ],
)
def test_a_wrong_expectation_fails(key, field, wrong):
    vector = copy.deepcopy(DATA["vectors"][0])
    vector["expect"][key][field] = wrong
    assert check(vector, key), "the comparison must be able to fail"


def test_command_checks_a_vectors_file(tmp_path):
    out = StringIO()
    call_command("host_views", "--vectors", str(VECTORS), stdout=out)
    assert out.getvalue().splitlines()[-1] == "120 passed, 0 failed"
    broken = copy.deepcopy(DATA)
    broken["vectors"][0]["expect"]["opencode-v1"]["model_text"] = "not what happens"
    path = tmp_path / "vectors.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    out = StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("host_views", "--vectors", str(path), stdout=out)
    assert caught.value.returncode == 1
    assert "FAIL text_single" in out.getvalue()
    assert "119 passed, 1 failed" in out.getvalue()


def test_command_prints_views_of_one_result(tmp_path):
    path = tmp_path / "result.json"
    path.write_text(json.dumps({"content": [{"type": "audio", "data": "AAAA", "mimeType": "audio/wav"}]}))
    out = StringIO()
    call_command("host_views", str(path), "--json", stdout=out)
    views = {item["key"]: item for item in json.loads(out.getvalue())}
    assert set(views) == set(PATHS)
    assert views["opencode-v1"]["changes"][0]["action"] == "dropped"
    out = StringIO()
    call_command("host_views", str(path), "--host", "opencode-v1", stdout=out)
    assert "dropped: content[0] (audio)" in out.getvalue()
    assert "lootbox" not in out.getvalue()
    path.write_text("{not json")
    with pytest.raises(CommandError, match="not JSON"):
        call_command("host_views", str(path))
