"""The row list in a real headless Chromium (Debian's package), driven by Playwright.

Playwright's own browser download does not work here, so the test launches the system
Chromium by path (CHROMIUM_PATH, default /usr/bin/chromium)."""

from __future__ import annotations

import os
import re

import pytest

from comparison.probes.run.scenarios import FIXTURE
from registers.loader import load_registers
from tests.conftest import SHIPPED

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def visible_row_ids(page) -> list[str]:
    return [
        row_id.removeprefix("row-")
        for row_id in page.locator("table.rows tbody tr[id]").evaluate_all("rows => rows.map(r => r.id)")
    ]


def wait_for_count(page, text: str) -> None:
    page.wait_for_function(
        "expected => document.querySelector('#result-count')?.textContent.trim().startsWith(expected)", arg=text
    )


def test_filter_by_revision_and_host_then_reload_and_open_a_row(page):
    page.goto("/")
    assert len(visible_row_ids(page)) == 100, "the first page of 111"

    page.select_option("#f-revision", "2024-11-05")
    page.wait_for_url(re.compile(r"\?revision=2024-11-05$"))
    wait_for_count(page, "35 rows")
    after_revision = visible_row_ids(page)
    assert "CT-01" in after_revision
    assert "CT-05" not in after_revision

    page.select_option("#f-host", "opencode-v1")
    page.wait_for_url(re.compile(r"\?revision=2024-11-05&host=opencode-v1$"))
    wait_for_count(page, "12 rows")
    after_host = visible_row_ids(page)
    assert after_host
    assert set(after_host) < set(after_revision)
    assert after_host == [
        "CT-01", "CT-02", "CT-04", "LOG-01", "LOG-07", "PC-02", "PC-04", "PC-05", "PC-06", "PRM-07", "TOOL-07", "TOOL-26",
    ]  # fmt: skip
    assert page.locator("#f-host").input_value() == "opencode-v1"

    page.reload()
    assert visible_row_ids(page) == after_host
    assert page.locator("#f-revision").input_value() == "2024-11-05"

    page.go_back()
    page.wait_for_url(re.compile(r"\?revision=2024-11-05$"))

    page.goto("/?revision=2024-11-05&host=opencode-v1")
    page.get_by_role("link", name="CT-02", exact=True).click()
    page.wait_for_url("**/registers/content-types/CT-02/")
    assert page.locator("h1").inner_text().startswith("CT-02")
    assert page.get_by_role("heading", name=re.compile("^opencode v1")).is_visible()


def test_search_box_filters_as_you_type(page):
    page.goto("/")
    page.fill("#f-q", "slash commands")
    page.wait_for_url(re.compile(r"\?q=slash\+commands$"))
    wait_for_count(page, "2 rows")
    assert visible_row_ids(page) == ["PRM-07", "PRM-08"]


def test_works_without_javascript(browser, live_server):
    load_registers([SHIPPED])
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/")
    page.get_by_text("More filters").click()  # <details> opens without JavaScript
    page.select_option("#f-status", "no")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"status=no"))
    assert "PRM-01" in visible_row_ids(page)
    context.close()


def test_playground_shows_each_host_side_by_side(page):
    page.goto("/playground/")
    result = {
        "content": [
            {
                "type": "image",
                "mimeType": "image/png",
                "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
            },
            {"type": "resource_link", "uri": "file:///report.pdf", "name": "report.pdf"},
        ]
    }
    import json

    page.fill("#result", json.dumps(result))
    page.get_by_role("button", name="Show host views").click()
    opencode = page.locator('[data-host-path="opencode-v1"]')
    opencode.wait_for()
    assert "dropped content[1] (resource_link)" in opencode.inner_text()
    assert "file image/png" in opencode.inner_text()
    cloudflare = page.locator('[data-host-path="cloudflare"]').inner_text()
    assert '"type": "resource_link"' in cloudflare
    assert '"type": "image"' in cloudflare
    assert "not all text: the script gets the whole result object" in cloudflare
    assert page.url.endswith("/playground/"), "the form posts in place, no navigation"


def test_the_playground_shows_the_servers_error_in_place_under_the_policy(page):
    """The 400 answer's message is swapped in by a static script (no hx-on: the policy allows no eval)."""
    page.goto("/playground/?example=image_only")
    page.get_by_role("button", name="Show host views").click()
    page.locator("#views .host-view").first.wait_for()
    assert page.locator("#views .host-view").count() > 0
    page.fill("#result", '{"content": [')
    page.get_by_role("button", name="Show host views").click()
    alert = page.locator("#views [role=alert]")
    alert.wait_for()
    assert alert.inner_text().startswith("Not valid JSON")
    assert page.locator("#views .host-view").count() == 0, "the previous example's views are gone (issue 26, row 1)"


def test_log_in_run_a_probe_and_open_a_result(page, live_server):
    from django.contrib.auth.models import User

    User.objects.create_superuser("admin", "", "pw-admin-12345")
    page.goto("/probes/")
    page.get_by_role("link", name="Log in").click()
    page.fill("#id_username", "admin")
    page.fill("#id_password", "pw-admin-12345")
    page.get_by_role("button", name="Log in").click()
    page.goto("/probes/")
    page.get_by_role("link", name="built-in fixture (stdio)").click()
    for revision in ("2024-11-05", "2025-03-26", "2025-06-18"):
        page.uncheck(f'input[name="revision"][value="{revision}"]')
    page.get_by_role("button", name="Run probe").click()
    page.wait_for_url(re.compile(r"/probes/runs/\d+/$"))
    page.wait_for_function("() => document.querySelector('.run-status strong')?.textContent === 'done'")
    total = sum(1 for s in FIXTURE for r in ("2025-11-25", "2026-07-28") if s.applies(r, "stdio"))
    assert f"{total} of {total} results" in page.locator(".run-status").inner_text()
    page.locator('tr:has(th:text-is("text block")) a.verdict-cell').first.click()
    page.wait_for_url(re.compile(r"/probes/results/\d+/$"))
    assert page.get_by_role("heading", name="Exchange").is_visible()
    assert page.get_by_role("heading", name="What each host would see").is_visible()


def test_failure_audit_page(page):
    from comparison.services.probing import ensure_builtin_target
    from comparison.tasks import start_run

    run = start_run(target=ensure_builtin_target(), revisions=["2025-11-25"], scenarios=[])
    page.goto(f"/probes/runs/{run.pk}/audit/")
    assert page.get_by_role("heading", name=re.compile("DPCTER audit")).is_visible()
    header = page.locator("table.audit thead").inner_text()
    assert "Published (of 21)" in header
    assert "mcpx · mcpx_call" in header
    page.locator('[data-cell="mcpx-D"]').click()
    page.wait_for_selector("#evidence table")
    evidence = page.locator("#evidence").inner_text()
    assert "D · Detection for mcpx · mcpx_call" in evidence
    assert "nothing typed marks a failure" in evidence
    assert page.url.endswith("/audit/"), "the evidence swaps in place"
    page.goto("/registers/failure-gap/FG-01/")
    page.get_by_role("link", name="The DPCTER audit of the latest probe run").click()
    page.wait_for_url(re.compile(r"/audit/$"))


def test_filter_export_markdown_and_html_then_compare_runs(page):
    from comparison.services.probing import ensure_builtin_target
    from comparison.tasks import start_run
    from registers.core.format import parse_register

    page.goto("/")
    page.select_option("#f-register", "prompts")
    page.wait_for_url(re.compile(r"\?register=prompts$"))
    wait_for_count(page, "8 rows")  # the filter bar has been swapped in; select in the new one
    assert not page.locator("#f-status").is_visible(), "the less common filters are folded (issue 26, row 13)"
    page.get_by_text("More filters").click()
    page.select_option("#f-status", "no")
    page.wait_for_url(re.compile(r"\?register=prompts&status=no$"))
    wait_for_count(page, "7 rows")
    summary = page.locator(".more-filters summary")
    assert page.locator(".more-filters").get_attribute("open") is not None, "a folded filter in use stays open"
    assert "Status" in summary.inner_text(), "the summary names the folded filters in use"
    page.get_by_text("Export", exact=True).click()
    with page.expect_download() as download:
        page.get_by_role("link", name="Markdown (register format)").click()
    exported = parse_register(open(download.value.path(), encoding="utf-8").read(), "prompts.md")
    assert [row.row_id for row in exported.rows] == [
        "PRM-01",
        "PRM-02",
        "PRM-03",
        "PRM-04",
        "PRM-05",
        "PRM-06",
        "PRM-07",
    ]
    with page.expect_download() as download:
        page.get_by_role("link", name="HTML report").click()
    html = open(download.value.path(), encoding="utf-8").read()
    assert "status=no" in html
    assert "<script" not in html

    target = ensure_builtin_target()
    first = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    second = start_run(target=target, revisions=["2025-06-18", "2025-11-25"], scenarios=["text"])
    page.goto("/probes/compare/")
    page.select_option("#run-a", str(first.pk))
    page.select_option("#run-b", str(second.pk))
    page.select_option("#only", "changes")
    page.get_by_role("button", name="Compare").click()
    page.wait_for_url(re.compile(rf"a={first.pk}&b={second.pk}&only=changes"))
    assert "1 added · 0 removed · 0 changed · 1 unchanged" in page.locator("#compare-totals").inner_text()
    rows = page.locator("table.compare tbody tr")
    assert rows.count() == 1
    assert "2025-11-25" in rows.first.inner_text()


@pytest.mark.peers
def test_compare_the_latest_runs_with_their_charts(page):
    """Built-in fixture and mcp-proxy (launched by its run) compared from the probes page."""
    from django.core.management import call_command

    from comparison.models import ProbeTarget
    from comparison.services.probing import ensure_builtin_target
    from comparison.tasks import start_run

    call_command("add_peer_targets", "--no-install", stdout=open(os.devnull, "w"))
    proxy = ProbeTarget.objects.get(name="mcp-proxy → fixture")
    ProbeTarget.objects.filter(name="supergateway → fixture").update(enabled=False)
    built_in = start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text", "rpc-error"])
    through = start_run(target=proxy, revisions=["2025-06-18"], scenarios=["text", "rpc-error"])
    assert through.status == "done", through.error
    page.goto("/probes/")
    page.get_by_role("link", name="Compare the latest run of every target").click()
    page.wait_for_url(re.compile(rf"/probes/compare/\?run={built_in.pk}&run={through.pk}$"))
    scores = page.locator("tr.interop td.score")
    # Through mcp-proxy the text arrives as sent (its `isError: false` is the default); the error is rewritten.
    assert [scores.nth(i).inner_text() for i in range(scores.count())] == ["100.0% (2/2)", "50.0% (1/2)"]
    figure = page.locator("#chart-interop-cells-where-every-host-gets-what-the-upstream-sends")
    box = figure.locator("svg").bounding_box()
    assert box["width"] > 300
    assert box["height"] > 40
    bars = figure.locator("svg rect.chart-good")
    assert bars.count() == 2
    assert [float(bars.nth(i).get_attribute("width")) for i in range(2)] == [420.0, 210.0], "bars are to scale"
    figure.get_by_text("Table").click()
    assert figure.locator("table tbody tr").nth(1).inner_text().split("\t")[:3] == [
        f"#{through.pk} mcp-proxy → fixture",
        "1",
        "1",
    ]
    page.get_by_text("Export", exact=True).click()
    with page.expect_download() as download:
        page.get_by_role("link", name="HTML report").click()
    report = open(download.value.path(), encoding="utf-8").read()
    assert report.count("<svg") == 3
    assert "<script" not in report
