"""Links in HTML rendered at load time, settled when it is shown. Pure, no Django.

The renderer links every row ID it sees in prose (`TOOL-25`), whether or not that row's register
is loaded: which registers are loaded changes after the text is rendered. So a page turns a link to
a row nothing loaded into plain text with a note, and an export makes the dashboard's own links
absolute, so they still work from a file.
"""

from __future__ import annotations

import re
from collections.abc import Container

ROW_LINK = re.compile(r'<a href="[^"]*" class="row-ref">([A-Z]{2,6}-\d{2,3})</a>')
ROOT_RELATIVE = re.compile(r'(href|src)="/(?!/)')


def settle_row_links(html: str, known: Container[str]) -> str:
    """Each link to a row not in `known` becomes the ID as text, marked as not loaded."""

    def settle(match: re.Match) -> str:
        row_id = match.group(1)
        if row_id in known:
            return match.group(0)
        return (
            f'<span class="row-ref-missing" title="{row_id} is in a register this dashboard has not loaded">'
            f'{row_id} <span class="muted">(not loaded)</span></span>'
        )

    return ROW_LINK.sub(settle, html)


def absolute_links(html: str, base_url: str) -> str:
    """Root-relative `href` and `src` made absolute against the dashboard's base URL."""
    if not base_url:
        return html
    base = base_url.rstrip("/")
    return ROOT_RELATIVE.sub(lambda match: f'{match.group(1)}="{base}/', html)
