"""The headless Chromium the browser tests drive (Debian's package, launched by path through
Playwright: Playwright's own browser download does not work here), and a page on the live server
with the shipped registers loaded: a pytest plugin (conftest names it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from registers.loader import load_registers
from tests.conftest import SHIPPED

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# Flags that keep Chromium off the network: this machine only reaches loopback.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
]


@pytest.fixture(scope="module")
def browser():
    # Playwright's sync API runs an event loop in this thread; Django's ORM calls in the test
    # body are still synchronous, so the async-safety guard is lifted for these tests only.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), f"Chromium not found at {CHROMIUM}: install Debian's chromium package"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    from comparison.services.probing import ensure_builtin_target

    load_registers([SHIPPED])
    # Transactional tests flush the database, including the row the data migration created.
    ensure_builtin_target()
    context = browser.new_context(base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(15_000)
    # Every browser test is also a check of the Content-Security-Policy (issue 21, row 11):
    # Chromium reports each refused script, style or eval on the console.
    refused: list[str] = []
    page.on(
        "console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None
    )
    yield page
    context.close()
    assert refused == [], "the pages break their own Content-Security-Policy"
