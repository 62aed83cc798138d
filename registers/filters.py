"""The one place that turns query parameters into a Row queryset, and counts per filter value.

Every page that lists rows (list, matrix, exports) reads its state from the same parameters:

  register=<slug>            (repeatable)
  revision=<YYYY-MM-DD>  rev_mode=exists|introduced|removed|absent|unknown
  host=<host key>        host_mode=mentioned|has|partial|lacks
  label=<label text>     status=yes|partial|no|na|acc
  value=high|med|low|negative   effort=S|M|L|XL   risk=low|med|high
  cite=drifted|moved|unverified  (rows with any such citation)
  changed_since=<increment>      (rows a register reload changed after that increment)
  q=<free text>

Unknown values are dropped (and reported), never turned into an error page.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from urllib.parse import urlencode

from django.db.models import Count
from django.http import QueryDict

from . import vocabulary as vocab
from .models import HostNote, Label, Register, RevisionSupport, Row, RowVersion, citation_state_q

REV_MODES = ("exists", "introduced", "removed", "absent", "unknown")
HOST_MODES = ("mentioned", "has", "partial", "lacks")
VALUE_CHOICES = ("high", "med", "low", "negative")
STATUS_CHOICES = ("yes", "partial", "no", "na", "acc")
CITATION_CHOICES = ("drifted", "moved", "unverified")


@dataclass(frozen=True)
class RowFilter:
    registers: tuple[str, ...] = ()
    revision: str = ""
    rev_mode: str = "exists"
    host: str = ""
    host_mode: str = "mentioned"
    label: str = ""
    status: str = ""
    value: str = ""
    effort: str = ""
    risk: str = ""
    cite: str = ""
    changed_since: str = ""
    q: str = ""
    ignored: tuple[str, ...] = field(default=(), compare=False)

    @property
    def active(self) -> bool:
        return any(
            (
                self.registers,
                self.revision,
                self.host,
                self.label,
                self.status,
                self.value,
                self.effort,
                self.risk,
                self.q,
            )
        )

    def params(self) -> list[tuple[str, str]]:
        """Query parameters for this state, defaults left out, in a stable order."""
        pairs: list[tuple[str, str]] = [("register", slug) for slug in self.registers]
        if self.revision:
            pairs.append(("revision", self.revision))
            if self.rev_mode != "exists":
                pairs.append(("rev_mode", self.rev_mode))
        if self.host:
            pairs.append(("host", self.host))
            if self.host_mode != "mentioned":
                pairs.append(("host_mode", self.host_mode))
        for name in ("label", "status", "value", "effort", "risk", "cite", "changed_since", "q"):
            value = getattr(self, name)
            if value:
                pairs.append((name, value))
        return pairs

    def querystring(self, **changes: object) -> str:
        state = replace(self, **changes) if changes else self
        encoded = urlencode(state.params())
        return f"?{encoded}" if encoded else "?"


def parse(query: QueryDict) -> RowFilter:
    ignored: list[str] = []

    def pick(name: str, allowed: tuple[str, ...], default: str = "") -> str:
        value = query.get(name, "").strip()
        if not value:
            return default
        if value not in allowed:
            ignored.append(f"{name}={value}")
            return default
        return value

    label = query.get("label", "").strip()[:200]
    return RowFilter(
        registers=tuple(dict.fromkeys(slug.strip() for slug in query.getlist("register") if slug.strip()))[:50],
        revision=pick("revision", vocab.REVISIONS),
        rev_mode=pick("rev_mode", REV_MODES, "exists"),
        host=pick("host", vocab.HOSTS),
        host_mode=pick("host_mode", HOST_MODES, "mentioned"),
        label=label,
        status=pick("status", STATUS_CHOICES),
        value=pick("value", VALUE_CHOICES),
        effort=pick("effort", vocab.EFFORT_SIZES),
        risk=pick("risk", vocab.RISK_LEVELS),
        cite=pick("cite", CITATION_CHOICES),
        changed_since=_increment(query.get("changed_since", ""), ignored),
        q=query.get("q", "").strip()[:200],
        ignored=tuple(ignored),
    )


def _increment(value: str, ignored: list[str]) -> str:
    value = value.strip()
    if value and not value.isdigit():
        ignored.append(f"changed_since={value}")
        return ""
    return value


def _apply_revision(rows, revision: str, mode: str):
    if mode == "introduced":
        return rows.introduced_in(revision)
    if mode == "removed":
        return rows.removed_or_deprecated_in(revision)
    if mode == "absent":
        return rows.absent_in(revision)
    if mode == "unknown":
        return rows.unknown_in(revision)
    return rows.exists_in(revision)


def _apply_host(rows, host: str, mode: str):
    if mode == "mentioned":
        return rows.host_mentioned(host)
    return rows.host_in_state(host, mode)


def apply(f: RowFilter, rows=None, *, skip: str = ""):
    """Rows matching every filter of `f` except the facet named by `skip`.

    Each multi-valued join is a subquery on the row id, so filters never multiply rows.
    """
    rows = Row.objects.all() if rows is None else rows
    steps = {
        "register": (f.registers, lambda qs: qs.in_registers(list(f.registers))),
        "revision": (f.revision, lambda qs: _apply_revision(qs, f.revision, f.rev_mode)),
        "host": (f.host, lambda qs: _apply_host(qs, f.host, f.host_mode)),
        "label": (f.label, lambda qs: qs.with_label(f.label)),
        "status": (f.status, lambda qs: qs.with_status(f.status)),
        "value": (f.value, lambda qs: qs.with_value(f.value)),
        "effort": (f.effort, lambda qs: qs.with_effort(f.effort)),
        "risk": (f.risk, lambda qs: qs.with_risk(f.risk)),
        "cite": (f.cite, lambda qs: qs.with_citation_state(f.cite)),
        "changed_since": (f.changed_since, lambda qs: qs.changed_since(int(f.changed_since))),
        "q": (f.q, lambda qs: qs.search(f.q)),
    }
    for name, (active, step) in steps.items():
        if active and name != skip:
            rows = rows.filter(pk__in=step(Row.objects.all()).values("pk"))
    return rows


@dataclass
class FacetOption:
    value: str
    label: str
    count: int
    selected: bool


def facets(f: RowFilter) -> dict[str, list[FacetOption]]:
    """Counts per filter value, each over the rows the *other* filters leave (so a count says
    how many rows picking that value would show). One query per facet, whatever the data."""
    result: dict[str, list[FacetOption]] = {}

    registers = dict(
        apply(f, skip="register")
        .values_list("register__slug")
        .annotate(n=Count("pk"))
        .values_list("register__slug", "n")
    )
    result["register"] = [
        FacetOption(slug, title, registers.get(slug, 0), slug in f.registers)
        for slug, title in Register.objects.order_by("title").values_list("slug", "title")
    ]

    revision_rows = apply(f, skip="revision")
    if f.rev_mode in ("introduced", "removed"):
        result["revision"] = _milestone_counts(f, revision_rows)
    else:
        by_state = {
            (rev, state): n
            for rev, state, n in RevisionSupport.objects.filter(row__in=revision_rows.values("pk"))
            .values_list("revision", "state")
            .annotate(n=Count("pk"))
            .values_list("revision", "state", "n")
        }
        result["revision"] = [
            FacetOption(rev, rev, _revision_count(by_state, rev, f.rev_mode), rev == f.revision)
            for rev in vocab.REVISIONS
        ]

    host_rows = apply(f, skip="host")
    host_counts: dict[tuple[str, str], int] = {
        (host, state): n
        for host, state, n in HostNote.objects.filter(row__in=host_rows.values("pk"))
        .values_list("host", "state")
        .annotate(n=Count("pk"))
        .values_list("host", "state", "n")
    }
    result["host"] = [
        FacetOption(host, vocab.HOST_NAMES[host], _host_count(host_counts, host, f.host_mode), host == f.host)
        for host in vocab.HOSTS
    ]

    label_counts = (
        Label.objects.filter(row__in=apply(f, skip="label").values("pk"))
        .values_list("text")
        .annotate(n=Count("row", distinct=True))
        .order_by("-n", "text")
        .values_list("text", "n")
    )
    result["label"] = [FacetOption(text, text, n, text == f.label) for text, n in label_counts]
    if f.label and f.label not in {option.value for option in result["label"]}:
        result["label"].insert(0, FacetOption(f.label, f.label, 0, True))

    for name, column, choices, names in (
        ("status", "status_verdict", STATUS_CHOICES, vocab.STATUS_LABELS),
        ("effort", "effort", vocab.EFFORT_SIZES, {}),
        ("risk", "risk", vocab.RISK_LEVELS, {}),
    ):
        counts = dict(apply(f, skip=name).values_list(column).annotate(n=Count("pk")).values_list(column, "n"))
        result[name] = [
            FacetOption(choice, names.get(choice, choice), counts.get(choice, 0), getattr(f, name) == choice)
            for choice in choices
        ]

    cite_counts = Row.objects.filter(pk__in=apply(f, skip="cite").values("pk")).aggregate(
        **{choice: Count("pk", filter=citation_state_q(choice), distinct=True) for choice in CITATION_CHOICES}
    )
    result["cite"] = [
        FacetOption(choice, f"any {choice}", cite_counts[choice], f.cite == choice) for choice in CITATION_CHOICES
    ]

    changed = (
        RowVersion.objects.filter(row__in=apply(f, skip="changed_since").values("pk"))
        .values_list("increment")
        .annotate(n=Count("row", distinct=True))
        .order_by("increment")
    )
    result["changed_since"] = [
        FacetOption(str(increment), f"since increment {increment}", n, f.changed_since == str(increment))
        for increment, n in changed
    ]

    value_counts: dict[str, int] = {}
    for sign, level, n in (
        apply(f, skip="value")
        .values_list("value_sign", "value_level")
        .annotate(n=Count("pk"))
        .values_list("value_sign", "value_level", "n")
    ):
        key = "negative" if sign == "−" else level
        value_counts[key] = value_counts.get(key, 0) + n
    result["value"] = [
        FacetOption(
            choice,
            "− (cost or moot)" if choice == "negative" else f"+ {choice}",
            value_counts.get(choice, 0),
            f.value == choice,
        )
        for choice in VALUE_CHOICES
    ]
    return result


def _revision_count(by_state: dict, revision: str, mode: str) -> int:
    if mode == "absent":
        return by_state.get((revision, vocab.ABSENT), 0)
    if mode == "unknown":
        return by_state.get((revision, vocab.UNKNOWN), 0)
    return by_state.get((revision, vocab.EXISTS), 0) + by_state.get((revision, vocab.DEPRECATED), 0)


def _milestone_counts(f: RowFilter, rows) -> list[FacetOption]:
    if f.rev_mode == "introduced":
        counts = dict(rows.values_list("introduced_in").annotate(n=Count("pk")).values_list("introduced_in", "n"))
    else:
        counts = {}
        for removed, deprecated in rows.exclude(removed_in="", deprecated_in="").values_list(
            "removed_in", "deprecated_in"
        ):
            for rev in {removed, deprecated} - {""}:
                counts[rev] = counts.get(rev, 0) + 1
    return [FacetOption(rev, rev, counts.get(rev, 0), rev == f.revision) for rev in vocab.REVISIONS]


def _host_count(counts: dict, host: str, mode: str) -> int:
    if mode == "mentioned":
        return sum(n for (h, _), n in counts.items() if h == host)
    return counts.get((host, mode), 0)


REV_MODE_TEXT = {
    "exists": "exists in",
    "introduced": "introduced in",
    "removed": "removed or deprecated in",
    "absent": "absent in",
    "unknown": "unknown in",
}
HOST_MODE_TEXT = {"mentioned": "mentioned", "has": "has it", "partial": "partial", "lacks": "lacks it"}


@dataclass
class FilterField:
    name: str
    label: str
    any_label: str
    options: list[FacetOption]
    mode_name: str = ""
    mode: str = ""
    modes: list[tuple[str, str]] = field(default_factory=list)


def filter_fields(f: RowFilter, counts: dict[str, list[FacetOption]]) -> list[FilterField]:
    """The filter bar, in display order: one select per facet, with a mode select where it has one."""
    return [
        FilterField("register", "Register", "All registers", counts["register"]),
        FilterField(
            "revision",
            "Revision",
            "Any revision",
            counts["revision"],
            "rev_mode",
            f.rev_mode,
            list(REV_MODE_TEXT.items()),
        ),
        FilterField("host", "Host", "Any host", counts["host"], "host_mode", f.host_mode, list(HOST_MODE_TEXT.items())),
        FilterField("label", "Label", "Any label", counts["label"]),
        FilterField("status", "Status", "Any status", counts["status"]),
        FilterField("value", "Value", "Any value", counts["value"]),
        FilterField("effort", "Effort", "Any effort", counts["effort"]),
        FilterField("risk", "Risk", "Any risk", counts["risk"]),
        FilterField("cite", "Citations", "Any citations", counts["cite"]),
        FilterField("changed_since", "Changed", "Any time", counts["changed_since"]),
    ]
