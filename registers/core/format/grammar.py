"""The register format's grammar: what both the reader and the writer know of a register's
skeleton (the legend is registers/data/README.md). Pure, no Django."""

from __future__ import annotations

import re

#: The version of the rules that turn a register's text into rows (cells, states, citations).
#: Bump it when a rule changes what a row reads as: the next load re-reads every row, even where
#: the text did not change (and records no new row version for them). Bumped too when the HTML kept
#: on each row changes (3: the matrix cells link to their notes), so a reload renders it again, or
#: what is derived from it (4: the spec anchors of each row).
READING_RULES = 4

TABLE_HEADER_FIXED = ("ID", "Difference", "Labels", "Where it exists")
TABLE_HEADER_TAIL = ("Value", "Effort", "Risk")
FRONT_MATTER_KEYS = ("created", "last-updated", "increment", "status", "tags", "description")
#: The status line as the writer writes it; the reader takes any text after the first full stop.
STATUS_LINE_TEXT = (
    "Status column: **{subject} @ {commit}**. Legend and citation conventions: [../README.md](../README.md)."
)
#: Between register documents when one Markdown export holds several registers; it names the
#: register before and after it, so each loads again under its own slug.
REGISTER_SEPARATOR = "\n<!-- mcp-compare: register {before} ends, register {after} follows -->\n\n"
#: The separator as read: also the unnamed one that exports wrote before separators named slugs.
SEPARATOR_LINE = re.compile(
    r"^<!-- mcp-compare: (?:next register|register (?P<before>[\w.-]+) ends, register (?P<after>[\w.-]+) follows) -->$",
    re.M,
)

H1 = re.compile(r"^# (?P<title>\S.*)$")
FENCE = "```"
FRONT_MATTER_LINE = re.compile(r"^(?P<key>[a-z-]+):\s+(?P<value>.*)$")
STATUS_LINE = re.compile(r"^Status column: \*\*(?P<subject>[^*@]+?) @ (?P<commit>[0-9a-f]{7,40})\*\*\.")
# ASCII only: `\d` alone accepts any script's digits, so HAA-001, HAA-00１ and HAA-٠٠١ were three rows.
ROW_ID = re.compile(r"^[A-Z]{2,6}-[0-9]{2,3}$")
SECTION_HEADING = re.compile(r"^## (?P<id>\S+) (?P<title>.+)$")
FIELD_LINE = re.compile(r"^- \*\*(?P<name>.+?)\.\*\*(?: (?P<text>.*))?$")
CONTINUATION = re.compile(r"^  (?P<text>\S.*)$")
CODE_SPAN_LABEL = re.compile(r"`([^`]+)`")
REVISION_LABEL = re.compile(r"^(?P<rev>\d{4}-\d{2}-\d{2}) (?P<verb>has|removes|deprecates)$")
STATUS_CELL = re.compile(r"^(?P<verdict>✓|✗|partial|n/a|acc\.)(?P<broken> broken)?(?: — (?P<note>.*))?$")
VALUE_CELL = re.compile(r"^(?P<sign>[+−-]) (?P<level>\S+)$")

STANDARD_FIELDS = {
    "What": "what",
    "Where": "where",
    "Effort": "effort",
    "Risk": "risk",
    "Detail": "detail",
    "Sources": "sources",
}
REQUIRED_FIELDS = ("what", "where", "status", "value", "effort", "risk", "detail", "sources")


def table_header(subject: str, commit: str) -> tuple[str, ...]:
    return (*TABLE_HEADER_FIXED, f"{subject} @ {commit}", *TABLE_HEADER_TAIL)


def field_label(key: str, subject: str) -> str:
    """The bullet name of a standard field, for messages."""
    if key == "status":
        return f"{subject or 'subject'} @ <commit>"
    return key.capitalize()


def escape_cell(text: str) -> str:
    """A table cell: a literal pipe must be escaped to stay inside its cell."""
    return text.replace("|", "\\|")
