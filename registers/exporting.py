"""Exports of the rows a filter selects: Markdown in the register format (registers.core.format's
writer), the HTML report (templates/reports/report.html, autoescaped), JSON and CSV
(registers.core.row_reports). Streamed from the database in chunks so memory stays flat whatever the size
of the register set."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from django.db.models import Count
from django.http import HttpResponseBase
from django.template.loader import get_template
from django.utils import timezone

from common.downloads import download
from evidence.probe_findings import latest_probe_verdicts
from evidence.rules.latest_verdicts import LatestVerdicts
from language import linking
from registers import filters
from registers.core import report_rows, rowcompare
from registers.core import row_reports as reports
from registers.core.citations import locator
from registers.core.format import RegisterHead, RegisterRow, registers_text
from registers.core.rowfacts import RowFacts
from registers.models import Citation, HostNote, Label, Register, RevisionSupport, Row

CHUNK = 500
CONTENT_TYPES = {
    "md": "text/markdown; charset=utf-8",
    "html": "text/html; charset=utf-8",
    "json": "application/json",
    "csv": "text/csv; charset=utf-8",
}


def register_dict(register: Register) -> dict[str, Any]:
    return {
        "slug": register.slug,
        "title": register.title,
        "description": register.description,
        "tags": register.tags,
        "status": register.status,
        "increment": register.increment,
        "subject": register.subject,
        "subject_commit": register.subject_commit,
        "intro": register.intro,
        "created": register.front_matter.get("created") or (register.created.isoformat() if register.created else ""),
        "last_updated": register.front_matter.get("last-updated")
        or (register.last_updated.isoformat() if register.last_updated else ""),
    }


ROW_COLUMNS = (
    "pk",
    "register__slug",
    "row_id",
    "title",
    "difference",
    "labels_cell",
    "where_cell",
    "status_cell",
    "value_cell",
    "effort_cell",
    "risk_cell",
    "status_verdict",
    "introduced_in",
    "removed_in",
    "deprecated_in",
    "fields",
    "anchors",
)
HTML_COLUMNS = ("title_html", "difference_html", "status_html")
CITATION_COLUMNS = ("row_id", "verdict", "kind", "path", "url", "web_url", "wire_ids", "line_start", "line_end")


def ordered_pks(row_filter: filters.RowFilter) -> list[int]:
    """The selected rows' keys in export order: by register (its title, then the register, so two
    registers of one title never interleave), then the row's place in it. One query of every
    row's key, never an IN list of the selection (SQLite refuses one of 50,000)."""
    every = Row.objects.order_by("register__title", "register_id", "order").values_list("pk", flat=True)
    filtered = filters.run(row_filter)
    if filtered.selects_all:
        return list(every)
    selected = set(filtered.pks)
    return [pk for pk in every if pk in selected]


def row_dicts(row_filter: filters.RowFilter, *, with_html: bool = False) -> Iterator[dict[str, Any]]:
    """Every selected row as plain data, CHUNK rows at a time from five flat queries: building
    model instances for each row's labels, support, notes and citations cost 7 ms a row."""
    probe = latest_probe_verdicts()
    pks = ordered_pks(row_filter)
    compared = rowcompare.for_filter(row_filter)
    for start in range(0, len(pks), CHUNK):
        for item in _chunk_dicts(pks[start : start + CHUNK], probe, with_html):
            if compared:
                facts = RowFacts(0, item["register"], support=item["support"], hosts=item["hosts"])
                item["compared"] = rowcompare.compared_dicts(compared, facts)
            yield item


def _chunk_dicts(pks: list[int], probe: LatestVerdicts, with_html: bool) -> Iterator[dict[str, Any]]:
    columns = ROW_COLUMNS + (HTML_COLUMNS if with_html else ())
    rows = {
        values[0]: dict(zip(columns, values, strict=True))
        for values in Row.objects.filter(pk__in=pks).values_list(*columns)
    }
    labels, support, hosts = _children(pks)
    counts = _citation_counts(pks)
    links = _citation_links(pks) if with_html else {}
    for pk in pks:
        row = rows.get(pk)
        if row is None:  # deleted by a load since the keys were read
            continue
        item = {
            "register": row["register__slug"],
            **{name: row[name] for name in ROW_COLUMNS[2:-2]},
            "fields": [{"name": f["name"], "text": f["text"]} for f in row["fields"]],
            "labels": labels.get(pk, []),
            "support": support.get(pk, {}),
            "hosts": hosts.get(pk, {}),
            "citations": counts.get(pk, {}),
            "probe": probe.by_target(item["anchor"] for item in row["anchors"] or ()),
        }
        if with_html:
            item["citation_links"] = links.get(pk, [])
            item["html"] = {
                "title": row["title_html"],
                "difference": row["difference_html"],
                "status": row["status_html"],
                "fields": [f["html"] for f in row["fields"]],
            }
        yield item


def _children(pks: list[int]) -> tuple[dict, dict, dict]:
    """Labels, revision support and host notes of the rows, by row key, in order."""
    labels: dict[int, list[str]] = {}
    for row, text in Label.objects.filter(row_id__in=pks).order_by("row_id", "order").values_list("row_id", "text"):
        labels.setdefault(row, []).append(text)
    support: dict[int, dict[str, str]] = {}
    for row, revision, state in (
        RevisionSupport.objects.filter(row_id__in=pks)
        .order_by("row_id", "revision")
        .values_list("row_id", "revision", "state")
    ):
        support.setdefault(row, {})[revision] = state
    hosts: dict[int, dict[str, str]] = {}
    for row, host, state in (
        HostNote.objects.filter(row_id__in=pks).order_by("row_id", "order").values_list("row_id", "host", "state")
    ):
        hosts.setdefault(row, {})[host] = state
    return labels, support, hosts


def _citation_counts(pks: list[int]) -> dict[int, dict[str, int]]:
    """{row key: {verdict: citations}} of the file citations (links and wire references have none)."""
    counts: dict[int, dict[str, int]] = {}
    found = (
        Citation.objects.filter(row_id__in=pks)
        .exclude(kind__in=("url", "wire"))
        .values_list("row_id", "verdict")
        .annotate(n=Count("id"))
        .order_by()
    )
    for row, verdict, n in found:
        counts.setdefault(row, {})[verdict] = n
    return counts


def _citation_links(pks: list[int]) -> dict[int, list[dict[str, str]]]:
    links: dict[int, list[dict[str, str]]] = {}
    for row, verdict, kind, path, url, web_url, wire_ids, start, end in (
        Citation.objects.filter(row_id__in=pks).order_by("row_id", "order").values_list(*CITATION_COLUMNS)
    ):
        links.setdefault(row, []).append(
            {"locator": locator(kind, path, url, wire_ids, start, end), "url": web_url, "verdict": verdict}
        )
    return links


def register_head(register: Register) -> RegisterHead:
    data = register_dict(register)
    return RegisterHead(
        title=data["title"],
        subject=data["subject"],
        subject_commit=data["subject_commit"],
        created=data["created"],
        last_updated=data["last_updated"],
        increment=data["increment"],
        status=data["status"],
        tags=tuple(data["tags"]),
        description=data["description"],
        intro=data["intro"],
        slug=data["slug"],
    )


ROW_CELLS = ("difference", "labels_cell", "where_cell", "status_cell", "value_cell", "effort_cell", "risk_cell")


def register_row(row: dict[str, Any]) -> RegisterRow:
    return RegisterRow(
        row_id=row["row_id"],
        title=row["title"],
        cells=tuple(row[cell] for cell in ROW_CELLS),
        fields=tuple((field["name"], field["text"]) for field in row["fields"]),
    )


def html_chunks(meta: dict[str, Any], registers: list[dict[str, Any]], rows, *, base_url: str = "") -> Iterator[str]:
    """The HTML report in parts: its head, one section per row, its tail (one template). Its links
    are absolute (to `base_url`), so they work from the downloaded file; a row no loaded register
    has is text, as on the pages."""
    known = Row.objects.loaded_ids()
    for chunk in _html_parts(meta, registers, rows):
        yield linking.absolute_links(linking.settle_row_links(chunk, known), base_url)


def _html_parts(meta: dict[str, Any], registers: list[dict[str, Any]], rows) -> Iterator[str]:
    head, tail = (get_template(f"reports/report.html#{part}") for part in ("head", "tail"))
    yield head.render({"meta": meta, "registers": registers})
    count = 0
    batch: list[str] = []
    for row in rows:
        count += 1
        batch.append(report_rows.row_section(row))
        if len(batch) == CHUNK:
            yield "".join(batch)
            batch = []
    yield "".join(batch)
    yield tail.render({"count": count})


def file_name(row_filter: filters.RowFilter, fmt: str) -> str:
    """`mcp-compare-rows-register-prompts-status-no.csv`: the filter in the name, so two exports of
    different filters never share one."""
    words = [f"{key}-{value}" for key, value in row_filter.params()]
    name = re.sub(r"[^A-Za-z0-9.-]+", "-", "-".join(["mcp-compare-rows", *words])).strip("-")
    return f"{name[:150].rstrip('-')}.{fmt}"


def _grouped(registers, rows: Iterator[dict[str, Any]]) -> Iterator[tuple[RegisterHead, list[RegisterRow]]]:
    """(head, rows) per register, one register's rows held at a time: rows come in register order."""
    rows = iter(rows)
    pending = next(rows, None)
    for register in registers:
        own: list[RegisterRow] = []
        while pending is not None and pending["register"] == register.slug:
            own.append(register_row(pending))
            pending = next(rows, None)
        yield register_head(register), own


def export_chunks(fmt: str, row_filter: filters.RowFilter, *, base_url: str = "") -> Iterator[str]:
    """The chunks of one export of the rows `row_filter` selects."""
    registers = Register.objects.filter(pk__in=filters.apply(row_filter).values("register")).order_by("title", "pk")
    meta = {"generated": timezone.now().isoformat(timespec="seconds"), "filter": row_filter.params()}
    if fmt == "md":
        yield from registers_text(_grouped(registers, row_dicts(row_filter)))
    elif fmt == "html":
        yield from html_chunks(
            meta, [register_dict(r) for r in registers], row_dicts(row_filter, with_html=True), base_url=base_url
        )
    elif fmt == "json":
        yield from reports.json_report(meta, [register_dict(r) for r in registers], row_dicts(row_filter))
    elif fmt == "csv":
        yield from reports.csv_report(row_dicts(row_filter))
    else:
        raise ValueError(f"unknown export format {fmt!r}")


# --- the disagreements list ---------------------------------------------------------------------

DISAGREEMENT_FORMATS = {key: CONTENT_TYPES[key] for key in ("md", "json", "csv")}


def disagreement_dicts(items) -> list[dict[str, Any]]:
    return [
        {
            "register": item.register,
            "row_id": item.row_id,
            "title": item.title,
            "host": item.host,
            "claim": item.claim,
            "conflicts": [source.as_dict() for source in item.conflicts],
            "support": [source.as_dict() for source in item.support],
        }
        for item in items
    ]


def disagreements_response(items, fmt: str) -> HttpResponseBase:
    data = disagreement_dicts(items)
    if fmt == "md":
        chunks = [reports.disagreements_markdown(data)]
    elif fmt == "csv":
        chunks = reports.disagreements_csv(data)
    else:
        chunks = [reports.disagreements_json(data, timezone.now().isoformat(timespec="seconds"))]
    return download(chunks, content_type=DISAGREEMENT_FORMATS[fmt], filename=f"mcp-compare-disagreements.{fmt}")
