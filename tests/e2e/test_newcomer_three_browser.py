"""Issue 52, items 3 to 5 in a real headless Chromium at a desktop's and a phone's width: what the
newcomer could not see is on the screen, in the order a reader needs it, without sideways scrolling."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.conftest import LAB_SNAPSHOT
from tests.support.relay_targets import relay_target

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(1400, 900), (390, 844)]


def fits(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_3_and_4_where_a_run_differs_and_a_result_summary_first(browser, live_server, size):
    from comparison.tasks import start_run

    flipped = start_run(target=relay_target("is-error"), revisions=["2025-06-18"], scenarios=["is-error"])
    decorated = start_run(target=relay_target("decorate-lists"), revisions=["2025-06-18"], scenarios=["tools-list"])
    result = decorated.results.get()
    width, height = size
    context = browser.new_context(base_url=live_server.url, viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(flipped.get_absolute_url())
        cell = page.locator("#host-interop-table a", has_text="is-error").first
        cell.scroll_into_view_if_needed()
        assert cell.is_visible(), "item 3: a differing cell is listed, and reachable"
        fits(page, width)
        page.goto(result.get_absolute_url())
        did = page.locator("#kinds-h").bounding_box()["y"]
        hosts = page.locator("#hosts-h").bounding_box()["y"]
        table = page.locator("#diff-h").bounding_box()["y"]
        assert did < hosts < table, "item 4: what the proxy did and what each host sees come before the table"
        more = page.locator("details.diff-more > summary")
        assert more.inner_text() == f"and {len(result.diff) - 40} more"
        rows = page.locator("#diff-h ~ details.diff-more tbody tr")
        assert not rows.first.is_visible(), "the rest is folded"
        more.click()
        assert rows.count() == len(result.diff) - 40
        assert rows.first.is_visible()
        fits(page, width)
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_5_the_hosts_pages_show_every_column_on_the_screen(browser, live_server, size):
    call_command("host_lab", "--load-snapshot", str(LAB_SNAPSHOT))
    width, height = size
    context = browser.new_context(base_url=live_server.url, viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        for url, table in (
            ("/hosts/compare/?a=codex&b=claude-code", "#differing"),
            ("/hosts/claude-code/", "table.stack"),
            ("/hosts/codex/", "table.stack"),
        ):
            page.goto(url)
            fits(page, width)
            cells = page.locator(f"{table} tbody tr").first.locator("td")
            assert cells.count() >= 1, url
            for index in range(cells.count()):
                box = cells.nth(index).bounding_box()
                assert box is not None, (url, index)
                assert box["x"] >= 0, (url, index)
                assert box["x"] + box["width"] <= width, (url, index, box)
    finally:
        context.close()
