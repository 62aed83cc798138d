"""How the project's tables are written out as text: CSV cells a spreadsheet cannot run as
formulas, the byte order mark that makes a spreadsheet read UTF-8, and Markdown table cells.
Pure, no Django: the register exports and the probe exports both write with these."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

#: A spreadsheet reads a cell starting with one of these as a formula (OWASP's CSV injection list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """A text cell a spreadsheet cannot run: a leading formula character gets a `'` before it.
    Numbers stay numbers; JSON and Markdown exports are never touched."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SafeWriter:
    """csv.writer whose text cells are spreadsheet-safe."""

    def __init__(self, buffer: io.StringIO):
        self.writer = csv.writer(buffer, lineterminator="\n")

    def writerow(self, row: Iterable[Any]) -> None:
        self.writer.writerow([spreadsheet_safe(value) for value in row])


#: A byte order mark first, so a spreadsheet reads the file as UTF-8 (cells hold ✓, — and →).
BOM = "\ufeff"


def markdown_cell(text: Any) -> str:
    """Text that stays inside one cell of a Markdown table."""
    return str(text).replace("|", "\\|").replace("\n", " ")
