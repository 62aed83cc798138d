"""Two hosts or two revisions side by side: which rows differ between them and how, and when a
row counts as introduced or removed in a revision. Pure, no Django.

A difference is a difference the register states on both sides: a host the row never mentions,
or a revision the register says nothing about, is not a difference (unknown is never absent).
"""

from __future__ import annotations

from dataclasses import dataclass

from language import vocabulary as vocab
from registers.core.rowfacts import RowFacts

#: Host states that claim something; "mentioned" only says the row talks about the host.
STATED_HOST_STATES = (vocab.HOST_HAS, vocab.HOST_PARTIAL, vocab.HOST_LACKS, vocab.HOST_NA)
PRESENT = (vocab.EXISTS, vocab.DEPRECATED)

#: (older state, newer state) → what happened between the two revisions.
STEP_WORDS = {
    (vocab.ABSENT, vocab.EXISTS): "added",
    (vocab.ABSENT, vocab.DEPRECATED): "added, deprecated",
    (vocab.EXISTS, vocab.ABSENT): "removed",
    (vocab.DEPRECATED, vocab.ABSENT): "removed",
    (vocab.EXISTS, vocab.DEPRECATED): "deprecated",
    (vocab.DEPRECATED, vocab.EXISTS): "no longer deprecated",
}


@dataclass(frozen=True)
class Side:
    """One row's two compared states, in the order the comparison names them."""

    first: str
    second: str
    word: str = ""


def previous_revision(revision: str) -> str | None:
    order = [str(r) for r in vocab.REVISIONS]
    index = order.index(revision) if revision in order else -1
    return order[index - 1] if index > 0 else None


def introduced_in(facts: RowFacts, revision: str) -> bool:
    """Exists (or is deprecated) in `revision` and is absent in the revision before it; in the first
    revision, exists there."""
    if facts.support.get(revision) not in PRESENT:
        return False
    before = previous_revision(revision)
    return before is None or facts.support.get(before) == vocab.ABSENT


def removed_in(facts: RowFacts, revision: str) -> bool:
    """Absent in `revision` while present in the one before, or deprecated in it while not
    deprecated in the one before (a feature may arrive deprecated); the revision before must be
    stated."""
    before = previous_revision(revision)
    if before is None:
        return False
    was, now = facts.support.get(before, vocab.UNKNOWN), facts.support.get(revision)
    if was == vocab.UNKNOWN:
        return False
    return (was in PRESENT and now == vocab.ABSENT) or (now == vocab.DEPRECATED and was != vocab.DEPRECATED)


NOT_MENTIONED = "not mentioned"


def host_sides(facts: RowFacts, first: str, second: str, *, stated_only: bool = True) -> Side | None:
    """The two hosts' states where both are stated and they differ; with `stated_only` off, also
    where one is only mentioned or not mentioned at all."""
    a, b = facts.hosts.get(first, NOT_MENTIONED), facts.hosts.get(second, NOT_MENTIONED)
    if a == b or (stated_only and not (a in STATED_HOST_STATES and b in STATED_HOST_STATES)):
        return None
    return Side(a, b)


def revision_sides(facts: RowFacts, first: str, second: str, *, stated_only: bool = True) -> Side | None:
    """The two revisions' states where both are stated and they differ, with what happened from
    the older to the newer of the two; with `stated_only` off, also where one is unknown."""
    a, b = facts.support.get(first, vocab.UNKNOWN), facts.support.get(second, vocab.UNKNOWN)
    if a == b or (stated_only and vocab.UNKNOWN in (a, b)):
        return None
    older, newer = (a, b) if str(first) < str(second) else (b, a)
    return Side(a, b, STEP_WORDS.get((older, newer), f"{older} → {newer}"))


@dataclass(frozen=True)
class Comparison:
    """What a listing that compares two hosts or two revisions shows above and beside its rows."""

    kind: str  # "hosts" or "revisions"
    first: str
    second: str
    first_name: str
    second_name: str
    stated_only: bool = True

    @property
    def title(self) -> str:
        return f"{self.first_name} against {self.second_name}"

    def sides(self, facts: RowFacts) -> Side | None:
        if self.kind == "hosts":
            return host_sides(facts, self.first, self.second, stated_only=self.stated_only)
        return revision_sides(facts, self.first, self.second, stated_only=self.stated_only)

    def as_dict(self) -> dict:
        return {"kind": self.kind, "first": self.first, "second": self.second, "stated_only": self.stated_only}


def comparisons(
    revision: str, vs_revision: str, host: str, vs_host: str, host_names: dict, *, stated_only: bool = True
) -> list[Comparison]:
    """The comparisons a filter asks for: two revisions, two hosts, or both."""
    found = []
    if revision and vs_revision:
        found.append(Comparison("revisions", revision, vs_revision, revision, vs_revision, stated_only))
    if host and vs_host:
        names = host_names.get(host, host), host_names.get(vs_host, vs_host)
        found.append(Comparison("hosts", host, vs_host, *names, stated_only))
    return found


def for_filter(f, host_names: dict | None = None) -> list[Comparison]:
    """The comparisons of a RowFilter (`revision`/`vs_revision`, `host`/`vs_host`, `vs_all`)."""
    return comparisons(f.revision, f.vs_revision, f.host, f.vs_host, host_names or {}, stated_only=not f.vs_all)


def compared_dicts(found: list[Comparison], facts: RowFacts | None) -> list[dict]:
    """A row's two states under each comparison, as data (the API's and the exports' twin of the
    listing's compared column)."""
    result = []
    for one in found:
        sides = one.sides(facts) if facts is not None else None
        if sides is not None:
            result.append({**one.as_dict(), "states": [sides.first, sides.second], "change": sides.word})
    return result
