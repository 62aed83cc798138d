"""Input the format does not allow is refused with file:line, and parsing stays linear (issue 32,
rows 10 to 12): look-alike digits in row IDs and `increment`, a byte order mark, a row of 10,000
citations and a field of 200,000 continuation lines. Parse time is printed by
bench/bench_scale.py; here only what is read is checked."""

from __future__ import annotations

import pytest

from registers.core.format import RegisterParseError, parse_register
from tests.support.register_text import register_text


def parse_error(text: str) -> RegisterParseError:
    with pytest.raises(RegisterParseError) as raised:
        parse_register(text, "odd.md")
    return raised.value


@pytest.mark.parametrize("lookalike", ["HAA-00１", "HAA-٠٠١"])
def test_an_id_with_non_ascii_digits_is_refused_with_its_line(lookalike):
    text = register_text(2, prefix="HAA").replace("HAA-02", lookalike)
    error = parse_error(text)
    assert error.path == "odd.md"
    assert lookalike in text.splitlines()[error.line - 1]
    assert "IDs are ASCII letters and digits" in error.message
    assert f"U+{ord(lookalike[-1]):04X}" in error.message


@pytest.mark.parametrize("value", ["²", "１", "٣"])
def test_an_increment_in_non_ascii_digits_is_refused_with_its_line(value):
    text = register_text(1).replace("increment:    1", f"increment:    {value}")
    error = parse_error(text)
    assert text.splitlines()[error.line - 1].startswith("increment:")
    assert "ASCII digits" in error.message


def test_a_byte_order_mark_is_named_as_one():
    error = parse_error("\ufeff" + register_text(1))
    assert error.line == 1
    assert "byte order mark" in error.message


def test_a_row_of_ten_thousand_citations_reads_every_one():
    cites = "; ".join(f"`internal/x{n}.go:{n + 1}`" for n in range(10_000))
    text = register_text(1, prefix="PAR").replace("- **Sources.** ", f"- **Sources.** {cites}; ", 1)
    row = parse_register(text, "many.md").rows[0]
    paths = [c.path for c in row.citations]
    assert "internal/x0.go" in paths
    assert len([p for p in paths if p.startswith("internal/x")]) == 10_000


def test_a_citation_form_that_never_comes_again_is_searched_for_once(monkeypatch):
    """Searching every form from every citation read the text to its end once per citation for a
    form that never occurred again: quadratic (10,000 citations took 47 s)."""
    from registers.core import citations

    searched: dict[str, int] = {}

    class Counting:
        def __init__(self, form, pattern):
            self.form, self.pattern = form, pattern

        def search(self, text, pos=0):
            searched[self.form] = searched.get(self.form, 0) + 1
            return self.pattern.search(text, pos)

    monkeypatch.setattr(citations, "FORMS", tuple((form, Counting(form, p)) for form, p in citations.FORMS))
    text = "; ".join(f"`internal/x{n}.go:{n + 1}`" for n in range(1000))
    assert len(citations.scan(text)) == 1000
    assert searched["angle"] == searched["bare"] == searched["wire"] == 1, searched
    assert searched["file"] <= 1001


# A bound on a hang, not a speed: joined once, this takes about a second; copied per line, 92 s.
@pytest.mark.timeout(60)
def test_a_field_of_two_hundred_thousand_lines_is_joined_whole():
    lines = "\n".join(f"  line{n} of the detail" for n in range(200_000))
    text = register_text(1, prefix="LON").replace(
        "- **Detail.** See CT-13", "- **Detail.** Start\n" + lines + "\n  See CT-13"
    )
    detail = next(f for f in parse_register(text, "long.md").rows[0].fields if f.key == "detail")
    assert detail.text.startswith("Start line0 of the detail line1 of the detail")
    assert detail.text.count(" of the detail") == 200_000
