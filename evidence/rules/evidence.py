"""Evidence beside every claim: for one register row and one host, what the register says (the
claim), what the host model makes of the row's example, what the real host does where it was
measured, and what the latest probe through each target delivered to that host. Each source takes
a stance on the claim (agrees, disagrees) or none; a row and host "disagree" when any source does.
Pure, no Django.

What counts as evidence, and why:
- the host model on the row's canonical example (hosts.agreement);
- the real host, for the paths the test lane checks against real software on that example (the
  lane fails CI whenever the model and the real host part, so the model's stance is the real
  host's); a real-host capture a probe run stored (`opencode-v1-real`) is listed with no stance,
  since a capture records what reached the model but not which part was dropped or why;
- a probe cell that exercised the row, only where the host got through the proxy what the
  upstream sent: a host acting on an answer the proxy rewrote says nothing about the claim.
Real-host findings (comparison/data/real_host_findings.json) are shown with no stance: they record
where a real host parted from the behaviour notes, which the models already follow.

Beside the hosts, one entry for the spec holds the row's claims about the protocol itself: its
revisions against the official JSON schema of each (comparison.core.spec_checks), and for the
failure-gap rows the DPCTER audit of the failures the fixture induces (comparison.core.failure_checks).
mcpx's `downgrade()` model speaks to the two rows about it (hosts.downgrade_checks).

Words: a host with sources but none that takes a stance is "observed" (never "untested"), a host the
register does not name has "no claim"; "untested" means nothing at all was measured.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from comparison.core import failure_checks, spec_checks
from comparison.hosts import REAL_HOST_CHECKS, downgrade_checks
from comparison.hosts.agreement import RowHostView, judge
from comparison.hosts.examples import COMPOSED, example_for, vectors
from comparison.hosts.present import PresentedView
from evidence.rules import evidence_related
from evidence.rules.evidence_types import (
    AGREES,
    AUDIT,
    DISAGREES,
    FINDING,
    MODEL,
    NO_CLAIM,
    OBSERVED,
    PROBE,
    REAL_HOST,
    REAL_VIEW_SUFFIX,
    RELATED,
    RELATED_ENTRY,
    SCHEMA,
    SPEC,
    UNCHECKED,
    UNTESTED,
    VERDICTS,
    HostEvidence,
    ProbeCell,
    RowRevisions,
    Source,
)

__all__ = [
    "AGREES", "AUDIT", "DISAGREES", "FINDING", "MODEL", "NO_CLAIM", "OBSERVED", "PROBE", "REAL_HOST",
    "REAL_VIEW_SUFFIX", "RELATED", "RELATED_ENTRY", "SCHEMA", "SPEC", "UNCHECKED", "UNTESTED", "VERDICTS",
    "HostEvidence", "ProbeCell", "RowRevisions", "Source", "row_evidence", "row_verdict",
]  # fmt: skip


def real_checked_examples() -> set[str]:
    """The examples the real-host test lane runs (every vector and composed tool result)."""
    return set(vectors()) | {name for name, value in COMPOSED.items() if "messages" not in value}


@dataclass(frozen=True)
class RowMeasurements:
    """What was measured of a row: `model` the row's (example, views) from hosts.agreement,
    `findings` real-host findings, `cells` the latest probe results that exercised the row."""

    model: tuple[str, list[RowHostView]] | None
    findings: Iterable[dict[str, Any]]
    cells: Iterable[ProbeCell]


def row_evidence(
    row_id: str,
    claims: dict[str, str],
    measured: RowMeasurements,
    hosts: Iterable[str],
    revisions: RowRevisions | None = None,
) -> list[HostEvidence]:
    """One HostEvidence per host (in `hosts` order) for a row, then one for the spec when
    `revisions` is given: `claims` {host: state}, and what was `measured` of the row."""
    model, findings, cells = measured.model, measured.findings, measured.cells
    status_subject = revisions.status_subject if revisions is not None else ""
    found = {host: HostEvidence(host, claims.get(host, ""), subject=status_subject) for host in hosts}
    if model:
        _model_sources(found, model)
    for finding in findings:
        if finding.get("host") in found:
            found[finding["host"]].sources.append(
                Source(FINDING, "real host finding", "", str(finding.get("what", "")))
            )
    subject = (example_for(row_id, revisions.title if revisions is not None else "") or ("", ""))[1]
    cells = list(cells)
    judged, related = cells, []
    if revisions is not None:
        judged, related = evidence_related.split_cells(cells, revisions, bool(subject))
    _probe_sources(found, row_id, subject, judged)
    _downgrade_source(found, row_id)
    spec = _spec_evidence(row_id, revisions, cells) if revisions is not None else None
    extra = evidence_related.entries(revisions, related, judged) if revisions is not None else []
    return list(found.values()) + ([spec] if spec else []) + extra


def _stance(agrees: bool) -> str:
    return AGREES if agrees else DISAGREES


def _downgrade_source(found: dict[str, HostEvidence], row_id: str) -> None:
    checked = downgrade_checks.check(row_id)
    if checked and "mcpx" in found:
        found["mcpx"].sources.append(Source(MODEL, "mcpx · downgrade()", _stance(checked.agrees), checked.detail))


def _spec_evidence(row_id: str, revisions: RowRevisions, cells: list[ProbeCell]) -> HostEvidence | None:
    claims, sources = [], []
    schema = spec_checks.check_row(revisions)
    if schema is not None:
        where = [revision for revision, there in schema.claimed.items() if there]
        claims.append(f"{schema.subject} at {', '.join(where) or 'no revision'}")
        stance = "" if schema.stance is None else _stance(schema.stance)
        sources.append(Source(SCHEMA, "MCP JSON Schema of each revision", stance, schema.detail()))
    behaviour = evidence_related.fixture_source(revisions, cells)
    if behaviour is not None:
        if not claims:
            where = spec_checks.claimed_revisions(revisions.support, revisions.introduced, revisions.removed)
            claims.append(f"at {', '.join(r for r, there in where.items() if there) or 'no revision'}")
        sources.append(behaviour)
    audit = failure_checks.check(row_id)
    if audit is not None:
        claims.append(audit.says)
        sources.append(Source(AUDIT, "DPCTER of the fixture's induced failures", _stance(audit.agrees), audit.detail))
    return HostEvidence(SPEC, " · ".join(claims), sources) if sources else None


def _model_sources(found: dict[str, HostEvidence], model: tuple[str, list[RowHostView]]) -> None:
    example, entries = model
    measured = example in real_checked_examples()
    for entry in entries:
        view = entry.view
        if view.host not in found:
            continue
        detail = f"{view.label} on the example {example!r}: the row's subject is {entry.assessment}"
        found[view.host].sources.append(Source(MODEL, view.label, entry.agreement, detail))
        if measured and view.key in REAL_HOST_CHECKS and entry.agreement:
            found[view.host].sources.append(
                Source(
                    REAL_HOST,
                    REAL_HOST_CHECKS[view.key],
                    entry.agreement,
                    f"the test lane runs the example {example!r} through {REAL_HOST_CHECKS[view.key]} and "
                    "requires the same outcome as the model",
                )
            )


def _probe_sources(found: dict[str, HostEvidence], row_id: str, subject: str, cells: Iterable[ProbeCell]) -> None:
    """One source per host path, target, stance and finding, naming the revisions it holds at."""
    grouped: dict[tuple, list[ProbeCell]] = {}
    for cell in cells:
        for view in cell.presented:
            if view.host not in found:
                continue
            stance, finding = _probe_stance(view, row_id, subject, cell, found[view.host].claim)
            key = (view.host, view.key, view.label, cell.target, cell.incomplete, stance, finding)
            grouped.setdefault(key, []).append(cell)
    for (host, key, label, target, incomplete, stance, finding), group in grouped.items():
        real = key.endswith(REAL_VIEW_SUFFIX)
        kind, shown = (REAL_HOST, label) if real else (PROBE, f"{label} via {target}")
        where = ", ".join(f"{cell.scenario} @ {cell.revision}" for cell in group[:6])
        where += f" and {len(group) - 6} more" if len(group) > 6 else ""
        run = f" (run {incomplete})" if incomplete else ""
        detail = f"{where}{run}: {finding}"
        found[host].sources.append(Source(kind, shown, stance, detail, group[0].result_id, group[0].run_id))


def _probe_stance(view: PresentedView, row_id: str, subject: str, cell: ProbeCell, claim: str) -> tuple[str, str]:
    if view.key.endswith(REAL_VIEW_SUFFIX):
        # A capture records what reached the model, not which part was dropped or why: shown
        # beside the model's view of the same result, never judged on its own.
        return "", "captured from the real host; compare it with the model's view on the result page"
    if not subject:
        return "", f"{view.outcome or 'no outcome'} (no subject to check for this row)"
    if cell.interop.get(view.host) is False:
        return "", "the proxy changed what this host gets, so it says nothing about the claim"
    outcome, stance = judge(view, row_id, subject, claim)
    return stance, f"the row's subject is {outcome}"


def row_verdict(evidence: Iterable[HostEvidence]) -> str:
    verdicts = {item.verdict for item in evidence}
    for verdict in VERDICTS:
        if verdict in verdicts:
            return verdict
    return UNTESTED
