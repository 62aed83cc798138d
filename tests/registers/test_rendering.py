"""Markdown rendering at load time: escaping, row links, register links."""

from __future__ import annotations

from language import linking
from registers.core.rendering import LinkTargets, Renderer

renderer = Renderer(LinkTargets(row="/rows/{id}/", register="/registers/{slug}/"))


def test_raw_html_is_escaped():
    html = renderer.inline("<script>alert(1)</script> and <img src=x onerror=alert(1)>")
    assert "<script>" not in html
    assert "<img" not in html
    assert "&lt;script&gt;" in html


def test_angle_brackets_in_code_spans_are_escaped():
    assert renderer.inline("`mcpx://<ns>/<uri>`") == "<code>mcpx://&lt;ns&gt;/&lt;uri&gt;</code>"


def test_javascript_links_are_not_links():
    html = renderer.inline("[click](javascript:alert(1))")
    assert "href" not in html


def test_row_ids_become_links_but_not_inside_code_or_links():
    html = renderer.inline("see CT-13 and `CT-14` and [PRM-07](https://example.test/)")
    assert '<a href="/rows/CT-13/" class="row-ref">CT-13</a>' in html
    assert "<code>CT-14</code>" in html
    assert 'href="/rows/PRM-07/"' not in html


def test_sibling_register_links_and_other_relative_links():
    html = renderer.inline("[mrtr.md](mrtr.md) and [legend](../README.md) and [web](https://example.test/a)")
    assert '<a href="/registers/mrtr/">mrtr.md</a>' in html
    assert "legend" in html
    assert "README" not in html
    assert 'href="https://example.test/a" rel="noopener noreferrer"' in html


def test_code_blocks_are_highlighted():
    html = renderer.block('```json\n{"a": 1}\n```')
    assert 'class="highlight"' in html


def test_settling_links_is_pure_and_leaves_other_markup_alone():
    """Issue 26, a first-time user's row 10."""
    html = (
        '<p><a href="/rows/CT-01/" class="row-ref">CT-01</a> and <a href="/rows/ZZ-99/" class="row-ref">ZZ-99</a></p>'
    )
    assert linking.settle_row_links(html, {"CT-01"}) == (
        '<p><a href="/rows/CT-01/" class="row-ref">CT-01</a> and <span class="row-ref-missing" '
        'title="ZZ-99 is in a register this dashboard has not loaded">ZZ-99 <span class="muted">(not loaded)</span>'
        "</span></p>"
    )
    assert linking.settle_row_links(html, {"CT-01", "ZZ-99"}) == html
