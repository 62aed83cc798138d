"""Three real runs compared: the built-in fixture, mcp-proxy 0.13.0 and supergateway 4.0.0, the
two proxies registered by `manage.py add_peer_targets` in front of the fixture and started by
each run. mcp-proxy adds `isError: false` and turns JSON-RPC errors into results; supergateway
changes nothing. scripts/test.sh installs the peers."""

from __future__ import annotations

import csv
import io
import json
import re
import socket

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from comparison.models import ProbeTarget
from comparison.services.peer_targets import PEERS_TO_ADD
from comparison.services.probing import ensure_builtin_target
from comparison.tasks import start_run

pytestmark = [pytest.mark.peers, pytest.mark.django_db]
SCENARIOS = ["tools-list", "text", "image", "is-error", "rpc-error", "prompt-multi"]
REVISIONS = ["2025-06-18", "2025-11-25", "2026-07-28"]


def port_free(url: str) -> bool:
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return False
    except OSError:
        return True


@pytest.fixture
def three_runs(db):
    call_command("add_peer_targets", "--no-install", stdout=io.StringIO())
    targets = [ensure_builtin_target(), *(ProbeTarget.objects.get(name=peer.name) for peer in PEERS_TO_ADD)]
    runs = [start_run(target=target, revisions=REVISIONS, scenarios=SCENARIOS) for target in targets]
    return targets, runs


def test_peer_targets_are_launched_by_the_run_and_stopped_after(three_runs):
    targets, runs = three_runs
    assert [run.status for run in runs] == ["done"] * 3, [run.error for run in runs]
    assert all(run.results.count() == len(SCENARIOS) * len(REVISIONS) for run in runs)
    for target in targets[1:]:
        assert target.url.startswith("http://127.0.0.1:")
        assert target.launch
        assert port_free(target.url), "the proxy is stopped after the run"
    out = io.StringIO()
    call_command("add_peer_targets", "--no-install", stdout=out)
    assert out.getvalue().count("updated probe target") == 2
    assert ProbeTarget.objects.get(name=PEERS_TO_ADD[0].name).url == targets[1].url, "a target keeps its port"


def scores(html: str) -> list[str]:
    row = re.search(r'<tr class="interop">(.*?)</tr>', html, re.S).group(1)
    return re.findall(r"<strong>([\d.]+%)</strong> \((\d+/\d+)\)", row)


def check_the_comparison_page_over_the_three_runs(three_runs, client):
    _, runs = three_runs
    query = "&".join(f"run={run.pk}" for run in runs)
    html = client.get(f"/probes/compare/?{query}").content.decode()
    # 18 scored cells a run (tools-list is compared with the fixture probed directly). Through
    # mcp-proxy every host gets the upstream's answer but for rpc-error (an error turned into an
    # isError result): the `isError: false` it adds to text and image is the schema's default. A host
    # is scored only at revisions it negotiates (lootbox never negotiates 2025-11-25).
    assert scores(html) == [("100.0%", "18/18"), ("83.3%", "15/18"), ("100.0%", "18/18")]
    hosts = ("codex", "claude-code", "gemini-cli", "qwen-code", "copilot", "cline", "kilo", "continue", "opencode-v1",
             "opencode-v2", "lootbox", "cloudflare")  # fmt: skip
    per_host = {host: re.findall(rf'<td data-host="{host}" data-run="\d+">([^<]*)', html)[1].strip() for host in hosts}
    # Every host loses the rpc-error cells at the revisions it negotiates: mcp-proxy answers
    # 2026-07-28 with 2025-11-25, which Cloudflare negotiates; lootbox stops at 2025-06-18. The
    # hosts the lab measures are scored on the tool results (4 × 3 cells) from the shipped chips:
    # Codex CLI and Gemini CLI ask for 2025-06-18, so only that revision's cell counts for them.
    assert per_host == {
        "codex": "91.7% (11/12)",
        "claude-code": "75.0% (9/12)",
        "gemini-cli": "91.7% (11/12)",
        "qwen-code": "75.0% (9/12)",
        "copilot": "75.0% (9/12)",
        # Cline asks for 2024-11-05: it never meets the answers of the revisions probed here.
        "cline": "100.0% (12/12)",
        "kilo": "75.0% (9/12)",
        "continue": "75.0% (9/12)",
        "opencode-v1": "83.3% (15/18)",
        "opencode-v2": "83.3% (15/18)",
        "lootbox": "93.3% (14/15)",
        "cloudflare": "80.0% (12/15)",
    }
    assert 'data-host="mcpx"' not in html, "the registers' subject proxy is not a host"
    cells = html[html.index('id="compare-cells"') :]
    # Every run agrees on text (mcp-proxy's `isError: false` is the default): not listed by default.
    assert "<code>text</code></td><td>2025-06-18</td>" not in cells
    error_line = re.search(
        r"<tr[^>]*><td>[^<]*<code>rpc-error</code></td><td>2025-11-25</td>(.*?)</tr>", cells, re.S
    ).group(1)
    # lootbox never negotiates 2025-11-25: nothing there differs for it.
    assert (
        "differs for claude-code, qwen-code, copilot, kilo, continue, opencode-v1, opencode-v2, cloudflare"
        in error_line.split("</td><td>")[1]
    )
    assert "<code>error removed</code>" in error_line
    assert "<code>result added</code>" in error_line
    assert html.count("<svg") == 3
    dpcter = html[html.index('id="compare-dpcter"') :]
    detection = re.search(r"<tr><th scope=\"row\">D · Detection</th>(.*?)</tr>", dpcter, re.S).group(1)
    assert '<td class="reference">18 / 21 of 21</td>' in detection
    outputs = re.findall(r"<td>(\d+ / \d+ of \d+)", detection)
    assert outputs == ["6 / 6 of 6"] * 3, "each target's output detects its six failures"


def check_the_comparison_exports_say_what_the_page_says(three_runs, client):
    _, runs = three_runs
    query = "&".join(f"run={run.pk}" for run in runs)
    data = json.loads(client.get(f"/probes/compare/?{query}&format=json").content)
    assert [r["interop"]["overall"]["percent"] for r in data["runs"]] == [100.0, 83.3, 100.0]
    assert [r["interop"]["hosts"]["lootbox"]["percent"] for r in data["runs"]] == [100.0, 93.3, 100.0]
    assert [r["counts"]["changed by proxy"] for r in data["runs"]] == [0, 3, 0], "rpc-error × 3"
    proxy_output = [r["dpcter"][0]["consumers"]["proxy output"] for r in data["runs"]]
    assert [p["total"] for p in proxy_output] == [6, 6, 6]
    assert proxy_output[1]["typed"] == 6, "every is-error and rpc-error cell is detected in mcp-proxy's output"
    rows = list(csv.DictReader(io.StringIO(client.get(f"/probes/compare/?{query}&format=csv").content.decode())))
    assert len(rows) == 3 * len(SCENARIOS) * len(REVISIONS)
    assert {r["verdict"] for r in rows if r["target"] == "supergateway → fixture"} <= {
        "as expected",
        "invalid for revision",
    }
    markdown = client.get(f"/probes/compare/?{query}&format=md").content.decode()
    assert "| interop (every host) | 100.0% (18/18) | 83.3% (15/18) | 100.0% (18/18) |" in markdown
    report = client.get(f"/probes/compare/?{query}&format=html")
    assert report["Content-Disposition"].endswith('.html"')
    assert report.content.count(b"<svg") == 3
    assert b"<script" not in report.content
    assert b'<meta name="viewport"' in report.content


def check_the_comparison_keeps_its_queries_constant(three_runs, client):
    _, runs = three_runs
    with CaptureQueriesContext(connection) as two:
        client.get(f"/probes/compare/?run={runs[0].pk}&run={runs[1].pk}")
    with CaptureQueriesContext(connection) as three:
        client.get("/probes/compare/?" + "&".join(f"run={run.pk}" for run in runs))
    assert len(two) == len(three)


def check_the_target_page_shows_each_runs_score_and_the_trend(three_runs, client):
    targets, runs = three_runs
    html = client.get(f"/probes/targets/{targets[1].pk}/").content.decode()
    assert '<td class="score">83.3% (15/18)</td>' in html
    assert "Interop score over this target" in html
    listing = client.get("/probes/").content.decode()
    link = re.search(r'id="compare-latest" href="([^"]+)"', listing).group(1).replace("&amp;", "&")
    assert link.endswith("?" + "&".join(f"run={run.pk}" for run in runs))


def test_the_three_runs_compared(three_runs, client):
    """One set of real runs (about 10 s) for every page and export that shows them."""
    check_the_comparison_page_over_the_three_runs(three_runs, client)
    check_the_comparison_exports_say_what_the_page_says(three_runs, client)
    check_the_comparison_keeps_its_queries_constant(three_runs, client)
    check_the_target_page_shows_each_runs_score_and_the_trend(three_runs, client)


def test_a_launch_command_needs_a_loopback_url():
    target = ProbeTarget(name="remote", transport="http", url="http://example.test:3301/mcp", launch=["proxy"])
    with pytest.raises(ValidationError, match="loopback"):
        target.full_clean()
    bad = ProbeTarget(name="bad", transport="http", url="http://127.0.0.1:3301/mcp", launch="proxy --port 3301")
    with pytest.raises(ValidationError, match="list of arguments"):
        bad.full_clean()
