"""The probe app's exports over plain data: the DPCTER audit of a run, and a comparison of runs
(Markdown, CSV, JSON). Pure, no Django: every function takes dicts and returns or yields text."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

from language.tables import SafeWriter
from language.tables import markdown_cell as _md


def audit_csv(table: list[dict[str, Any]]) -> Iterator[str]:
    """The DPCTER audit as CSV: one line per coordinate and consumer."""
    buffer = io.StringIO()
    writer = SafeWriter(buffer)
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


def comparison_csv(data: dict[str, Any]) -> Iterator[str]:
    """One line per scenario × revision × run."""
    buffer = io.StringIO()
    writer = SafeWriter(buffer)
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
