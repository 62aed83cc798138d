"""The words and shapes of the evidence (evidence.rules.evidence): verdicts, sources, the evidence for
one host or entry, a stored probe cell as the evidence reads it, and what a row says of the
revisions and of what it is about. Pure, no Django."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from comparison.hosts.present import PresentedView
from language.vocabulary import host_name

AGREES, DISAGREES, OBSERVED, UNTESTED = "agrees", "disagrees", "observed", "untested"
#: A row some check meets by its anchors, none of which takes a stance on its claims.
RELATED = "related"
VERDICTS = (DISAGREES, AGREES, OBSERVED, RELATED, UNTESTED)
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
#: The evidence entry for checks that meet the row by its anchors without taking a stance.
RELATED_ENTRY = "related checks"
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
    subject: str = ""  # the proxy the register's status column names, for the subject host's label

    @property
    def verdict(self) -> str:
        stances = {source.stance for source in self.sources}
        if DISAGREES in stances:
            return DISAGREES
        if AGREES in stances:
            return AGREES
        if not self.sources:
            return UNTESTED
        return RELATED if self.host == RELATED_ENTRY else OBSERVED

    @property
    def claim_text(self) -> str:
        return self.claim or NO_CLAIM

    @property
    def label(self) -> str:
        return host_name(self.host, self.subject)

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
    anchors: tuple[str, ...] = ()  # what the scenario exercises (comparison.anchors)
    verdict: str = ""  # the cell's probe verdict
    family: str = ""
    seen: tuple[str, ...] = ()  # the methods and notifications that travelled in it
    direct: bool = False  # the built-in fixture probed directly: how the protocol behaves

    @cached_property
    def anchor_set(self) -> frozenset[str]:
        """The anchors as a frozen set, made once: the evidence meets it against every row."""
        return frozenset(self.anchors)

    @cached_property
    def presented(self) -> tuple[PresentedView, ...]:
        """The stored views read once, however many rows the cell exercises."""
        return tuple(PresentedView.from_json(data) for data in self.views)


@dataclass(frozen=True)
class RowRevisions:
    """What a row says of the revisions (its support per revision and its labels' span) and what
    it is about (its anchors; those its title names are its subject), with its status claim."""

    support: dict[str, str] = field(default_factory=dict)
    introduced: str = ""
    removed: str = ""
    title: str = ""
    anchors: tuple[str, ...] = ()
    subject: tuple[str, ...] = ()
    status_subject: str = ""  # the register's status column subject ("mcpx")
    status: str = ""  # the row's status verdict for it
    #: The anchors its What field names: what the row says its subject is when the title names none.
    described: tuple[str, ...] = ()
