"""Every page on a desktop (1400×900) and a phone (390×844) in a real headless Chromium: the page
never scrolls sideways, every link of the main navigation is on screen, and axe-core finds no
serious or critical accessibility violation (issue 26, row 2 and the issue's done-when)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.conftest import LAB_SNAPSHOT
from tests.support.relay_targets import relay_target

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = (1400, 900)
PHONE = (390, 844)
SERIOUS = ("serious", "critical")


def seed() -> dict[str, str]:
    """Two small runs of the built-in target (one scenario of a family beyond request → answer)
    and the URL of each page a user reaches."""
    from comparison.services.probing import ensure_builtin_target
    from comparison.tasks import start_run

    call_command("host_lab", "--load-snapshot", str(LAB_SNAPSHOT))
    target = ensure_builtin_target()
    first = start_run(target=target, revisions=["2025-06-18"], scenarios=["text", "progress", "rpc-error"])
    second = start_run(target=target, revisions=["2025-06-18", "2025-11-25"], scenarios=["text", "progress"])
    result = second.results.get(scenario="progress", requested_revision="2025-11-25")
    relayed = start_run(target=relay_target("is-error"), revisions=["2025-06-18"], scenarios=["text"])
    changed = relayed.results.get(scenario="text")
    decorated = start_run(target=relay_target("decorate-lists"), revisions=["2025-06-18"], scenarios=["tools-list"])
    grid = start_run(
        target=target, revisions=["2025-06-18", "2026-07-28"], upstream_revisions=["2024-11-05", "2026-07-28"],
        scenarios=["text"],
    )  # fmt: skip
    return {
        "rows": "/",
        "matrix": "/matrix/",
        "row": "/rows/CT-07/",
        "registers": "/registers/",
        "register": "/registers/content-types/",
        "proposals": "/registers/tools/proposals/",
        "disagreements": "/disagreements/",
        "playground": "/playground/",
        "hosts": "/hosts/",
        "probes": "/probes/",
        "target": f"/probes/targets/{target.pk}/",
        "run": f"/probes/runs/{second.pk}/",
        "result": f"/probes/results/{result.pk}/",
        "changed result": f"/probes/results/{changed.pk}/",
        "compare": f"/probes/compare/?run={first.pk}&run={second.pk}&run={relayed.pk}",
        "audit": f"/probes/runs/{first.pk}/audit/",
        "grid": f"/probes/runs/{grid.pk}/grid/?pair=2025-06-18/2026-07-28",
        "decorated result": f"/probes/results/{decorated.results.get().pk}/",
        "glossary": "/glossary/",
        # Issue 52 item 5: the hosts' pages, with the lab's shipped measurements loaded.
        "hosts compared": "/hosts/compare/?a=codex&b=claude-code",
        "host lab": "/hosts/lab/",
        "claude code": "/hosts/claude-code/",
        "codex": "/hosts/codex/",
        "opencode": "/hosts/opencode/",
    }


def problems(page, width: int) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    found = []
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    if scroll_width > width:
        found.append(f"the page is {scroll_width} px wide")
    for link in page.locator("header nav a, header nav button").all():
        box = link.bounding_box()
        if not link.is_visible() or box is None or box["x"] < 0 or box["x"] + box["width"] > width:
            found.append(f"nav link {link.inner_text()!r} is off screen")
    for violation in Axe().run(page).response["violations"]:
        if violation["impact"] in SERIOUS:
            targets = [node["target"] for node in violation["nodes"]][:3]
            found.append(f"axe {violation['id']} ({violation['impact']}): {targets}")
    return found


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_page_fits_the_screen_and_passes_axe(browser, live_server, size):
    from django.contrib.auth.models import User

    from registers.loader import load_registers
    from tests.conftest import SHIPPED

    load_registers([SHIPPED])
    pages = seed()
    User.objects.create_superuser("admin", "", "pw-admin-12345")
    width, height = size
    context = browser.new_context(base_url=live_server.url, viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    found: dict[str, list[str]] = {}
    try:
        page.goto("/accounts/login/")
        found["login"] = problems(page, width)
        page.fill("#id_username", "admin")
        page.fill("#id_password", "pw-admin-12345")
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        for name, url in pages.items():
            page.goto(url)
            found[name] = problems(page, width)
        # The playground after a bad document: the error in place is part of the page too.
        page.goto("/playground/")
        page.fill("#result", "{not json")
        page.get_by_role("button", name="Show host views").click()
        page.wait_for_selector("#views [role=alert]")
        found["playground error"] = problems(page, width)
    finally:
        context.close()
    assert {name: issues for name, issues in found.items() if issues} == {}
    assert len(found) == len(pages) + 2


def test_row_14_a_matrix_note_is_reachable_by_keyboard_and_by_touch(page):
    """Issue 26, row 14: the notes lived only in `title` attributes of cells that took no focus."""
    page.goto("/matrix/")
    cell = page.locator("#results table.matrix tbody tr").first.locator("a.cell-note.host").first
    note = cell.get_attribute("title")
    assert ":" in note
    assert cell.get_attribute("aria-label") == note, "a screen reader reads the note"
    cell.focus()
    shown = cell.evaluate("link => getComputedStyle(link, '::after').content")
    assert note in shown, "focused, the cell shows its note in place"
    cell.press("Enter")
    page.wait_for_url(lambda url: "#host-" in url)
    anchor = page.url.split("#", 1)[1]
    assert page.locator(f"#{anchor}").is_visible(), "a tap or Enter opens the row at that note"


def test_row_14_a_phone_taps_a_matrix_cell_to_its_note(browser, live_server):
    from registers.loader import load_registers
    from tests.conftest import SHIPPED

    load_registers([SHIPPED])
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = context.new_page()
        page.goto("/matrix/")
        cell = page.locator("#results table.matrix td.rev a.cell-note").first
        cell.scroll_into_view_if_needed()
        cell.tap()
        page.wait_for_url(lambda url: url.endswith("#revisions-h"))
        assert page.locator("#revisions-h").is_visible()
    finally:
        context.close()


def _many_long_titled_registers(tmp_path) -> None:
    """24 registers, as a full register set is, with titles longer than any shipped one."""
    from registers.loader import load_registers
    from tests.support.register_text import register_text

    for index in range(24):
        prefix = "L" + chr(ord("A") + index)
        title = f"Register {index} about a long list of protocol differences between revisions and hosts"
        (tmp_path / f"long-{index}.md").write_text(register_text(2, prefix=prefix, title=title), encoding="utf-8")
    load_registers([tmp_path])


@pytest.mark.parametrize("url", ["/", "/matrix/"])
def test_a_phone_with_a_full_register_set_sees_rows_on_its_first_screen(browser, live_server, tmp_path, url):
    """Issue 37, stumbles 15 and 17: the register filter grew with the longest title (476 px on a
    390 px phone), and the navigation and filters filled the first screen."""
    _many_long_titled_registers(tmp_path)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(url)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        first_row = page.locator("#results table tbody tr").first.bounding_box()
        assert first_row["y"] < 844, "the first row is on the first screen"
        page.locator("details.filter-panel > summary").click()
        register = page.locator("#f-register")
        register.wait_for(state="visible")
        assert register.bounding_box()["x"] + register.bounding_box()["width"] <= 390
        register.select_option("long-3")
        page.wait_for_url(lambda u: "register=long-3" in u)
        assert page.locator("details.filter-panel").get_attribute("open") is not None, "the panel stays open"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()
    desktop = browser.new_context(base_url=live_server.url, viewport={"width": 1400, "height": 900})
    try:
        page = desktop.new_page()
        page.goto(url)
        assert page.locator("#f-register").is_visible(), "a desktop shows the filters open"
    finally:
        desktop.close()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_compare_two_hosts_then_two_revisions_from_the_filters(browser, live_server, size):
    """Issue 37, item 2: pick two hosts, then two revisions, in the filter bar; the address bar is
    the permalink, and the compared column says both states."""
    from registers.loader import load_registers
    from tests.conftest import SHIPPED

    load_registers([SHIPPED])
    width, height = size
    context = browser.new_context(base_url=live_server.url, viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto("/")
        summary = page.locator("details.filter-panel > summary")
        if summary.is_visible():
            summary.click()
        page.select_option("#f-host", "opencode-v1")
        page.wait_for_url(lambda url: "host=opencode-v1" in url)
        page.select_option("#f-vs_host", "opencode-v2")
        page.wait_for_url(lambda url: "vs_host=opencode-v2" in url)
        page.wait_for_selector("#compared-hosts")
        cells = page.locator("td.compared").all_inner_texts()
        assert cells, "rows where the two opencode versions differ"
        assert all(" · " in cell for cell in cells)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.goto("/matrix/?revision=2025-03-26&vs_revision=2025-06-18")
        assert "(added)" in page.locator("td.compared").first.inner_text()
        assert page.locator("#f-vs_revision").input_value() == "2025-06-18"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


def test_the_api_docs_render_every_operation_under_the_pages_csp(browser, live_server):
    """Issue 37, item 4: interactive docs from the dashboard's own static files, no CDN, no error."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1400, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    outside: list[str] = []
    page.on("request", lambda request: None if request.url.startswith(live_server.url) else outside.append(request.url))
    try:
        page.goto("/api/v1/docs/")
        page.wait_for_selector(".opblock", timeout=15_000)
        operations = page.locator(".opblock").count()
        document = page.evaluate("fetch('/api/v1/openapi.json').then(r => r.json())")
    finally:
        context.close()
    assert operations == sum(len(methods) for methods in document["paths"].values())
    assert errors == []
    assert outside == [], "nothing from a CDN"


SIZES = [(1400, 900), (390, 844)]


def fits(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_where_a_run_differs_and_a_result_summary_first(browser, live_server, size):
    """Issue 52, a newcomer's items 3 and 4."""
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
def test_the_hosts_pages_show_every_column_on_the_screen(browser, live_server, size):
    """Issue 52, a newcomer's item 5."""
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
