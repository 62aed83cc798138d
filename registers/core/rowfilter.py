"""Filter state from query parameters, and the filter and facet semantics over plain row facts.

Pure: no Django. Every listing (row list, matrix, exports) decides which rows match and how many
rows each filter value would show here, in Python, over one `RowFacts` per row. The database is
asked one flat question (the facts of every row, with the free-text search applied), so no query
plan depends on join estimates: a join-heavy facet count once ran for half an hour on a
PostgreSQL whose statistics lagged a load.

  register=<slug>            (repeatable)
  revision=<YYYY-MM-DD>  rev_mode=exists|introduced|removed|absent|unknown
                         (introduced: absent in the revision before, exists in this one)
  vs_revision=<YYYY-MM-DD>  with revision: rows whose state differs between the two (the mode is
                         then not used); both states must be stated
  host=<host key>        host_mode=mentioned|has|partial|lacks
  vs_host=<host key>     with host: rows where the two hosts' stated states differ
  vs_all=1               a comparison also lists rows where one side is not stated (a host only
                         mentioned or not named, a revision unknown)
  label=<label text>     status=yes|partial|no|na|acc
  value=high|med|low|negative   effort=S|M|L|XL   risk=low|med|high
  cite=drifted|moved|unverified  (rows with any such citation)
  changed_since=<increment>      (rows a register reload changed at or after that increment)
  evidence=disagrees|agrees|observed|related|untested  (rows whose claims some evidence
                                 contradicts, only supports, that something observed without a claim
                                 to check, that checks meet by anchor with no stance, or that nothing
                                 measured; see evidence.rules.evidence)
  q=<free text>

Unknown values are dropped (and reported), never turned into an error page.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from urllib.parse import urlencode

from language import vocabulary as vocab
from registers.core.rowcompare import host_sides, introduced_in, removed_in, revision_sides
from registers.core.rowfacts import RowFacts

REV_MODES = ("exists", "introduced", "removed", "absent", "unknown")
HOST_MODES = ("mentioned", "has", "partial", "lacks")
VALUE_CHOICES = ("high", "med", "low", "negative")
STATUS_CHOICES = (
    vocab.StatusVerdict.YES,
    vocab.StatusVerdict.PARTIAL,
    vocab.StatusVerdict.NO,
    vocab.StatusVerdict.NA,
    vocab.StatusVerdict.ACC,
)
CITATION_CHOICES = ("drifted", "moved", "unverified")
EVIDENCE_CHOICES = ("disagrees", "agrees", "observed", "related", "untested")
EVIDENCE_NAMES = {
    "disagrees": "evidence disagrees",
    "agrees": "evidence agrees",
    "observed": "observed, no claim checked",
    "related": "related checks only",
    "untested": "nothing measured",
}

#: The facets in the order they are checked (and shown). `q` is applied by the database.
FACETS = (
    "register",
    "revision",
    "host",
    "label",
    "status",
    "value",
    "effort",
    "risk",
    "cite",
    "changed_since",
    "evidence",
)


@dataclass(frozen=True)
class RowFilter:
    registers: tuple[str, ...] = ()
    revision: str = ""
    rev_mode: str = "exists"
    vs_revision: str = ""
    host: str = ""
    host_mode: str = "mentioned"
    vs_host: str = ""
    vs_all: str = ""
    label: str = ""
    status: str = ""
    value: str = ""
    effort: str = ""
    risk: str = ""
    cite: str = ""
    changed_since: str = ""
    evidence: str = ""
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
                self.evidence,
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
            if self.vs_revision:
                pairs.append(("vs_revision", self.vs_revision))
        if self.host:
            pairs.append(("host", self.host))
            if self.host_mode != "mentioned":
                pairs.append(("host_mode", self.host_mode))
            if self.vs_host:
                pairs.append(("vs_host", self.vs_host))
        if self.vs_all and (self.compares_hosts or self.compares_revisions):
            pairs.append(("vs_all", self.vs_all))
        for name in ("label", "status", "value", "effort", "risk", "cite", "changed_since", "evidence", "q"):
            value = getattr(self, name)
            if value:
                pairs.append((name, value))
        return pairs

    def querystring(self, **changes: object) -> str:
        state = replace(self, **changes) if changes else self
        encoded = urlencode(state.params())
        return f"?{encoded}" if encoded else "?"

    @property
    def compares_revisions(self) -> bool:
        return bool(self.revision and self.vs_revision)

    @property
    def compares_hosts(self) -> bool:
        return bool(self.host and self.vs_host)

    def facet_active(self, name: str) -> bool:
        return bool(self.registers if name == "register" else getattr(self, name))


#: Every query parameter but `register` (repeatable), in the order a URL lists them.
SINGLE_PARAMETERS = tuple(f.name for f in fields(RowFilter) if f.name not in ("registers", "ignored"))


def _versus(value: str, main: str, name: str, ignored: list[str]) -> str:
    """The second side of a comparison: only with a first side, and never the same one."""
    if value and (not main or value == main):
        ignored.append(f"{name}={value}")
        return ""
    return value


def parse(query) -> RowFilter:
    """A RowFilter from a mapping with `get` and `getlist` (a QueryDict, or a MultiDict)."""
    ignored: list[str] = []

    def pick(name: str, allowed: tuple[str, ...], default: str = "") -> str:
        value = query.get(name, "").strip()
        if not value:
            return default
        if value not in allowed:
            ignored.append(f"{name}={value}")
            return default
        return value

    registers = tuple(dict.fromkeys(slug.strip() for slug in query.getlist("register") if slug.strip()))[:50]
    revision = pick("revision", vocab.REVISIONS)
    rev_mode = pick("rev_mode", REV_MODES, "exists")
    vs_revision = _versus(pick("vs_revision", vocab.REVISIONS), revision, "vs_revision", ignored)
    host = pick("host", vocab.ROW_HOSTS)
    return RowFilter(
        registers=registers,
        revision=revision,
        rev_mode=rev_mode,
        vs_revision=vs_revision,
        host=host,
        host_mode=pick("host_mode", HOST_MODES, "mentioned"),
        vs_host=_versus(pick("vs_host", vocab.ROW_HOSTS), host, "vs_host", ignored),
        vs_all=pick("vs_all", ("1",)),
        label=query.get("label", "").strip()[:200],
        status=pick("status", STATUS_CHOICES),
        value=pick("value", VALUE_CHOICES),
        effort=pick("effort", vocab.EFFORT_SIZES),
        risk=pick("risk", vocab.RISK_LEVELS),
        cite=pick("cite", CITATION_CHOICES),
        changed_since=_increment(query.get("changed_since", ""), ignored),
        evidence=pick("evidence", EVIDENCE_CHOICES),
        q=query.get("q", "").strip()[:200],
        ignored=tuple(ignored),
    )


def _increment(value: str, ignored: list[str]) -> str:
    value = value.strip()
    if value and not (value.isascii() and value.isdigit() and len(value) <= 9):
        ignored.append(f"changed_since={value}")
        return ""
    return value


def search_words(q: str) -> list[str]:
    """The words of a free-text search: lower-cased, at most eight."""
    return q.lower().split()[:8]


def text_matches(facts: RowFacts, words: list[str]) -> bool:
    return all(word in facts.search_text for word in words)


def revision_matches(facts: RowFacts, revision: str, mode: str, versus: str = "", vs_all: str = "") -> bool:
    if versus:
        return revision_sides(facts, revision, versus, stated_only=not vs_all) is not None
    # Read off the row's own strip, not the register's `<revision> has` label: a label can name a
    # revision the strip says the feature already existed before (CT-07).
    if mode == "introduced":
        return introduced_in(facts, revision)
    if mode == "removed":
        return removed_in(facts, revision)
    state = facts.support.get(revision)
    if mode == "absent":
        return state == vocab.ABSENT
    if mode == "unknown":
        return state == vocab.UNKNOWN
    # A deprecated feature still exists in that revision.
    return state in (vocab.EXISTS, vocab.DEPRECATED)


def host_matches(facts: RowFacts, host: str, mode: str, versus: str = "", vs_all: str = "") -> bool:
    if versus:
        return host_sides(facts, host, versus, stated_only=not vs_all) is not None
    state = facts.hosts.get(host)
    if mode == "mentioned":
        return state is not None
    return state == mode


def facet_matches(facts: RowFacts, f: RowFilter, name: str) -> bool:
    """Whether the row passes the filter of facet `name` (call only for an active facet)."""
    if name == "register":
        return facts.register in f.registers
    if name == "revision":
        return revision_matches(facts, f.revision, f.rev_mode, f.vs_revision, f.vs_all)
    if name == "host":
        return host_matches(facts, f.host, f.host_mode, f.vs_host, f.vs_all)
    if name == "label":
        return f.label in facts.labels
    if name == "cite":
        return f.cite in facts.cite
    if name == "changed_since":
        return facts.latest_version >= int(f.changed_since)
    return getattr(facts, name) == getattr(f, name)


def _misses(facts: RowFacts, f: RowFilter, active: tuple[str, ...]) -> list[str]:
    """The active facets the row fails, stopping at two (two misses count nowhere)."""
    missed: list[str] = []
    for name in active:
        if not facet_matches(facts, f, name):
            missed.append(name)
            if len(missed) == 2:
                break
    return missed


def select(all_facts: Iterable[RowFacts], f: RowFilter) -> list[int]:
    """The primary keys of the rows that pass every active filter, in the order given."""
    return evaluate(all_facts, f).pks


@dataclass
class Evaluation:
    """One pass over the facts: the matching rows, and per facet the rows every *other* filter
    leaves (so a count says how many rows picking that value would show)."""

    selected: list[RowFacts]
    per_facet: dict[str, list[RowFacts]]

    @property
    def pks(self) -> list[int]:
        return [facts.pk for facts in self.selected]


def evaluate(all_facts: Iterable[RowFacts], f: RowFilter) -> Evaluation:
    active = tuple(name for name in FACETS if f.facet_active(name))
    words = search_words(f.q)
    selected: list[RowFacts] = []
    per_facet: dict[str, list[RowFacts]] = {name: [] for name in FACETS}
    for facts in all_facts:
        # The free text is not a facet: a row it excludes counts nowhere.
        if words and not text_matches(facts, words):
            continue
        missed = _misses(facts, f, active)
        if not missed:
            selected.append(facts)
        elif len(missed) == 1:
            per_facet[missed[0]].append(facts)
    for name in FACETS:
        # A row that passes everything also counts for every facet.
        per_facet[name] = selected + per_facet[name] if per_facet[name] else selected
    return Evaluation(selected=selected, per_facet=per_facet)
