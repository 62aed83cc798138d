"""Quote matching: every way the registers quote a line."""

from __future__ import annotations

from registers.core.quotes import DRIFTED, EXACT, MOVED, NO_QUOTE, Located, SourceText, locate, normalise

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


# Hand-checked cases for every branch of the matcher (mutation testing found them unpinned).


def test_ellipsis_pieces_must_come_in_order_and_after_each_other():
    lines = ["alpha beta gamma", "other"]
    assert locate("alpha … gamma", lines, 1).verdict == EXACT
    assert locate("gamma … alpha", lines, 1).verdict == DRIFTED
    # The second piece must start after the first one ends, not inside it.
    assert locate("alpha beta … beta", lines, 1).verdict == DRIFTED
    assert locate("alpha … beta … gamma", lines, 1).verdict == EXACT
    assert locate("alpha … gamma … beta", lines, 1).verdict == DRIFTED
    assert locate("alpha...gamma", lines, 1).verdict == EXACT, "three dots are an ellipsis too"


def test_a_later_start_of_the_first_piece_can_match():
    # "x" first occurs without "z" after it on line 1; its second occurrence is followed by "z".
    lines = ["x y", "x z"]
    assert locate("x … z", lines, 1, 2).verdict == EXACT
    assert locate("x … z", lines, 2).verdict == EXACT


def test_the_wrap_window_is_four_lines_past_the_cited_range():
    lines = ["start", "a", "b", "c", "end", "tail"]
    assert locate("start a b c end", lines, 1).verdict == EXACT  # runs on to line 5 = 1 + 4
    assert locate("start a b c end tail", lines, 1).verdict == MOVED, "past the window it is a whole-file match"


def test_a_match_inside_the_window_but_starting_after_the_range_is_a_move():
    lines = ["one", "two", "three"]
    located = locate("three", lines, 1, 2)
    assert (located.verdict, located.line, located.detail) == (MOVED, 3, "the quote is at line 3 (+2)")
    assert locate("two three", lines, 1, 2).verdict == EXACT, "starting on line 2 of the range 1-2"


def test_moved_detail_lists_other_places_nearest_first():
    lines = ["q", "x", "x", "q", "x", "q", "x", "q"]
    located = locate("q", lines, 3)
    assert (located.verdict, located.line) == (MOVED, 4)
    assert located.detail == "the quote is at line 4 (+1); also at 1, 6, 8"
    assert locate("q", lines, 5).line == 4, "a tie goes to the earlier line"
    assert locate("q", ["x", "q"], 2).detail == ""


def test_moved_backwards_and_without_a_cited_line():
    located = locate("q", ["q", "x", "x"], 3)
    assert (located.verdict, located.line, located.detail) == (MOVED, 1, "the quote is at line 1 (-2)")
    located = locate("q", ["x", "q"], None)
    assert (located.verdict, located.line) == (MOVED, 2)


def test_cited_lines_out_of_the_file():
    assert locate("q", ["x", "q"], 9).verdict == MOVED, "a line past the end: searched in the whole file"
    assert locate("q", ["x", "x"], 9).verdict == DRIFTED
    no_quote = locate("", ["a", "b"], 2)
    assert (no_quote.verdict, no_quote.line, no_quote.detail) == (
        NO_QUOTE,
        2,
        "no quote to compare; the cited lines exist",
    )
    assert locate("", ["a"], 0).verdict == DRIFTED
    assert locate("", ["a"], 1, 3).detail == "line 3 is past the end of the file (1 lines)"
    assert locate(" … ", ["a"], 1).verdict == NO_QUOTE, "only an ellipsis is no quote"
    assert locate("x", [], 1).detail == "the file is empty"
    assert locate("nowhere", ["a"], 1).detail == "the quote is not in the file"


def test_positions_map_to_their_lines():
    lines = ["aa", "bb", "cc"]
    assert locate("bb cc", lines, 2).verdict == EXACT
    assert locate("a bb", lines, 1).verdict == EXACT, "a match that starts inside line 1"
    assert locate("cc", lines, 1, 2).line == 3


def test_a_source_text_gives_the_same_verdicts_as_a_list():
    from registers.core.quotes import SourceText

    lines = ["q", "x", "x", "q", "x", "q", "x", "q"]
    cached = SourceText(lines)
    for quote, start in (("q", 3), ("x … q", 2), ("q x x q", 1), ("nope", 1)):
        assert locate(quote, cached, start) == locate(quote, lines, start)
        assert locate(quote, cached, start) == locate(quote, lines, start), "and again, from the cache"


def test_an_exact_match_names_the_cited_line_and_nothing_more():
    assert locate("b", ["a", "b", "c"], 2) == Located(EXACT, 2, "")
    assert locate("b c", ["a", "b", "c"], 2, 3) == Located(EXACT, 2, "")


def test_moved_detail_names_at_most_three_other_places_and_one_when_there_is_one():
    lines = ["q", "x", "x", "q", "x", "q", "x", "q", "x", "q"]
    assert locate("q", lines, 3).detail == "the quote is at line 4 (+1); also at 1, 6, 8"
    assert locate("q", ["q", "x", "q"], 2).detail == "the quote is at line 1 (-1); also at 3"


def test_table_pipes_read_as_spaces():
    assert normalise("| a | b |") == "a b"
    assert normalise("x|y") == "x y"


def test_a_file_read_once_gives_the_verdicts_of_plain_lines_whatever_the_order_of_citations():
    """SourceText remembers normalised lines and the whole file: the memory must never answer for
    another range (a window cached as the whole file would hide a quote that runs past it)."""
    lines = list("abcdefghij")
    citations = [
        ("b c d e f", 1, 1),
        ("b c d e f", 1, 2),
        ("j", 1, None),
        ("a b", 1, 10),
        ("e", 5, None),
        ("j", 8, None),  # windows that reach the end of the file from different lines
        ("h", 9, None),
    ]
    remembered = SourceText(lines)
    for quote, start, end in citations + citations[::-1]:
        assert locate(quote, remembered, start, end) == locate(quote, lines, start, end), (quote, start, end)
    assert locate("b c d e f", SourceText(lines), 1, 2).verdict == EXACT
