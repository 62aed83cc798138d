"""The HTML every listing shows of a row, rendered once when the row is loaded and kept on it.

A row list or matrix of 100 rows then costs a handful of string joins instead of thousands of
template lookups (it cost 75-80 ms of CPU a page). The fragments hold nothing that changes
without the row changing: not the register's title (the listing adds that), not citation
verdicts or probe results.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode

from language import vocabulary as vocab

PROVENANCE = {
    vocab.FROM_WHERE_CELL: "stated in the Where cell",
    vocab.FROM_LABEL: "from a revision label",
    vocab.INFERRED: "inferred from the revision labels",
}
SYMBOLS = {vocab.EXISTS: "✓", vocab.ABSENT: "—", vocab.DEPRECATED: "dep"}
TEMPLATE = "registers/_row_fragments.html"
#: The three fragments come from one rendering (one template call per row), split here.
SEPARATOR = "<!--fragment-->"


@dataclass(frozen=True)
class Fragments:
    lead_html: str
    cells_html: str
    matrix_html: str


@dataclass(frozen=True)
class Links:
    """The two URLs fragments link to, reversed once for a whole batch of rows."""

    row_list: str
    row_pattern: str  # with {slug} and {id}

    @classmethod
    def current(cls) -> Links:
        pattern = reverse("registers:row_detail", args=["SLUG", "ROWID"]).replace("SLUG", "{slug}")
        return cls(reverse("registers:row_list"), pattern.replace("ROWID", "{id}"))


def fragments(
    row,
    *,
    labels: list[tuple[str, str]],
    support: list[tuple[str, str, str, str]],
    hosts: dict[str, tuple[str, list[str]]],
    links: Links | None = None,
) -> Fragments:
    """The three fragments of one row: the row's own fields read off `row` (a model or a
    historical model), its children as plain values: labels as (text, kind), support as
    (revision, state, note, source) in revision order, hosts as {host: (state, where)}."""
    links = links or Links.current()
    row_list = links.row_list
    subject = row.register.subject
    context = {
        "url": links.row_pattern.format(slug=row.register.slug, id=row.row_id),
        "row_id": row.row_id,
        "title_html": row.title_html,
        "difference_html": row.difference_html or row.title_html,
        "labels": [
            {"text": text, "kind": kind, "href": f"{row_list}?{urlencode({'label': text})}"} for text, kind in labels
        ],
        "support": [_revision(*item) for item in support],
        "hosts": [
            (
                vocab.host_name(host, subject),
                _host(vocab.host_name(host, subject), host, *hosts[host]) if host in hosts else None,
            )
            for host in vocab.HOSTS
        ],
        "status_class": row.status_verdict or "none",
        "status_symbol": vocab.STATUS_LABELS.get(row.status_verdict, ""),
        "status_cell": row.status_cell,
        "status_broken": row.status_broken,
        "value_display": f"{row.value_sign} {row.value_level}".strip(),
        "effort": row.effort,
        "risk": row.risk,
    }
    lead, cells, matrix = (part.strip() for part in render_to_string(TEMPLATE, context).split(SEPARATOR))
    return Fragments(lead, cells, matrix)


def _revision(revision: str, state: str, note: str, source: str) -> dict[str, str]:
    provenance = PROVENANCE.get(source, "the register does not say")
    return {
        "state": state,
        "title": f"{revision}: {state}{f' — {note}' if note else ''} ({provenance})",
        "text": f"{state}: {note}" if note else state,
        "short": vocab.REVISION_SHORT.get(revision, revision),
        "symbol": SYMBOLS.get(state, "?"),
    }


def _host(name: str, host: str, state: str, where: list[str]) -> dict[str, str]:
    title = f"{name}: {state}" + (f" — {'; '.join(where)}" if where else "")
    return {"host": host, "state": state, "css": state.replace("/", ""), "title": title}


def fill(rows, labels: dict, support: dict, notes: dict) -> None:
    """Set the fragments on row objects (models or historical models) from their children, given
    as {row pk: [...]} in the shapes `fragments` takes."""
    links = Links.current()
    for row in rows:
        parts = fragments(
            row,
            labels=labels.get(row.pk, []),
            support=support.get(row.pk, []),
            hosts=notes.get(row.pk, {}),
            links=links,
        )
        row.lead_html, row.cells_html, row.matrix_html = parts.lead_html, parts.cells_html, parts.matrix_html


def fill_from_documents(pairs) -> None:
    """Set the fragments on (row, RowDoc) pairs during a load, from the documents."""
    links = Links.current()
    for row, doc in pairs:
        parts = fragments(
            row,
            labels=[(label.text, label.kind) for label in doc.labels],
            support=[(s.revision, s.state, s.note, s.source) for s in doc.support],
            hosts={note.host: (note.state, note.where) for note in doc.host_notes},
            links=links,
        )
        row.lead_html, row.cells_html, row.matrix_html = parts.lead_html, parts.cells_html, parts.matrix_html
