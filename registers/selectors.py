"""Reads that build the register pages' data. Views parse the request, call one of these and
render; nothing here writes. What the probes and the host lab found of a row comes from the
evidence layer (evidence/): this app never reads the probe app's tables itself."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from django.core.paginator import Page, Paginator
from django.db.models import Count, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.html import format_html

from common import charts
from common.http import page_or_404
from comparison.hosts.agreement import row_host_views
from comparison.hosts.findings import findings_for
from evidence import lab_findings, lab_states, probe_findings, proposals, row_evidence
from evidence.rules import evidence, evidence_related
from language import vocabulary as vocab
from language.anchors.row_anchors import shown as shown_anchors
from registers import filters
from registers.core import history, rowcompare
from registers.core.proposals.text_edits import EditConflict
from registers.models import Citation, Register, Row

PAGE_SIZE = 100
EXPORT_FORMATS = [("md", "Markdown (register format)"), ("html", "HTML report"), ("json", "JSON"), ("csv", "CSV")]
#: Verdicts a register author must act on, listed on the register page.
CITATION_PROBLEMS = (vocab.CitationVerdict.DRIFTED, vocab.CitationVerdict.FILE_MISSING, vocab.CitationVerdict.MOVED)
MAX_CITATION_PROBLEMS = 200
#: Registers with this tag hold the failure-gap rows, which link to the latest DPCTER audit.
FAILURE_TAG = "area:failures"


@dataclass
class RowsPage:
    """One page of a filtered listing: the filter state, its facets and the page's rows."""

    filtered: filters.Filtered
    page: Page

    def context(self) -> dict:
        subject = status_subject()
        column_subject = subject if subject != MIXED_SUBJECTS else "subject"
        compared = self.comparisons(subject)
        return {
            "comparisons": compared,
            "unstated": self.filtered.unstated() if compared else 0,
            "compare_links": {
                "all": self.filtered.filter.querystring(vs_all="1"),
                "stated": self.filtered.filter.querystring(vs_all=""),
            },
            "hosts": [(host, vocab.host_name(host, column_subject)) for host in vocab.HOSTS],
            "lab_hosts": [(host, vocab.HOST_NAMES[host]) for host in vocab.LAB_ONLY_HOSTS],
            "filter": self.filtered.filter,
            "filter_fields": filters.filter_fields(
                self.filtered.filter, _named_subject(self.filtered.facets(), subject)
            ),
            "matrix_columns": 1 + len(compared) + len(vocab.REVISIONS) + len(vocab.ROW_HOSTS),
            "export_formats": EXPORT_FORMATS,
            "page": self.page,
            "status_subject": subject,
        }

    def comparisons(self, subject: str) -> list[rowcompare.Comparison]:
        """The two hosts or revisions the filter compares, with each page row's two states set on
        it as `compared` (read from the facts the filter already holds: no query)."""
        f = self.filtered.filter
        names = {host: vocab.host_name(host, subject if subject != MIXED_SUBJECTS else "") for host in vocab.ROW_HOSTS}
        found = rowcompare.comparisons(f.revision, f.vs_revision, f.host, f.vs_host, names, stated_only=not f.vs_all)
        facts = {one.pk: one for one in self.filtered.evaluation.selected}
        for row in self.page.object_list:
            if found:
                row.compared = [(one, one.sides(facts[row.pk])) for one in found if row.pk in facts]
            # The lab's hosts have no register column: their cells are read from the facts live.
            stated = facts[row.pk].hosts if row.pk in facts else {}
            row.lab_cells = [(host, vocab.HOST_NAMES[host], stated.get(host, "")) for host in vocab.LAB_ONLY_HOSTS]
        return found


def status_subject() -> str:
    """Whose status the Status column gives: the registers' subject (mcpx), or a general word when
    the loaded registers describe different subjects."""
    subjects = sorted(set(Register.objects.values_list("subject", flat=True)) - {""})
    return subjects[0] if len(subjects) == 1 else MIXED_SUBJECTS


MIXED_SUBJECTS = "each register's subject"


def _named_subject(facets: dict, subject: str) -> dict:
    """The host facet with the subject host under the name the registers give it."""
    name = subject if subject != MIXED_SUBJECTS else "the subject proxy"
    facets["host"] = [replace(option, label=vocab.host_name(option.value, name)) for option in facets.get("host", [])]
    return facets


def rows_page(query, page_number: str | None) -> RowsPage:
    """The rows a filter query selects, one page of them fetched with what a listing shows."""
    filtered = filters.run(filters.parse(query))
    page = page_or_404(Paginator(filtered.pks, PAGE_SIZE), page_number)
    by_pk = Row.objects.filter(pk__in=page.object_list).for_listing().in_bulk()
    page.object_list = [by_pk[pk] for pk in page.object_list if pk in by_pk]
    _attach_register_cells(page.object_list)
    return RowsPage(filtered, page)


def _attach_register_cells(rows: list[Row]) -> None:
    """Each row's register cell, built once per register on the page rather than once per row (a
    URL reversal per row was a fifth of a page's time)."""
    cells: dict[int, str] = {}
    for row in rows:
        if row.register_id not in cells:
            register = row.register
            cells[row.register_id] = format_html(
                '<td><a href="{}">{}</a></td>', register.get_absolute_url(), register.title
            )
        row.register_cell = cells[row.register_id]


def register_list() -> QuerySet[Register]:
    return Register.objects.annotate(row_count=Count("rows")).order_by("title")


#: Lint findings a register page lists (errors first); the rest are counted.
MAX_FINDINGS_SHOWN = 200


def register_page(slug: str, page_number: str | None = None) -> dict:
    """A register's page: its counts and charts over every row, and one page of its rows (a
    register of thousands of rows listed whole made a page of tens of megabytes)."""
    register = get_object_or_404(Register, slug=slug)
    findings = sorted(register.findings, key=lambda finding: finding.get("severity") != "error")
    verdicts = dict(
        register.rows.values_list("status_verdict").annotate(n=Count("pk")).values_list("status_verdict", "n")
    )
    file_citations = Citation.objects.filter(row__register=register).exclude(kind__in=["url", "wire"])
    citation_verdicts = dict(file_citations.values_list("verdict").annotate(n=Count("pk")).values_list("verdict", "n"))
    return {
        "register": register,
        "page": page_or_404(Paginator(register.rows.for_listing().order_by("order"), PAGE_SIZE), page_number),
        "findings": findings[:MAX_FINDINGS_SHOWN],
        "findings_hidden": max(0, len(findings) - MAX_FINDINGS_SHOWN),
        "verdict_counts": [(vocab.STATUS_LABELS[key], verdicts.get(key, 0)) for key in filters.STATUS_CHOICES],
        "citation_counts": [(v, citation_verdicts.get(v, 0)) for v in (*vocab.CITATION_VERDICTS, "")],
        "no_source": citation_verdicts.get(vocab.CitationVerdict.NO_SOURCE, 0),
        "file_citations": sum(citation_verdicts.values()),
        "citation_problems": Citation.objects.filter(row__register=register, verdict__in=CITATION_PROBLEMS)
        .select_related("row")
        .order_by("row__order", "order")[:MAX_CITATION_PROBLEMS],
        "charts": register_charts(register),
        "lint_counts": Counter(finding.get("severity") for finding in register.findings),
    }


def proposals_page(slug: str) -> dict:
    """The edits the register's evidence decides, each with its evidence, and the rows that need a
    person (evidence.proposals); `error` says why there are none to show (its text not kept)."""
    register = get_object_or_404(Register, slug=slug)
    try:
        found = proposals.register_proposals(register)
    except (proposals.NoSource, EditConflict) as error:
        return {"register": register, "proposals": None, "error": str(error)}
    return {"register": register, "proposals": found, "error": ""}


def register_charts(register: Register) -> list[charts.Chart]:
    """The register's revision timeline and each host's support, from one query over its rows."""
    rows = list(register.rows.values_list("introduced_in", "deprecated_in", "removed_in", "facts"))
    timeline = charts.revision_timeline(
        f"{register.title}: rows introduced, deprecated and removed per revision",
        [
            (
                revision,
                sum(1 for r in rows if r[0] == revision),
                sum(1 for r in rows if r[1] == revision),
                sum(1 for r in rows if r[2] == revision),
            )
            for revision in vocab.REVISIONS
        ],
    )
    known = {state for state, _ in charts.SUPPORT_TONES}
    per_host = []
    for host in vocab.HOSTS:
        states = [(r[3] or {}).get("hosts", {}).get(host) for r in rows]
        counts = Counter(state if state in known else "unknown" for state in states if state is not None)
        per_host.append((vocab.HOST_NAMES[host], dict(counts)))
    support = charts.support_bars(f"{register.title}: what each host does with its rows", per_host)
    return [timeline, support]


def row_page(slug: str, row_id: str) -> dict:
    """A row with everything its page shows: cells, fields, citations by host, history, neighbours,
    the host models' views of its example, lint findings, and the probe results that exercised it."""
    row = get_object_or_404(
        Row.objects.select_related("register").prefetch_related(
            "labels", "support", "host_notes", "citations", "versions"
        ),
        register__slug=slug,
        row_id=row_id,
    )
    citations = list(row.citations.all())
    host_states = {note.host: note.state for note in row.host_notes.all()}
    revisions = row_evidence.revisions_of_row(row)
    example_name, model_views = row_host_views(row.row_id, host_states, revisions.title) or ("", [])
    found = row_evidence.row_evidence(
        row.row_id,
        host_states,
        (example_name, model_views) if example_name else None,
        revisions=revisions,
    )
    return {
        "row": row,
        "register": row.register,
        "example_name": example_name,
        "model_views": model_views,
        "findings": findings_for(revisions.anchors, revisions.subject),
        "evidence": found,
        "anchors": shown_anchors(row.anchors),
        "no_evidence": ""
        if row.row_id in evidence.UNCHECKED or evidence.row_verdict(found) != evidence.UNTESTED
        else evidence_related.no_evidence_reason(revisions),
        "unchecked": evidence.UNCHECKED.get(row.row_id, ""),
        "lint_findings": [finding for finding in row.register.findings if finding.get("row") == row.row_id],
        "revision_words": revision_words(row),
        "row_history": _history(row),
        "audit_run_id": probe_findings.latest_audit_run_id() if FAILURE_TAG in row.register.tags else None,
        "probe_results": probe_findings.row_probe_results(revisions.anchors),
        "host_observations": lab_findings.row_observations(revisions.anchors),
        "claim_checks": lab_findings.claim_checks(row),
        "lab_hosts": _lab_hosts(row),
        "fields": [f for f in row.fields if f["key"] != "sources"],
        "sources": row.field("sources"),
        "citations": citations,
        "host_notes": [
            {"note": note, "citations": [citations[i] for i in note.citation_orders if i < len(citations)]}
            for note in row.host_notes.all()
        ],
        **_neighbours(row),
    }


def _lab_hosts(row: Row) -> list[dict]:
    """The hosts no register has a column for, as the lab measured what the row is about."""
    states = lab_states.row_states(row.anchors, lab_states.host_chips())
    measured = [host for host in vocab.LAB_ONLY_HOSTS if host in states]
    return [{"host": host, "name": vocab.HOST_NAMES[host], **states[host]} for host in measured]


def revision_words(row: Row) -> list[dict]:
    """What the labels say of the row's revisions (introduced, deprecated, removed in), each with
    whether the strip above it, read from the Where cell, shows the same; the page words a
    disagreement as one instead of stating both."""
    shown = {support.revision: support.state for support in row.support.all()}
    fits = {
        "introduced": (vocab.EXISTS, vocab.DEPRECATED),
        "deprecated": (vocab.DEPRECATED,),
        "removed": (vocab.ABSENT,),
    }
    return [
        {
            "word": word,
            "revision": revision,
            "agrees": shown.get(revision, vocab.UNKNOWN) in fits[word] + (vocab.UNKNOWN,),
        }
        for word, revision in (
            ("introduced", row.introduced_in),
            ("deprecated", row.deprecated_in),
            ("removed", row.removed_in),
        )
        if revision
    ]


def _history(row: Row) -> list[dict]:
    """Each replaced version of the row with what changed from it to the next one."""
    versions = list(row.versions.all())
    newer = [history.snapshot(row, [label.text for label in row.labels.all()])]
    newer += [version.snapshot for version in versions]
    return [
        {"version": version, "changes": history.changes(version.snapshot, newer[index])}
        for index, version in enumerate(versions)
    ]


def _neighbours(row: Row) -> dict:
    siblings = Row.objects.filter(register=row.register).only("row_id", "title")
    return {
        "previous_row": siblings.filter(order__lt=row.order).order_by("-order").first(),
        "next_row": siblings.filter(order__gt=row.order).order_by("order").first(),
    }


def rows_by_id(row_id: str) -> list[Row]:
    """Every loaded row with this ID, one per register that has it (most often one); an ID typed
    in another case (`ct-05`) finds the row it names (IDs are upper case: CT-05)."""
    rows = Row.objects.select_related("register").order_by("register__title", "register__slug")
    return list(rows.filter(row_id=row_id)[:50]) or list(rows.filter(row_id__iexact=row_id)[:50])


def row_in_other_case(slug: str, row_id: str) -> Row | None:
    """The row a URL names in another case than its ID's, to redirect to; None when there is none."""
    if Row.objects.filter(register__slug=slug, row_id=row_id).exists():
        return None
    return Row.objects.select_related("register").filter(register__slug=slug, row_id__iexact=row_id).first()
