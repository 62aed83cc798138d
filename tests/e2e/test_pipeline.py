"""A proxy's own pipeline: `manage.py probe --junit/--baseline/--update-baseline/--strict-baseline`
and the audit legend. JUnit is read back with an XML parser; the baseline gates run against the
built-in fixture and the real mcp-proxy 0.13.0 in front of it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from comparison.core import pipeline
from comparison.probes.fixture import forkserver
from tests.support.processes import PROJECT, free_port, mcp_proxy_command, server

CELLS = ["--revisions", "2025-06-18", "2025-11-25", "--scenarios", "text", "is-error", "rpc-error", "unknown-type"]


def probe(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "probe", *args],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def result(scenario, verdict, revision="2025-06-18", **more):
    return {"scenario": scenario, "requested_revision": revision, "verdict": verdict, **more}


def test_junit_has_a_case_per_cell_and_fails_what_the_exit_code_fails():
    results = [
        result("text", "as expected", negotiated_revision="2025-06-18", duration_ms=12.5),
        result("text", "changed by proxy", "2025-11-25", diff=[{"path": "result.isError", "change": "added"}]),
        result("odd", "invalid for revision", findings=[{"message": "block type 'x' is defined by no revision"}]),
        result("gone", "failed to probe", failure="connection refused"),
    ]
    root = ET.fromstring(pipeline.junit_xml("my <proxy>", results, seconds=1.5))  # noqa: S314  (our own output)
    suite = root.find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("4", "1", "1")
    cases = suite.findall("testcase")
    assert [(c.get("classname"), c.get("name")) for c in cases] == [
        ("text", "2025-06-18"),
        ("text", "2025-11-25"),
        ("odd", "2025-06-18"),
        ("gone", "2025-06-18"),
    ]
    assert cases[0].get("time") == "0.013"
    assert {p.get("name"): p.get("value") for p in cases[0].iter("property")} == {
        "negotiated_revision": "2025-06-18",
        "target": "my <proxy>",
        "verdict": "as expected",
        "hosts_affected": "",
        "hosts_unaffected": "",
    }
    assert cases[1].find("failure").get("message") == "result.isError added"
    assert cases[2].find("failure") is None
    assert "defined by no revision" in cases[2].find("system-out").text
    assert cases[3].find("error").get("message") == "connection refused"
    strict = ET.fromstring(pipeline.junit_xml("t", results, strict=True))  # noqa: S314
    assert strict.find("testsuite").get("failures") == "2"
    failing = [c.get("classname") for c in strict.iter("testcase") if c.find("failure") is not None]
    assert failing == ["text", "odd"], "strict fails the invalid cell, never a passing one"
    baseline = {("text", "2025-11-25"): "changed by proxy", ("gone", "2025-06-18"): "changed by proxy"}
    gated = ET.fromstring(pipeline.junit_xml("t", results, baseline=baseline)).find("testsuite")  # noqa: S314
    assert (gated.get("failures"), gated.get("errors"), gated.get("skipped")) == ("0", "1", "1")
    skipped = gated.findall("testcase")[1].find("skipped")
    assert skipped.get("message") == "expected by the baseline: changed by proxy"


def test_a_baseline_reads_both_formats_and_names_a_bad_line():
    lines = "# expected\ntext@2025-06-18: as expected\n\nrpc-error@2025-11-25 : changed by proxy\n"
    assert pipeline.read_baseline(lines) == {
        ("text", "2025-06-18"): "as expected",
        ("rpc-error", "2025-11-25"): "changed by proxy",
    }
    as_json = '{"target": "t", "results": [{"scenario": "text", "requested_revision": "2025-06-18", "verdict": "failed to probe"}]}'
    assert pipeline.read_baseline(as_json) == {("text", "2025-06-18"): "failed to probe"}
    with pytest.raises(pipeline.BaselineError, match=r"base.txt, line 2: expected `scenario@YYYY-MM-DD: verdict`"):
        pipeline.read_baseline("text@2025-06-18: as expected\ntext 2025-06-18 as expected\n", "base.txt")
    with pytest.raises(pipeline.BaselineError, match=r"line 1: unknown verdict 'fine'"):
        pipeline.read_baseline("text@2025-06-18: fine\n")
    with pytest.raises(pipeline.BaselineError, match="not a `probe --json` output"):
        pipeline.read_baseline('{"results": [{}]}')


def test_only_cells_worse_than_the_baseline_regress():
    baseline = {("a", "r"): "changed by proxy", ("b", "r"): "as expected", ("gone", "r"): "as expected"}
    found = pipeline.check_baseline(
        baseline,
        [
            result("a", "as expected", "r"),
            result("b", "invalid for revision", "r"),
            result("new", "changed by proxy", "r"),
            result("new-fine", "as expected", "r"),
        ],
    )
    assert found.regressions == [
        ("b", "r", "as expected", "invalid for revision"),
        ("new", "r", "as expected", "changed by proxy"),
    ]
    assert found.stale == [("a", "r", "changed by proxy", "as expected")]
    assert found.unprobed == [("gone", "r")]


def test_the_fixtures_own_baseline_passes_and_a_stale_entry_fails_only_when_strict(tmp_path):
    baseline, junit = tmp_path / "fixture.baseline", tmp_path / "junit.xml"
    first = probe("--builtin", *CELLS, "--update-baseline", str(baseline))
    assert first.returncode == 0, first.stderr
    assert "unknown-type@2025-06-18: invalid for revision" in baseline.read_text()
    again = probe("--builtin", *CELLS, "--baseline", str(baseline), "--junit", str(junit))
    assert again.returncode == 0, again.stderr
    assert "0 regression(s), 0 stale" in again.stdout
    assert ET.parse(junit).getroot().find("testsuite").get("tests") == "8"  # noqa: S314
    baseline.write_text(
        baseline.read_text().replace("text@2025-06-18: as expected", "text@2025-06-18: changed by proxy")
    )
    stale = probe("--builtin", *CELLS, "--baseline", str(baseline))
    assert stale.returncode == 0
    assert "stale baseline entry: text@2025-06-18: changed by proxy, now as expected" in stale.stderr
    strict = probe("--builtin", *CELLS, "--baseline", str(baseline), "--strict-baseline")
    assert strict.returncode == 1
    assert "1 stale entr(ies)" in strict.stderr
    broken = probe("--builtin", *CELLS, "--baseline", str(tmp_path / "missing"))
    assert broken.returncode == 1
    assert "cannot use the baseline" in broken.stderr
    assert "Traceback" not in broken.stderr


def test_writing_the_first_baseline_of_a_proxy_that_changes_things_exits_0_and_the_next_run_holds_it(tmp_path):
    baseline = tmp_path / "relay.baseline"
    relay = " ".join(
        [
            sys.executable,
            str(PROJECT / "tests" / "support" / "relay.py"),
            "--lose",
            "images",
            "--",
            *forkserver.fixture_command(),
        ]
    )
    cells = ["--revisions", "2025-06-18", "--scenarios", "text", "image"]
    first = probe("--command", relay, *cells, "--upstream-fixture", "--update-baseline", str(baseline))
    assert first.returncode == 0, first.stderr
    assert f"baseline written to {baseline}: 2 cell(s)" in first.stdout
    assert "image@2025-06-18: changed by proxy" in baseline.read_text()
    assert probe("--command", relay, *cells, "--upstream-fixture", "--baseline", str(baseline)).returncode == 0
    assert probe("--command", relay, *cells, "--upstream-fixture").returncode == 1, "without a baseline it fails"


def test_the_audit_prints_its_legend():
    audited = probe("--builtin", "--revisions", "2025-06-18", "--scenarios", "rpc-error", "--audit")
    assert audited.returncode == 0, audited.stderr
    for name in ("D Detection", "P Policy", "C Cause", "T Target", "E Executable repair", "R Replay constraints"):
        assert name in audited.stdout


@pytest.mark.peers
def test_mcp_proxys_changes_fail_the_fixtures_baseline(tmp_path):
    baseline, junit = tmp_path / "fixture.baseline", tmp_path / "junit.xml"
    assert probe("--builtin", *CELLS, "--update-baseline", str(baseline)).returncode == 0
    port = free_port()
    with server(mcp_proxy_command(port, *forkserver.fixture_command()), port):
        url = f"http://127.0.0.1:{port}/mcp"
        through = probe("--url", url, "--upstream-fixture", *CELLS, "--baseline", str(baseline), "--junit", str(junit))
    assert through.returncode == 1
    regressions = sorted(line for line in through.stderr.splitlines() if line.startswith("regression:"))
    # `isError: false` on text is the schema's default (no change); the unknown block is lost.
    assert regressions == [
        f"regression: {scenario}@{revision}: {was} → {now}"
        for scenario, was, now in (
            ("rpc-error", "as expected", "changed by proxy"),
            ("unknown-type", "invalid for revision", "lost by proxy"),
        )
        for revision in ("2025-06-18", "2025-11-25")
    ]
    suite = ET.parse(junit).getroot().find("testsuite")  # noqa: S314
    failed = sorted(
        (c.get("classname"), c.get("name")) for c in suite.findall("testcase") if c.find("failure") is not None
    )
    assert failed == [(s, r) for s in ("rpc-error", "unknown-type") for r in ("2025-06-18", "2025-11-25")]
    error = next(c for c in suite.findall("testcase") if c.get("classname") == "rpc-error")
    assert error.find("failure").get("message").startswith("error removed; result added")


@pytest.mark.peers
def test_the_ci_recipe_end_to_end_against_mcp_proxy(tmp_path):
    """scripts/ci_probe.sh as the README's workflow calls it: the first run writes the baseline,
    the next passes on it; the fixture's own baseline fails on mcp-proxy's changes."""
    port = free_port()
    env = {
        **os.environ,
        "PROXY_COMMAND": f"{PROJECT}/.venv-peers/bin/mcp-proxy --host 127.0.0.1 --port {port} -- $FIXTURE",
    }
    cells = ["--", "--revisions", "2025-06-18", "--scenarios", "text", "is-error", "rpc-error"]

    def recipe(baseline: str, out: str) -> subprocess.CompletedProcess:
        command = [f"{PROJECT}/scripts/ci_probe.sh", "--port", str(port), "--baseline", baseline, "--out", out, *cells]
        return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180, check=False)

    first = recipe("proxy.baseline", "first")
    assert first.returncode == 0, first.stderr
    assert "wrote the baseline" in first.stdout
    assert (tmp_path / "proxy.baseline").read_text().count("changed by proxy") == 1, "rpc-error; text's default is none"
    again = recipe("proxy.baseline", "again")
    assert again.returncode == 0, again.stderr
    suite = ET.parse(tmp_path / "again" / "junit.xml").getroot().find("testsuite")  # noqa: S314
    assert (suite.get("failures"), suite.get("skipped")) == ("0", "1"), "the baseline's expected change is skipped"
    assert probe("--builtin", *cells[1:], "--update-baseline", str(tmp_path / "fixture.baseline")).returncode == 0
    gated = recipe("fixture.baseline", "gated")
    assert gated.returncode == 1
    assert "regression: text@" not in gated.stderr
    assert "regression: rpc-error@2025-06-18: as expected → changed by proxy" in gated.stderr
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()  # the proxy was stopped


def test_junit_structure_in_full():
    results = [
        result("text", "changed by proxy", negotiated_revision="2025-06-18", duration_ms=1500,
               diff=[{"path": "result.isError", "change": "added"}, {"path": "result.x"}]),
        result("gone", "failed to probe", "2025-11-25", failure="refused"),
        result("odd", "invalid for revision", findings=[{"message": "one"}, {"message": "two"}, {}]),
        result("fine", "as expected"),
    ]  # fmt: skip
    text = pipeline.junit_xml("proxy", results, seconds=2.25)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')
    root = ET.fromstring(text)  # noqa: S314  (our own output)
    assert root.tag == "testsuites"
    assert root.attrib == {"name": "mcp-compare", "tests": "4", "failures": "1", "errors": "1"}
    suite = root.find("testsuite")
    assert suite.attrib == {
        "name": "mcp-compare probe: proxy", "tests": "4", "failures": "1", "errors": "1", "skipped": "0", "time": "2.250",
    }  # fmt: skip
    assert [(p.tag, p.get("name"), p.get("value")) for p in suite.find("properties")] == [
        ("property", "target", "proxy")
    ]
    text_case, gone, odd, fine = suite.findall("testcase")
    assert text_case.get("time") == "1.500"
    assert fine.get("time") == "0.000"
    assert [(p.get("name"), p.get("value")) for p in text_case.find("properties")] == [
        ("negotiated_revision", "2025-06-18"),
        ("target", "proxy"),
        ("verdict", "changed by proxy"),
        ("hosts_affected", ""),
        ("hosts_unaffected", ""),
    ]
    assert gone.find("properties")[0].get("value") == "", "no negotiated revision"
    failure = text_case.find("failure")
    assert failure.attrib == {"message": "result.isError added; result.x", "type": "changed by proxy"}
    assert failure.text == "result.isError added; result.x"
    error = gone.find("error")
    assert (error.attrib, error.text) == ({"message": "refused", "type": "failed to probe"}, "refused")
    assert odd.find("system-out").text == "invalid for revision (not failing without --strict): one; two; "
    assert list(fine) == [fine.find("properties")], "a passing case has nothing but its properties"
    long = pipeline.junit_xml("t", [result("big", "changed by proxy", failure="y" * 1500)])
    long_failure = ET.fromstring(long).find("testsuite/testcase/failure")  # noqa: S314
    assert len(long_failure.get("message")) == 1000
    long_error = pipeline.junit_xml("t", [result("big", "failed to probe", failure="z" * 1500)])
    assert len(ET.fromstring(long_error).find("testsuite/testcase/error").get("message")) == 1000  # noqa: S314
    assert len(long_failure.text) == 1500
    several = [result(f"s{i}", "failed to probe", failure="f") for i in range(3)]
    several += [result(f"c{i}", "changed by proxy", diff=[]) for i in range(2)]
    counted = ET.fromstring(pipeline.junit_xml("t", several)).find("testsuite")  # noqa: S314
    assert (counted.get("errors"), counted.get("failures")) == ("3", "2")
    baseline = {(f"s{i}", "2025-06-18"): "failed to probe" for i in range(3)}
    skipped = ET.fromstring(pipeline.junit_xml("t", several, baseline=baseline)).find("testsuite")  # noqa: S314
    assert (skipped.get("errors"), skipped.get("skipped")) == ("0", "3")
    assert skipped.find("testcase/skipped").text == "f"


def test_baselines_read_leading_space_comments_and_name_their_file():
    text = "\n  # indented comment\n  text@2025-06-18: as expected\n"
    assert pipeline.read_baseline(text) == {("text", "2025-06-18"): "as expected"}
    assert pipeline.read_baseline('\n  {"results": []}') == {}
    with pytest.raises(pipeline.BaselineError, match=r"^mine.json: unknown verdict 'odd'"):
        pipeline.read_baseline(
            '{"results": [{"scenario": "a", "requested_revision": "r", "verdict": "odd"}]}', "mine.json"
        )
    with pytest.raises(pipeline.BaselineError, match=r"^mine.txt, line 1: unknown verdict"):
        pipeline.read_baseline("a@2025-06-18: odd\n", "mine.txt")
    written = pipeline.write_baseline([result("a", "changed by proxy")], "my proxy")
    assert written == (
        "# mcp-compare baseline for my proxy: scenario@revision: verdict (the expected result of each cell)\n"
        "a@2025-06-18: changed by proxy\n"
    )
    assert pipeline.read_baseline(written) == {("a", "2025-06-18"): "changed by proxy"}
