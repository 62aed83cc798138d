"""The cross-era grid as a download: JSON, CSV (one line per pair) and Markdown. Pure, no Django."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

from comparison.core.era_grid import Grid
from language.tables import spreadsheet_safe

CSV_COLUMNS = (
    "client_revision", "upstream_revision", "agreed", "reading", "survived", "counted", "share", "rule", "cites",
)  # fmt: skip


def grid_json(grid: Grid, meta: dict[str, Any]) -> str:
    return json.dumps({**meta, **grid.as_dict()}, indent=2, ensure_ascii=False)


def grid_csv(grid: Grid) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for pair in grid.pairs.values():
        data = pair.as_dict()
        cites = " ".join(cite["path"] for cite in data["rule"]["cites"])
        line = [data[name] for name in CSV_COLUMNS[:7]] + [data["rule"]["outcome"], cites]
        writer.writerow([spreadsheet_safe(value) for value in line])
    yield buffer.getvalue()


def _md(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def grid_markdown(grid: Grid, title: str) -> str:
    lines = [f"# {_md(title)}", "", "Client revision down, upstream revision across: survived / counted, reading.", ""]
    lines.append("| client | " + " | ".join(f"upstream {u}" for u in grid.upstreams) + " |")
    lines.append("| --- |" + " --- |" * len(grid.upstreams))
    for client, row in grid.rows():
        chips = [f"{p.percent} ({p.survived}/{p.counted}) {p.reading}" if p else "–" for p in row]
        lines.append(f"| {client} | " + " | ".join(_md(chip) for chip in chips) + " |")
    if grid.hosts:
        lines += ["", "| host | asks for | " + " | ".join(grid.upstreams) + " |"]
        lines.append("| --- | --- |" + " --- |" * len(grid.upstreams))
        for line, shares in grid.host_rows():
            lines.append(f"| {_md(line.label)} | {line.asks} | " + " | ".join(shares) + " |")
    return "\n".join(lines) + "\n"
