"""Compare views (issue 37, item 2 and stumble 2): two hosts or two revisions side by side on the
rows and matrix pages, as permalinks, with the API and the exports as twins. The expected rows are
read off the shipped registers' own strips and host states, not off the code under test."""

from __future__ import annotations

import json
import re

import pytest

from comparison.services.probing import ensure_builtin_target
from comparison.tasks import start_run
from registers.models import Row
from tests.registers.test_reports import body
from tests.support.relay_targets import relay_target

pytestmark = pytest.mark.django_db
REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
STATED = {"has", "partial", "lacks", "n/a"}


def listed(html: str) -> list[str]:
    return re.findall(r'<tr id="row-([A-Z]+-\d+)">', html)


def expected_revision_rows(first: str, second: str) -> set[str]:
    found = set()
    for row in Row.objects.all():
        support = row.facts["support"]
        a, b = support.get(first, "unknown"), support.get(second, "unknown")
        if "unknown" not in (a, b) and a != b:
            found.add(row.row_id)
    return found


def expected_host_rows(first: str, second: str) -> set[str]:
    found = set()
    for row in Row.objects.all():
        hosts = row.facts["hosts"]
        a, b = hosts.get(first), hosts.get(second)
        if a in STATED and b in STATED and a != b:
            found.add(row.row_id)
    return found


def test_introduced_means_absent_before_and_present_now(loaded, client):
    """CT-07's label says `2025-06-18 has`, its own strip says it exists from 2024-11-05."""
    ct07 = Row.objects.get(row_id="CT-07").facts["support"]
    assert ct07["2024-11-05"] == "exists"
    introduced = set(listed(client.get("/?revision=2025-06-18&rev_mode=introduced").content.decode()))
    assert "CT-07" not in introduced
    expected = {
        row.row_id
        for row in Row.objects.all()
        if row.facts["support"].get("2025-03-26") == "absent"
        and row.facts["support"].get("2025-06-18") in ("exists", "deprecated")
    }
    html = client.get("/?revision=2025-06-18&rev_mode=introduced").content.decode()
    assert f"{len(expected)} rows match" in html
    assert expected


def test_two_revisions_side_by_side_with_the_direction(loaded, client):
    url = "/?revision=2025-03-26&vs_revision=2025-06-18"
    html = client.get(url).content.decode()
    expected = expected_revision_rows("2025-03-26", "2025-06-18")
    assert f"{len(expected)} rows match" in html
    assert set(listed(html)) <= expected
    assert '<th scope="col" class="compared">2025-03-26 against 2025-06-18</th>' in html
    assert '<span class="rev rev-absent">absent</span> → <span class="rev rev-exists">exists</span>' in html
    assert "(added)" in html
    matrix = client.get("/matrix/?revision=2025-03-26&vs_revision=2025-06-18").content.decode()
    assert matrix.count('<td class="compared">') == min(len(expected), 50)
    assert f"{len(expected)} rows." in matrix


def test_two_hosts_side_by_side_and_the_rows_where_one_is_not_stated(loaded, client):
    html = client.get("/?host=opencode-v1&vs_host=opencode-v2").content.decode()
    expected = expected_host_rows("opencode-v1", "opencode-v2")
    assert sorted(listed(html)) == sorted(expected)
    assert expected, "the shipped registers state both opencode versions differently somewhere"
    assert "opencode v1 against opencode v2" in html
    cloudflare = client.get("/?host=opencode-v1&vs_host=cloudflare").content.decode()
    assert listed(cloudflare) == sorted(expected_host_rows("opencode-v1", "cloudflare"))
    assert 'href="?host=opencode-v1&amp;vs_host=cloudflare&amp;vs_all=1"' in cloudflare
    everything = client.get("/?host=opencode-v1&vs_host=cloudflare&vs_all=1").content.decode()
    assert len(listed(everything)) > len(listed(cloudflare))
    assert '<span class="host host-not-mentioned">not mentioned</span>' in everything


def test_the_api_and_the_exports_are_the_compare_views_twins(loaded, client):
    query = "revision=2025-03-26&vs_revision=2025-06-18"
    expected = expected_revision_rows("2025-03-26", "2025-06-18")
    api = json.loads(client.get(f"/api/v1/rows/?{query}").content)
    assert api["comparisons"] == [
        {"kind": "revisions", "first": "2025-03-26", "second": "2025-06-18", "stated_only": True}
    ]
    assert {row["row_id"] for row in api["rows"]} == expected
    prm01 = next(row for row in api["rows"] if row["row_id"] == "PRM-01")
    assert prm01["compared"][0]["states"] == ["absent", "exists"]
    assert prm01["compared"][0]["change"] == "added"
    exported = json.loads(body(client.get(f"/export.json?{query}")))
    assert {row["row_id"] for row in exported["rows"]} == expected
    assert exported["filter"] == [["revision", "2025-03-26"], ["vs_revision", "2025-06-18"]]
    assert all(row["compared"] for row in exported["rows"])
    html = body(client.get("/export.html?host=opencode-v1&vs_host=opencode-v2"))
    assert "<dt>opencode-v1 against opencode-v2</dt>" in html


def test_a_comparison_with_one_side_or_the_same_side_twice_says_so(loaded, client):
    html = client.get("/?vs_host=cloudflare&host=cloudflare").content.decode()
    assert "Ignored unknown filter values: vs_host=cloudflare" in html
    assert 'class="compared-summary"' not in html


def test_a_compare_page_costs_the_same_queries_as_any_list_page(loaded, client, django_assert_max_num_queries):
    client.get("/?revision=2025-03-26")
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as plain:
        client.get("/?revision=2025-03-26&rev_mode=absent")
    with CaptureQueriesContext(connection) as compared:
        client.get("/?revision=2025-03-26&vs_revision=2025-06-18&host=opencode-v1&vs_host=opencode-v2")
    assert len(compared) == len(plain)


@pytest.mark.django_db
def test_the_comparison_leads_with_its_summary_and_lists_only_what_differs(client):
    """Issue 26, a first-time user's row 6."""
    from comparison.selectors.compare import SCENARIO_TITLES

    built_in = ensure_builtin_target()
    scenarios = ["is-error", "rpc-error"]
    direct = start_run(target=built_in, revisions=["2025-06-18"], scenarios=scenarios)
    relayed = start_run(target=relay_target("is-error"), revisions=["2025-06-18"], scenarios=scenarios)
    url = f"/probes/compare/?run={direct.pk}&run={relayed.pk}"
    html = client.get(url).content.decode()
    assert html.index('id="summary-h"') < html.index('id="charts-h"') < html.index('id="cells-h"')
    cells = html[html.index('id="compare-cells"') :]
    title = SCENARIO_TITLES["is-error"]
    assert f"<td>{title} <code>is-error</code></td>" in cells, "named as the run page names it"
    assert "<code>rpc-error</code>" not in cells, "both runs agree on it: not listed by default"
    assert "1 of 2 scenario × revision cells: the cells that differ" in html
    assert 'href="?run=' in html
    assert "Show every cell" in html
    assert "a bar on the left: the runs' verdicts differ on this line" in html
    every = client.get(url + "&only=all").content.decode()
    assert "<code>rpc-error</code>" in every[every.index('id="compare-cells"') :]
    assert "Show every cell" not in every
    for run in (direct, relayed):
        assert f'<input type="checkbox" name="run" value="{run.pk}" checked>' in html, (
            "runs are ticked, not Ctrl-clicked"
        )
    assert 'multiple size="6"' not in html


@pytest.mark.django_db
def test_compare_runs_side_by_side_opens_the_picker_with_nothing_chosen(client):
    """A newcomer following the README (the 'ready for a team' report)."""
    run = start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text"])
    probes = client.get("/probes/").content.decode()
    assert 'href="/probes/compare/?run="' in probes
    picker = client.get("/probes/compare/?run=")
    assert picker.status_code == 200
    html = picker.content.decode()
    assert 'id="compare-many-form"' in html
    assert f'value="{run.pk}"' in html, "the runs to choose from"
    assert client.get("/probes/compare/?run=x").status_code == 404, "a value that is not a number still says so"


@pytest.mark.django_db
def test_runs_compared_side_by_side_say_what_each_target_said_it_was(client):
    """A newcomer following the README (the 'ready for a team' report)."""
    from comparison.models import ProbeRun

    target = ensure_builtin_target()
    first = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    second = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    ProbeRun.objects.filter(pk=second.pk).update(server_identity="mcp-compare-fixture 0.9.0")
    query = f"run={first.pk}&run={second.pk}"
    html = client.get(f"/probes/compare/?{query}").content.decode()
    assert "said: mcp-compare-fixture 1.0.0" in html
    assert "said: mcp-compare-fixture 0.9.0" in html
    columns = client.get(f"/api/v1/compare/?{query}").json()["runs"]
    assert [c["identity"] for c in columns] == ["mcp-compare-fixture 1.0.0", "mcp-compare-fixture 0.9.0"]
    markdown = client.get(f"/probes/compare/?{query}&format=md").content.decode()
    assert f"#{second.pk} {target.name} (mcp-compare-fixture 0.9.0)" in markdown
