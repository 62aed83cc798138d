"""Exports over plain data: JSON and CSV of rows, and the DPCTER audit. Pure, no Django: every
function takes dicts and yields text chunks, so a caller can stream. (Markdown is written by
registers.core.format's writer; the HTML report's head and tail from templates/reports/report.html,
its rows by comparison.core.report_rows.)

Row dicts carry: register (slug), row_id, title, difference, labels_cell, where_cell, status_cell,
value_cell, effort_cell, risk_cell, fields [{name, text}], labels [text], support {revision: state},
hosts {host: state}, introduced_in, removed_in, deprecated_in, citations {verdict: count},
probe {target name: {verdict: count}} (optional): the latest run of each target, never summed
across targets.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

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


MARKDOWN_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
MARKDOWN_MARKS = re.compile(r"`|\*\*|__")


def plain_text(markdown: str) -> str:
    """A register cell without its Markdown marks: code spans, bold, links (their text kept)."""
    return MARKDOWN_MARKS.sub("", MARKDOWN_LINK.sub(r"\1", markdown or ""))


#: A byte order mark first, so a spreadsheet reads the file as UTF-8 (cells hold ✓, — and →).
BOM = "\ufeff"


def csv_report(rows: Iterable[dict[str, Any]]) -> Iterator[str]:
    """One line per row; lists joined by "; ", text without Markdown, every host's state ("not
    mentioned" where the row names no state), the difference only where it is not the title."""
    buffer = io.StringIO()
    writer = _SafeWriter(buffer)
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


def _said(run: dict) -> str:
    """What the target said it was in that run, when it said."""
    return f" ({_md(run['identity'])})" if run.get("identity") else ""


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


# --- a comparison of probe runs (multicompare.Comparison.as_dict()) ----------------------------------


def _score_text(score: dict[str, Any]) -> str:
    if score["percent"] is None:
        return "not scored"
    return f"{score['percent']}% ({score['same']}/{score['scored']})"


def comparison_markdown(data: dict[str, Any], host_names: dict[str, str]) -> str:
    """The comparison as Markdown: a summary table per run, then every cell."""
    runs = data["runs"]
    lines = [
        "# Probe runs compared",
        "",
        "| | " + " | ".join(f"#{r['run']} {_md(r['target'])}{_said(r)}" for r in runs) + " |",
    ]
    lines.append("|---|" + "---|" * len(runs))
    lines.append(_md_row("status", [r["status"] for r in runs]))
    for verdict in runs[0]["counts"] if runs else []:
        lines.append(_md_row(verdict, [str(r["counts"][verdict]) for r in runs]))
    lines.append(_md_row("interop (every host)", [_score_text(r["interop"]["overall"]) for r in runs]))
    for host, name in host_names.items():
        lines.append(_md_row(f"interop: {name}", [_score_text(r["interop"]["hosts"][host]) for r in runs]))
    lines.append(_md_row("valid for the revision", [_score_text(r["interop"]["valid"]) for r in runs]))
    lines.append(_md_row("official conformance suite", [r.get("conformance") or "—" for r in runs]))
    lines += ["", "## Cells", "", "| scenario | revision | " + " | ".join(f"#{r['run']}" for r in runs) + " |"]
    lines.append("|---|---|" + "---|" * len(runs))
    for line in data["cells"]:
        cells = [_md(_cell_text(cell)) for cell in line["cells"]]
        lines.append(f"| {_md(line['scenario'])} | {line['revision']} | " + " | ".join(cells) + " |")
    if data.get("conformance"):
        lines += [
            "",
            "## The official conformance suite",
            "",
            "| scenario | " + " | ".join(f"#{r['run']}" for r in runs) + " |",
        ]
        lines.append("|---|" + "---|" * len(runs))
        for line in data["conformance"]:
            lines.append(_md_row(line["scenario"], [verdict or "—" for verdict in line["verdicts"]]))
    return "\n".join(lines) + "\n"


def _md_row(label: str, values: list[str]) -> str:
    return f"| {_md(label)} | " + " | ".join(_md(value) for value in values) + " |"


def _cell_text(cell: dict[str, Any] | None) -> str:
    if cell is None:
        return "—"
    text = cell["verdict"]
    if cell["changes"]:
        text += ": " + "; ".join(cell["changes"][:3])
    if cell["differs_for"]:
        text += " (differs for " + ", ".join(cell["differs_for"]) + ")"
    return text


def _md(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def comparison_csv(data: dict[str, Any]) -> Iterator[str]:
    """One line per scenario × revision × run."""
    buffer = io.StringIO()
    writer = _SafeWriter(buffer)
    writer.writerow(["scenario", "revision", "run", "target", "verdict", "changes", "differs for hosts", "result"])
    targets = {r["run"]: r["target"] for r in data["runs"]}
    for line in data["cells"]:
        for run, cell in zip(targets, line["cells"], strict=True):
            if cell is None:
                writer.writerow([line["scenario"], line["revision"], run, targets[run], "", "", "", ""])
                continue
            writer.writerow(
                [
                    line["scenario"],
                    line["revision"],
                    run,
                    targets[run],
                    cell["verdict"],
                    "; ".join(cell["changes"]),
                    " ".join(cell["differs_for"]),
                    cell["result"],
                ]
            )
    for line in data.get("conformance") or []:
        for run, verdict in zip(targets, line["verdicts"], strict=True):
            writer.writerow([f"conformance.{line['scenario']}", "suite", run, targets[run], verdict or "", "", "", ""])
    yield buffer.getvalue()


def comparison_json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


# --- disagreements: claims some evidence contradicts -------------------------------------------------


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
    writer = _SafeWriter(buffer)
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
