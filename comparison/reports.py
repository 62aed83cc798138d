"""Exports over plain data: Markdown in the register format, a self-contained HTML report, JSON and
CSV. Pure, no Django: every function takes dicts and yields text chunks, so a caller can stream.

Row dicts carry: register (slug), row_id, title, difference, labels_cell, where_cell, status_cell,
value_cell, effort_cell, risk_cell, fields [{name, text}], labels [text], support {revision: state},
hosts {host: state}, introduced_in, removed_in, deprecated_in, citations {verdict: count},
probe {verdict: count} (optional), html {difference, title, status, fields: [html]} (HTML export).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from html import escape
from typing import Any

from registers.vocabulary import HOSTS, REVISIONS

FORMAT_ID = "mcp-compare/report/1"
#: Between register documents when a Markdown export spans several registers.
REGISTER_SEPARATOR = "\n<!-- mcp-compare: next register -->\n\n"
FRONT_MATTER_KEYS = ("created", "last-updated", "increment", "status", "tags", "description")


def _cell(text: str) -> str:
    """A table cell: a literal pipe must be escaped to stay inside its cell."""
    return text.replace("|", "\\|")


def markdown_register(register: dict[str, Any], rows: Iterable[dict[str, Any]]) -> Iterator[str]:
    """One register document in the register format (parsing it gives back the same rows)."""
    rows = list(rows)
    subject, commit = register["subject"], register["subject_commit"]
    values = {
        "created": register["created"],
        "last-updated": register["last_updated"],
        "increment": str(register["increment"]),
        "status": register["status"],
        "tags": ", ".join(register["tags"]),
        "description": register["description"],
    }
    yield f"# {register['title']}\n\n```\n"
    for key in FRONT_MATTER_KEYS:
        yield f"{key + ':':<14}{values[key]}\n"
    yield "```\n\n"
    if register.get("intro"):
        yield register["intro"].strip() + "\n\n"
    yield f"Status column: **{subject} @ {commit}**. Legend and citation conventions: [../README.md](../README.md).\n\n"
    yield f"| ID | Difference | Labels | Where it exists | {subject} @ {commit} | Value | Effort | Risk |\n"
    yield "| --- | --- | --- | --- | --- | --- | --- | --- |\n"
    for row in rows:
        cells = [
            row["row_id"],
            row["difference"],
            row["labels_cell"],
            row["where_cell"],
            row["status_cell"],
            row["value_cell"],
            row["effort_cell"],
            row["risk_cell"],
        ]
        yield "| " + " | ".join(_cell(cell) for cell in cells) + " |\n"
    for index, row in enumerate(rows):
        yield f"\n## {row['row_id']} {row['title']}\n\n"
        for field in row["fields"]:
            yield f"- **{field['name']}.** {field['text']}\n"
        if index == len(rows) - 1:
            break


def markdown(registers: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> Iterator[str]:
    for index, (register, rows) in enumerate(registers):
        if index:
            yield REGISTER_SEPARATOR
        yield from markdown_register(register, rows)


def split_markdown(text: str) -> list[str]:
    return [part.strip("\n") + "\n" for part in text.split(REGISTER_SEPARATOR)]


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


#: A spreadsheet reads a cell starting with one of these as a formula (OWASP's CSV injection list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """A text cell a spreadsheet cannot run: a leading formula character gets a `'` before it.
    Numbers stay numbers; JSON and Markdown exports are never touched."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class _SafeWriter:
    """csv.writer whose text cells are spreadsheet-safe."""

    def __init__(self, buffer: io.StringIO):
        self.writer = csv.writer(buffer, lineterminator="\n")

    def writerow(self, row: Iterable[Any]) -> None:
        self.writer.writerow([spreadsheet_safe(value) for value in row])


def csv_report(rows: Iterable[dict[str, Any]]) -> Iterator[str]:
    buffer = io.StringIO()
    writer = _SafeWriter(buffer)
    writer.writerow(CSV_COLUMNS)
    yield buffer.getvalue()
    for row in rows:
        buffer.seek(0)
        buffer.truncate()
        citations = row.get("citations") or {}
        writer.writerow(
            [
                row["register"],
                row["row_id"],
                row["title"],
                row["difference"],
                " ".join(row["labels"]),
                row["status_cell"],
                row["value_cell"],
                row["effort_cell"],
                row["risk_cell"],
                row["introduced_in"],
                row["removed_in"],
                row["deprecated_in"],
                *(row["support"].get(rev, "unknown") for rev in REVISIONS),
                *(row["hosts"].get(host, "") for host in HOSTS),
                sum(citations.values()),
                citations.get("drifted", 0) + citations.get("file missing", 0),
                citations.get("moved", 0),
                "; ".join(f"{verdict}: {n}" for verdict, n in sorted((row.get("probe") or {}).items())),
            ]
        )
        yield buffer.getvalue()


HTML_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2330;margin:2rem;line-height:1.45}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:0}code{font-family:ui-monospace,Menlo,monospace;font-size:.9em}
.meta{color:#5b6475;font-size:.9rem}.row{border:1px solid #d9dde5;border-radius:6px;padding:.8rem 1rem;margin:1rem 0;
page-break-inside:avoid;break-inside:avoid}.strip span{display:inline-block;font-size:.75rem;padding:0 .3rem;
margin-right:2px;border-radius:3px;border:1px solid #d9dde5}.exists{background:#dff3e4}.absent{background:#f4f4f4}
.deprecated{background:#fff2cc}.unknown{border-style:dashed!important}dt{font-weight:600;margin-top:.4rem}dd{margin:0}
table{border-collapse:collapse}td,th{border:1px solid #d9dde5;padding:.2rem .4rem;font-size:.85rem;text-align:left}
@media print{body{margin:1cm}.row{border-color:#999}}
"""


def html_report(meta: dict[str, Any], registers: list[dict[str, Any]], rows: Iterable[dict[str, Any]]) -> Iterator[str]:
    """A single self-contained page: inline CSS, no scripts, no external resources. Row HTML comes
    from the load-time renderer (raw HTML escaped); everything else is escaped here."""
    yield (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>mcp-compare report</title>'
        f"<style>{HTML_STYLE}</style></head><body>"
    )
    yield '<h1>mcp-compare report</h1><p class="meta">Generated ' + escape(meta["generated"])
    filters = ", ".join(f"{escape(k)}={escape(v)}" for k, v in meta["filter"]) or "none (every row)"
    yield f" · filters: {filters}</p><table><thead><tr><th>Register</th><th>Status column</th><th>Increment</th>"
    yield "<th>Last updated</th></tr></thead><tbody>"
    for register in registers:
        yield (
            f"<tr><td>{escape(register['title'])}</td><td><code>{escape(register['subject'])} @ "
            f"{escape(register['subject_commit'])}</code></td><td>{register['increment']}</td>"
            f"<td>{escape(register['last_updated'])}</td></tr>"
        )
    yield "</tbody></table>"
    count = 0
    for row in rows:
        count += 1
        html = row.get("html") or {}
        yield (
            f'<section class="row" id="{escape(row["row_id"])}"><h2>{escape(row["row_id"])} '
            f"{html.get('title') or escape(row['title'])}</h2>"
        )
        yield f'<p class="meta">{escape(row["register"])} · labels: {escape(", ".join(row["labels"]))}</p>'
        yield (
            '<p class="strip">'
            + "".join(
                f'<span class="{escape(row["support"].get(rev, "unknown"))}">{rev[2:7]} '
                f"{escape(row['support'].get(rev, 'unknown'))}</span>"
                for rev in REVISIONS
            )
            + "</p>"
        )
        yield (
            f"<dl><dt>Status</dt><dd>{html.get('status') or escape(row['status_cell'])}</dd>"
            f"<dt>Value · effort · risk</dt><dd>{escape(row['value_cell'])} · {escape(row['effort_cell'])} · "
            f"{escape(row['risk_cell'])}</dd>"
        )
        hosts = ", ".join(f"{escape(h)}: {escape(s)}" for h, s in row["hosts"].items()) or "none named"
        yield f"<dt>Hosts</dt><dd>{hosts}</dd>"
        citations = row.get("citations") or {}
        verdicts = ", ".join(f"{escape(v or 'never verified')}: {n}" for v, n in sorted(citations.items())) or "none"
        yield f"<dt>Citation verdicts</dt><dd>{verdicts}</dd>"
        probe = row.get("probe") or {}
        if probe:
            yield "<dt>Latest probe verdicts</dt><dd>" + escape(
                ", ".join(f"{v}: {n}" for v, n in sorted(probe.items()))
            )
            yield "</dd>"
        field_html = html.get("fields") or [escape(field["text"]) for field in row["fields"]]
        for field, rendered in zip(row["fields"], field_html, strict=False):
            yield f"<dt>{escape(field['name'])}</dt><dd>{rendered}</dd>"
        yield "</dl></section>"
    yield f'<p class="meta">{count} row{"s" if count != 1 else ""}.</p></body></html>\n'


def audit_csv(table: list[dict[str, Any]]) -> Iterator[str]:
    """The DPCTER audit as CSV: one line per coordinate and consumer."""
    buffer = io.StringIO()
    writer = _SafeWriter(buffer)
    writer.writerow(
        ["coordinate", "consumer", "typed", "typed_and_text", "failures", "published_typed", "published_typed_and_text"]
    )
    for line in table:
        writer.writerow(
            [
                line["coordinate"],
                line["consumer"],
                line["typed"],
                line["with_text"],
                line["total"],
                line["published"][0],
                line["published"][1],
            ]
        )
    yield buffer.getvalue()


AUDIT_FORMAT_ID = "mcp-compare/audit/1"


def audit_json(run_id: int, target: str, published_total: int, cells: list[dict[str, Any]]) -> str:
    """The DPCTER audit of one run as JSON: one cell per coordinate and consumer."""
    payload = {
        "format": AUDIT_FORMAT_ID,
        "run": run_id,
        "target": target,
        "published_total": published_total,
        "cells": cells,
    }
    return json.dumps(payload, indent=2)
