"""Quote matching: every way the registers quote a line."""

from __future__ import annotations

from registers.quotes import DRIFTED, EXACT, MOVED, NO_QUOTE, locate, normalise

FILE = [
    "export interface Prompt extends BaseMetadata {",  # 1
    "  /**",  # 2
    '   * type: "text";',  # 3
    "   */",  # 4
    "- `title`: Optional human-readable name of the prompt for display purposes.",  # 5
    "7. Add support for **[resource links](/specification/2025-06-18/server/tools#resource-links)** in",  # 6
    "   tool call results",  # 7
    "#### Resource",  # 8
    "Links and more",  # 9
    '    Title       string      `json:"title,omitempty"`',  # 10
]


def test_normalise():
    assert normalise("  **MUST**  `x` \u201cq\u201d  [a](b) ") == 'MUST x "q" a'


def test_exact_single_line():
    assert locate("export interface Prompt extends BaseMetadata {", FILE, 1).verdict == EXACT


def test_escaped_and_curly_quotes():
    assert locate('type: \\"text\\";', FILE, 3).verdict == EXACT
    assert locate("type: \u201ctext\u201d;", FILE, 3).verdict == EXACT


def test_backticks_dropped_or_kept():
    assert locate("- title: Optional human-readable name of the prompt", FILE, 5).verdict == EXACT
    assert locate("- `title`: Optional human-readable name", FILE, 5).verdict == EXACT


def test_link_expanded_to_absolute_url():
    quote = "Add support for **[resource links](https://modelcontextprotocol.io/specification/2025-06-18/server/tools#resource-links)** in"
    assert locate(quote, FILE, 6).verdict == EXACT


def test_quote_wrapped_across_lines():
    assert locate("#### Resource Links", FILE, 8).verdict == EXACT
    assert locate("resource links in tool call results", FILE, 6).verdict == EXACT


def test_truncated_quote_with_lone_backtick():
    assert locate("Title       string      `", FILE, 10).verdict == EXACT


def test_quote_with_ellipsis():
    assert locate("export interface … BaseMetadata {", FILE, 1).verdict == EXACT


def test_moved_reports_the_new_line():
    located = locate("#### Resource", FILE, 2)
    assert (located.verdict, located.line) == (MOVED, 8)
    assert "+6" in located.detail


def test_match_must_start_on_a_cited_line():
    # The quote is on line 8, two lines after the cited range 5-6: that is a move, not a wrap.
    assert locate("#### Resource", FILE, 5, 6).verdict == MOVED


def test_drifted_and_no_quote():
    assert locate("not there at all", FILE, 3).verdict == DRIFTED
    assert locate("", FILE, 3, 4).verdict == NO_QUOTE
    past_end = locate("", FILE, 9, 12)
    assert past_end.verdict == DRIFTED
    assert "past the end" in past_end.detail
    assert locate("x", [], 1).verdict == DRIFTED


def test_nearest_of_several_matches():
    lines = ["a", "target", "b", "c", "d", "e", "target"]
    assert locate("target", lines, 6).line == 7
    assert locate("target", lines, 4).line == 2
