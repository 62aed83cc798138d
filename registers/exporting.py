"""Exports of the rows a filter selects: Markdown in the register format (registers.format's
writer), the HTML report (templates/reports/report.html, autoescaped), JSON and CSV
(comparison.reports). Streamed from the database in chunks so memory stays flat whatever the size
of the register set."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from django.db.models import Prefetch
from django.http import HttpResponse
from django.template.loader import get_template
from django.utils import timezone
from django.utils.safestring import mark_safe

from comparison import reports
from comparison.selectors import latest_probe_verdicts

from . import filters, linking
from .format import RegisterHead, RegisterRow, registers_text
from .models import Citation, HostNote, Label, Register, RevisionSupport, Row
from .vocabulary import REVISIONS

CHUNK = 200
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


def rows_queryset(row_filter: filters.RowFilter):
    return (
        filters.apply(row_filter)
        .select_related("register")
        .prefetch_related(
            Prefetch("labels", queryset=Label.objects.order_by("order")),
            Prefetch("support", queryset=RevisionSupport.objects.order_by("revision")),
            Prefetch("host_notes", queryset=HostNote.objects.order_by("order")),
            Prefetch(
                "citations",
                queryset=Citation.objects.only(
                    "id",
                    "row_id",
                    "order",
                    "verdict",
                    "kind",
                    "path",
                    "url",
                    "web_url",
                    "wire_ids",
                    "line_start",
                    "line_end",
                ).order_by("order"),
            ),
        )
        .order_by("register__title", "order")
    )


def row_dicts(row_filter: filters.RowFilter, *, with_html: bool = False) -> Iterator[dict[str, Any]]:
    probe = latest_probe_verdicts()
    for row in rows_queryset(row_filter).iterator(chunk_size=CHUNK):
        item = {
            "register": row.register.slug,
            "row_id": row.row_id,
            "title": row.title,
            "difference": row.difference,
            "labels_cell": row.labels_cell,
            "where_cell": row.where_cell,
            "status_cell": row.status_cell,
            "value_cell": row.value_cell,
            "effort_cell": row.effort_cell,
            "risk_cell": row.risk_cell,
            "status_verdict": row.status_verdict,
            "introduced_in": row.introduced_in,
            "removed_in": row.removed_in,
            "deprecated_in": row.deprecated_in,
            "fields": [{"name": f["name"], "text": f["text"]} for f in row.fields],
            "labels": [label.text for label in row.labels.all()],
            "support": {s.revision: s.state for s in row.support.all()},
            "hosts": {note.host: note.state for note in row.host_notes.all()},
            "citations": dict(Counter(c.verdict for c in row.citations.all() if c.kind not in ("url", "wire"))),
            "probe": dict(probe.get(row.row_id, {})),
        }
        if with_html:
            item["citation_links"] = [
                {"locator": c.locator, "url": c.web_url, "verdict": c.verdict} for c in row.citations.all()
            ]
            item["html"] = {
                "title": row.title_html,
                "difference": row.difference_html,
                "status": row.status_html,
                "fields": [f["html"] for f in row.fields],
            }
        yield item


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
    head, row_part, tail = (get_template(f"reports/report.html#{part}") for part in ("head", "row", "tail"))
    yield head.render({"meta": meta, "registers": registers})
    count = 0
    for row in rows:
        count += 1
        html = row.get("html") or {}
        rendered = html.get("fields") or []
        context = {
            "row": row,
            "strip": [(revision, row["support"].get(revision, "unknown")) for revision in REVISIONS],
            "citations": sorted((row.get("citations") or {}).items()),
            "probe": sorted((row.get("probe") or {}).items()),
            "fields": [
                (field["name"], mark_safe(rendered[index]) if index < len(rendered) else field["text"])  # noqa: S308 - load-time renderer output, raw HTML escaped
                for index, field in enumerate(row["fields"])
            ],
        }
        yield row_part.render(context)
    yield tail.render({"count": count})


def file_name(row_filter: filters.RowFilter, fmt: str) -> str:
    """`mcp-compare-rows-register-prompts-status-no.csv`: the filter in the name, so two exports of
    different filters never share one."""
    words = [f"{key}-{value}" for key, value in row_filter.params()]
    name = re.sub(r"[^A-Za-z0-9.-]+", "-", "-".join(["mcp-compare-rows", *words])).strip("-")
    return f"{name[:150].rstrip('-')}.{fmt}"


def export_chunks(fmt: str, row_filter: filters.RowFilter, *, base_url: str = "") -> Iterator[str]:
    """The chunks of one export of the rows `row_filter` selects."""
    registers = Register.objects.filter(pk__in=filters.apply(row_filter).values("register")).order_by("title")
    meta = {"generated": timezone.now().isoformat(timespec="seconds"), "filter": row_filter.params()}
    if fmt == "md":
        grouped: dict[str, list[RegisterRow]] = {}
        for row in row_dicts(row_filter):
            grouped.setdefault(row["register"], []).append(register_row(row))
        yield from registers_text([(register_head(r), grouped.get(r.slug, [])) for r in registers])
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


def disagreement_dicts(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "register": item["row"].register.slug,
            "row_id": item["row"].row_id,
            "title": item["row"].title,
            "host": item["host"],
            "claim": item["claim"],
            "conflicts": [source.as_dict() for source in item["conflicts"]],
            "support": [source.as_dict() for source in item["support"]],
        }
        for item in items
    ]


def disagreements_response(items: list[dict[str, Any]], fmt: str) -> HttpResponse:
    data = disagreement_dicts(items)
    if fmt == "md":
        body = reports.disagreements_markdown(data)
    elif fmt == "csv":
        body = "".join(reports.disagreements_csv(data))
    else:
        body = reports.disagreements_json(data, timezone.now().isoformat(timespec="seconds"))
    response = HttpResponse(body, content_type=DISAGREEMENT_FORMATS[fmt])
    response["Content-Disposition"] = f'attachment; filename="mcp-compare-disagreements.{fmt}"'
    return response
