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
revisions against the official JSON schema of each (comparison.spec_checks), and for the
failure-gap rows the DPCTER audit of the failures the fixture induces (comparison.failure_checks).
mcpx's `downgrade()` model speaks to the two rows about it (hosts.downgrade_checks).

Words: a host with sources but none that takes a stance is "observed" (never "untested"), a host the
register does not name has "no claim"; "untested" means nothing at all was measured.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from registers.vocabulary import HOST_NAMES

from . import failure_checks, spec_checks
from .hosts import REAL_HOST_CHECKS, downgrade_checks
from .hosts.agreement import RowHostView, judge
from .hosts.examples import COMPOSED, ROW_EXAMPLES, vectors
from .hosts.present import PresentedView

AGREES, DISAGREES, OBSERVED, UNTESTED = "agrees", "disagrees", "observed", "untested"
VERDICTS = (DISAGREES, AGREES, OBSERVED, UNTESTED)
MODEL, REAL_HOST, PROBE, FINDING = "host model", "real host", "probe", "finding"
SCHEMA, AUDIT = "official schema", "failure audit"
#: The evidence entry for the row's claims about the protocol itself, beside the hosts.
SPEC = "the spec"
NO_CLAIM = "the register makes no claim for this host"
#: Rows nothing here can check, and why (shown on the row page).
UNCHECKED = {
    "CT-17": "It is about mcpx's script values (a non-enumerable `.raw` on every value), and no mcpx "
    "script runtime runs here: the mcpx model covers `mcpx_call`, `downgrade()` and prompts only.",
    "FG-13": "It reports a stress test of language models (Llama 3.2 3B, Qwen 0.8B, 840 decisions); "
    "checking it needs those models, and tests here reach no model.",
    "FG-14": "It is about host-side result hooks (Codex CLI's on_mcp_tool_result and configured "
    "rewrites), configuration no host model here has and no host run here is given.",
}
#: Host views a probe run stored from a real host rather than a model.
REAL_VIEW_SUFFIX = "-real"


@dataclass(frozen=True)
class Source:
    kind: str  # MODEL, REAL_HOST, PROBE or FINDING
    label: str
    stance: str  # AGREES, DISAGREES, or "" when it says nothing checkable about the claim
    detail: str
    result_id: int | None = None
    run_id: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "label": self.label,
            "stance": self.stance or None,
            "detail": self.detail,
            "result": self.result_id,
            "run": self.run_id,
        }


@dataclass
class HostEvidence:
    host: str
    claim: str  # the register's state for the host ("" when the row does not name it)
    sources: list[Source] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        stances = {source.stance for source in self.sources}
        if DISAGREES in stances:
            return DISAGREES
        if AGREES in stances:
            return AGREES
        return OBSERVED if self.sources else UNTESTED

    @property
    def claim_text(self) -> str:
        return self.claim or NO_CLAIM

    @property
    def label(self) -> str:
        return HOST_NAMES.get(self.host, self.host)

    @property
    def conflicts(self) -> list[Source]:
        return [source for source in self.sources if source.stance == DISAGREES]


@dataclass(frozen=True)
class ProbeCell:
    """A stored probe result that exercised the row, as the evidence reads it."""

    result_id: int
    run_id: int
    target: str
    scenario: str
    revision: str
    views: tuple[dict[str, Any], ...]
    interop: dict[str, bool]
    incomplete: str = ""  # the run's status when it did not finish

    @cached_property
    def presented(self) -> tuple[PresentedView, ...]:
        """The stored views read once, however many rows the cell exercises."""
        return tuple(PresentedView.from_json(data) for data in self.views)


def real_checked_examples() -> set[str]:
    """The examples the real-host test lane runs (every vector and composed tool result)."""
    return set(vectors()) | {name for name, value in COMPOSED.items() if "messages" not in value}


@dataclass(frozen=True)
class RowRevisions:
    """What a row says of the revisions: its support per revision and its labels' span."""

    support: dict[str, str] = field(default_factory=dict)
    introduced: str = ""
    removed: str = ""


def row_evidence(
    row_id: str,
    claims: dict[str, str],
    model: tuple[str, list[RowHostView]] | None,
    findings: Iterable[dict[str, Any]],
    cells: Iterable[ProbeCell],
    hosts: Iterable[str],
    revisions: RowRevisions | None = None,
) -> list[HostEvidence]:
    """One HostEvidence per host (in `hosts` order) for a row, then one for the spec when
    `revisions` is given: `claims` {host: state}, `model` the row's (example, views) from
    hosts.agreement, `findings` real-host findings, `cells` the latest probe results that
    exercised the row."""
    found = {host: HostEvidence(host, claims.get(host, "")) for host in hosts}
    if model:
        _model_sources(found, model)
    for finding in findings:
        if finding.get("host") in found and row_id in finding.get("rows", ()):
            found[finding["host"]].sources.append(
                Source(FINDING, "real host finding", "", str(finding.get("what", "")))
            )
    subject = ROW_EXAMPLES.get(row_id, ("", ""))[1]
    _probe_sources(found, row_id, subject, cells)
    _downgrade_source(found, row_id)
    spec = _spec_evidence(row_id, revisions) if revisions is not None else None
    return list(found.values()) + ([spec] if spec else [])


def _stance(agrees: bool) -> str:
    return AGREES if agrees else DISAGREES


def _downgrade_source(found: dict[str, HostEvidence], row_id: str) -> None:
    checked = downgrade_checks.check(row_id)
    if checked and "mcpx" in found:
        found["mcpx"].sources.append(Source(MODEL, "mcpx · downgrade()", _stance(checked.agrees), checked.detail))


def _spec_evidence(row_id: str, revisions: RowRevisions) -> HostEvidence | None:
    claims, sources = [], []
    schema = spec_checks.check(row_id, revisions.support, revisions.introduced, revisions.removed)
    if schema is not None:
        where = [revision for revision, there in schema.claimed.items() if there]
        claims.append(f"{schema.subject} at {', '.join(where) or 'no revision'}")
        sources.append(Source(SCHEMA, "MCP JSON Schema of each revision", _stance(schema.agrees), schema.detail()))
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
