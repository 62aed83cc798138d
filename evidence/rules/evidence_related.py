"""Evidence by anchor: which stored probe cells judge a row's host claims and which only meet it,
the "related checks" entry, the stance of a probe through the row's own subject on its status
claim, and why a row has no evidence. Pure, no Django.

A cell meets a row when the scenario's anchors meet the row's (language.anchors.kinds.meet).
Host claims are judged only on cells whose scenario is about the row's subject (the scenario's
first anchor, what it exists to exercise, meets an anchor the row's title names, and the scenario
exercises every anchor the title names) and only for rows with a host example; every other
meeting cell is related, with no stance. A probe through a target takes a stance on the row's
status claim only when that target is the row's subject: the register's status column names it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from comparison.core.spec_checks import claimed_revisions, naming_title
from evidence.rules.evidence_types import (
    AGREES,
    DISAGREES,
    PROBE,
    RELATED_ENTRY,
    HostEvidence,
    ProbeCell,
    RowRevisions,
    Source,
)
from language.anchors import kinds
from language.vocabulary import ProbeVerdict, StatusVerdict

#: The evidence entry for the row's status claim, when a probed target is its subject.
STATUS_ENTRY = "status"
#: Cell verdicts that say the target passed on what the upstream sent.
FAITHFUL = {ProbeVerdict.AS_EXPECTED}
#: Cell verdicts that say it did not.
UNFAITHFUL = {ProbeVerdict.CHANGED, ProbeVerdict.LOST, ProbeVerdict.REFUSED, ProbeVerdict.INVALID}
NO_ANCHOR = (
    "no anchor: the row names nothing the specification defines (in backticks in its title, What, Where or "
    "Detail) and cites no schema or spec-page line"
)
SHOWN_CELLS = 6


def subject_of(revisions: RowRevisions) -> set[str]:
    return set(revisions.subject or revisions.anchors)


def meeting(cell: ProbeCell, anchors: Iterable[str]) -> set[str]:
    """The row anchors a cell meets."""
    return set(kinds.met(frozenset(anchors), cell.anchor_set))


def split_cells(
    cells: list[ProbeCell], revisions: RowRevisions, has_example: bool
) -> tuple[list[ProbeCell], list[ProbeCell]]:
    """(cells that judge the row's host claims, cells that only meet it)."""
    subject = frozenset(revisions.subject)
    if not has_example or not subject:
        return [], cells
    judged = [
        cell
        for cell in cells
        if cell.anchors
        and kinds.met(subject, frozenset(cell.anchors[:1]))
        and kinds.met(subject, cell.anchor_set) == subject
    ]
    # By identity: two cells of one run can be equal field for field (and comparing is costly).
    taken = {id(cell) for cell in judged}
    return judged, [cell for cell in cells if id(cell) not in taken]


def _where(group: list[ProbeCell]) -> str:
    where = ", ".join(f"{cell.scenario} @ {cell.revision}" for cell in group[:SHOWN_CELLS])
    return where + (f" and {len(group) - SHOWN_CELLS} more" if len(group) > SHOWN_CELLS else "")


def related_entry(revisions: RowRevisions, cells: list[ProbeCell]) -> HostEvidence | None:
    """One source per target and scenario family, naming the anchors it meets the row on."""
    grouped: dict[tuple[str, str, str], list[ProbeCell]] = {}
    for cell in cells:
        met = ", ".join(sorted(meeting(cell, revisions.anchors)))
        grouped.setdefault((cell.target, cell.family or cell.scenario, met), []).append(cell)
    sources = [
        Source(
            PROBE,
            f"{family} via {target}",
            "",
            f"{_where(group)}: meets the row on {met}",
            group[0].result_id,
            group[0].run_id,
        )
        for (target, family, met), group in grouped.items()
    ]
    return HostEvidence(RELATED_ENTRY, "", sources) if sources else None


@lru_cache(maxsize=4096)
def names_subject(target: str, subject: str) -> bool:
    """Is the probed target the register's status subject ("mcpx" names "mcpx (stdio)")?"""
    word = subject.strip().lower()
    return bool(word) and re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", target.lower()) is not None


def status_entry(revisions: RowRevisions, cells: list[ProbeCell]) -> HostEvidence | None:
    """A yes (✓) status claim against what the subject itself passed on, in the cells that meet the
    row's subject: all faithful agrees, any loss or change disagrees. Other claims are listed."""
    own = [
        cell
        for cell in cells
        if names_subject(cell.target, revisions.status_subject) and meeting(cell, subject_of(revisions))
    ]
    if not own:
        return None
    said = StatusVerdict(revisions.status).label if revisions.status in set(StatusVerdict) else "no status"
    claim = f"{revisions.status_subject}: {said}"
    bad = [cell for cell in own if cell.verdict in UNFAITHFUL]
    good = [cell for cell in own if cell.verdict in FAITHFUL]
    if revisions.status != StatusVerdict.YES or not (bad or good):
        stance, detail = "", f"{_where(own)}: the status says {claim}, which a probe does not measure"
    elif bad:
        stance, detail = DISAGREES, f"{_where(bad)}: {bad[0].verdict} through {bad[0].target} itself"
    else:
        stance, detail = AGREES, f"{_where(good)}: passed on as the upstream sent it"
    source = Source(PROBE, f"probe through {own[0].target}", stance, detail, own[0].result_id, own[0].run_id)
    return HostEvidence(STATUS_ENTRY, claim, [source])


def entries(revisions: RowRevisions, related: list[ProbeCell], judged: list[ProbeCell]) -> list[HostEvidence]:
    found = [status_entry(revisions, [*judged, *related]), related_entry(revisions, related)]
    return [entry for entry in found if entry is not None]


def no_evidence_reason(revisions: RowRevisions) -> str:
    """Why a row has no evidence at all."""
    if not revisions.anchors:
        return NO_ANCHOR
    return (
        "no check for its anchors: nothing probed, checked or observed here exercises "
        + ", ".join(revisions.anchors[:8])
        + (" …" if len(revisions.anchors) > 8 else "")
    )


STANCE, RELATED_ONLY, NONE = "stance", "related only", "none"


def coverage(found: Iterable[HostEvidence]) -> str:
    """How much evidence a row has: a stance on some claim, checks that meet it without one, or
    nothing at all."""
    sources = [source for item in found for source in item.sources]
    if any(source.stance for source in sources):
        return STANCE
    return RELATED_ONLY if sources else NONE


#: Anchors whose use a cell can see travel: requests and notifications.
TRAVELLING = (kinds.METHOD, kinds.NOTIFICATION)
FIXTURE_LABEL = "the built-in fixture, probed directly"


def fixture_source(revisions: RowRevisions, cells: list[ProbeCell]) -> Source | None:
    """How the protocol behaves at each revision, as the fixture probed directly shows it: at which
    revisions each request or notification the row's title names travelled, in the cells that
    exercise it, against where the row says it exists. Agrees when one matches the claim at every
    revision probed; disagrees only when the title names that one thing and nothing else."""
    claimed = claimed_revisions(revisions.support, revisions.introduced, revisions.removed)
    named = [value for value in revisions.subject if kinds.split(value)[0] in TRAVELLING]
    if not claimed or not named:
        return None
    readings = []
    for value in named:
        seen: dict[str, bool] = {}
        for cell in cells:
            if cell.direct and cell.revision in claimed and meeting(cell, {value}):
                seen[cell.revision] = seen.get(cell.revision, False) or value in cell.seen
        if any(seen.values()):
            readings.append((value, dict(sorted(seen.items()))))
    if not readings:
        return None
    for value, seen in readings:
        if all(claimed[revision] == there for revision, there in seen.items()):
            where = ", ".join(revision for revision, there in seen.items() if there)
            return Source(PROBE, FIXTURE_LABEL, AGREES, f"{kinds.split(value)[1]} travelled at {where}, as claimed")
    value, seen = readings[0]
    said = {True: "present", False: "absent"}
    differing = "; ".join(
        f"{revision}: {'used' if there else 'not used'}, the register says {said[claimed[revision]]}"
        for revision, there in seen.items()
        if claimed[revision] != there
    )
    decisive = len(readings) == 1 and len(revisions.subject) == 1 and naming_title(revisions.title)
    detail = f"{kinds.split(value)[1]}: {differing}" + ("" if decisive else "; the title names more, so no stance")
    return Source(PROBE, FIXTURE_LABEL, DISAGREES if decisive else "", detail)
