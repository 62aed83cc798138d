"""The register rows' exports over plain data: JSON and CSV of rows, and the disagreements. Pure, no Django: every
function takes dicts and yields text chunks, so a caller can stream. (Markdown is written by
registers.core.format's writer; the HTML report's head and tail from templates/reports/report.html,
its rows by registers.core.report_rows.)

Row dicts carry: register (slug), row_id, title, difference, labels_cell, where_cell, status_cell,
value_cell, effort_cell, risk_cell, fields [{name, text}], labels [text], support {revision: state},
hosts {host: state}, introduced_in, removed_in, deprecated_in, citations {verdict: count},
probe {target name: {verdict: count}} (optional): the latest run of each target, never summed
across targets.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from language.tables import BOM, SafeWriter
from language.tables import markdown_cell as _md
from language.vocabulary import HOSTS, REVISIONS

FORMAT_ID = "mcp-compare/report/1"


def json_report(meta: dict[str, Any], registers: list[dict[str, Any]], rows: Iterable[dict[str, Any]]) -> Iterator[str]:
    """{"format", "generated", "filter", "registers": [...], "rows": [...]}, streamed row by row."""
    yield "{" + f'"format": {json.dumps(FORMAT_ID)}, "generated": {json.dumps(meta["generated"])}, '
    yield f'"filter": {json.dumps(meta["filter"], sort_keys=True)}, '
    yield f'"registers": {json.dumps(registers, sort_keys=True, ensure_ascii=False)}, "rows": ['
    for index, row in enumerate(rows):
        plain = {key: value for key, value in row.items() if key != "html"}
        yield ("," if index else "") + "\n" + json.dumps(plain, sort_keys=True, ensure_ascii=False)
    yield "\n]}\n"


CSV_COLUMNS = (
    [
        "register",
        "row_id",
        "title",
        "difference",
        "labels",
        "status",
        "value",
        "effort",
        "risk",
        "introduced_in",
        "removed_in",
        "deprecated_in",
    ]
    + [f"revision {rev}" for rev in REVISIONS]
    + [f"host {host}" for host in HOSTS]
    + ["citations", "citations drifted", "citations moved", "probe verdicts"]
)


MARKDOWN_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
MARKDOWN_MARKS = re.compile(r"`|\*\*|__")


def plain_text(markdown: str) -> str:
    """A register cell without its Markdown marks: code spans, bold, links (their text kept)."""
    return MARKDOWN_MARKS.sub("", MARKDOWN_LINK.sub(r"\1", markdown or ""))


def csv_report(rows: Iterable[dict[str, Any]]) -> Iterator[str]:
    """One line per row; lists joined by "; ", text without Markdown, every host's state ("not
    mentioned" where the row names no state), the difference only where it is not the title."""
    buffer = io.StringIO()
    writer = SafeWriter(buffer)
    writer.writerow(CSV_COLUMNS)
    yield BOM + buffer.getvalue()
    for row in rows:
        buffer.seek(0)
        buffer.truncate()
        citations = row.get("citations") or {}
        writer.writerow(
            [
                row["register"],
                row["row_id"],
                plain_text(row["title"]),
                "" if plain_text(row["difference"]) == plain_text(row["title"]) else plain_text(row["difference"]),
                "; ".join(row["labels"]),
                plain_text(row["status_cell"]),
                plain_text(row["value_cell"]),
                plain_text(row["effort_cell"]),
                plain_text(row["risk_cell"]),
                row["introduced_in"],
                row["removed_in"],
                row["deprecated_in"],
                *(row["support"].get(rev, "unknown") for rev in REVISIONS),
                *(row["hosts"].get(host) or "not mentioned" for host in HOSTS),
                sum(citations.values()),
                citations.get("drifted", 0) + citations.get("file missing", 0),
                citations.get("moved", 0),
                probe_text(row.get("probe") or {}),
            ]
        )
        yield buffer.getvalue()


def probe_text(probe: dict[str, dict[str, int]]) -> str:
    """`mcp-proxy: as expected 2, differs 1; supergateway: as expected 3`."""
    return "; ".join(
        f"{target}: " + ", ".join(f"{verdict} {n}" for verdict, n in sorted(verdicts.items()))
        for target, verdicts in sorted(probe.items())
    )


def _sources_text(sources: list[dict[str, Any]]) -> str:
    return "; ".join(f"{s['kind']}: {s['label']} ({s['detail']})" for s in sources)


def disagreements_markdown(items: list[dict[str, Any]]) -> str:
    lines = ["# Disagreements", "", f"{len(items)} claim(s) some evidence contradicts.", ""]
    lines += ["| register | row | host | claim | contradicted by | supported by |", "|---|---|---|---|---|---|"]
    for item in items:
        cells = [
            item["register"],
            f"{item['row_id']} {item['title']}",
            item["host"],
            item["claim"] or "the register makes no claim for this host",
            _sources_text(item["conflicts"]),
            _sources_text(item["support"]) or "—",
        ]
        lines.append("| " + " | ".join(_md(cell) for cell in cells) + " |")
    return "\n".join(lines) + "\n"


def disagreements_csv(items: list[dict[str, Any]]) -> Iterator[str]:
    buffer = io.StringIO()
    writer = SafeWriter(buffer)
    writer.writerow(["register", "row_id", "title", "host", "claim", "contradicted by", "supported by"])
    for item in items:
        writer.writerow(
            [
                item["register"],
                item["row_id"],
                item["title"],
                item["host"],
                item["claim"],
                _sources_text(item["conflicts"]),
                _sources_text(item["support"]),
            ]
        )
    yield buffer.getvalue()


def disagreements_json(items: list[dict[str, Any]], generated: str) -> str:
    body = {"format": "mcp-compare/disagreements/1", "generated": generated, "disagreements": items}
    return json.dumps(body, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
