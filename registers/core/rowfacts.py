"""Row facts: what the filters know of a row (its scalars, revision and host states, labels,
citation states, newest replaced version, search text), built from the row's children when it is
loaded and kept on it as JSON. Pure, no Django."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from language import vocabulary as vocab


def value_key(sign: str, level: str) -> str:
    """The value facet of a row: `negative` for a minus, else the level of a plus."""
    if sign == "−":
        return "negative"
    return level if sign == "+" else ""


@dataclass(frozen=True, slots=True)
class RowFacts:
    """What the filters look at, for one row."""

    pk: int
    register: str
    status: str = ""
    value: str = ""
    effort: str = ""
    risk: str = ""
    introduced: str = ""
    removed: str = ""
    deprecated: str = ""
    support: Mapping[str, str] = field(default_factory=dict)
    hosts: Mapping[str, str] = field(default_factory=dict)
    labels: frozenset[str] = frozenset()
    cite: frozenset[str] = frozenset()
    latest_version: int = 0  # the newest increment a reload replaced; 0 when never changed
    search_text: str = ""  # lower-cased text of the whole row, for `q`
    evidence: str = "untested"  # disagrees / agrees / untested: evidence.rules.evidence over the row


def facts_document(
    support: Mapping[str, str],
    hosts: Mapping[str, str],
    labels: Iterable[str],
    citations: Iterable[tuple[str, str]],
    version_increments: Iterable[int],
) -> dict:
    """The JSON kept on a row for the filters, from its children: support {revision: state},
    host notes {host: state}, label texts, citations (verdict, kind) and replaced versions."""
    return {
        "support": dict(sorted(support.items())),
        "hosts": dict(sorted(hosts.items())),
        "labels": sorted(set(labels)),
        "cite": sorted({state for verdict, kind in citations if (state := citation_state(verdict, kind))}),
        "latest_version": max(version_increments, default=0),
    }


#: Citation kinds that point into a file (URLs and wire captures are never verified).
NON_FILE_KINDS = ("url", "wire")


def citation_state(verdict: str, kind: str) -> str:
    """The citation facet a citation counts towards: drifted (incl. file missing), moved, or
    unverified (a file citation never checked, or whose source is not configured or synced)."""
    if verdict in vocab.FAILING_CITATIONS:
        return "drifted"
    if verdict == vocab.CitationVerdict.MOVED:
        return "moved"
    if verdict in ("", vocab.CitationVerdict.NO_SOURCE) and kind not in NON_FILE_KINDS:
        return "unverified"
    return ""


def row_facts(pk: int, register: str, scalars: Mapping[str, str], document: Mapping, search_text: str = "") -> RowFacts:
    return RowFacts(
        pk=pk,
        register=register,
        status=scalars.get("status", ""),
        value=value_key(scalars.get("value_sign", ""), scalars.get("value_level", "")),
        effort=scalars.get("effort", ""),
        risk=scalars.get("risk", ""),
        introduced=scalars.get("introduced", ""),
        removed=scalars.get("removed", ""),
        deprecated=scalars.get("deprecated", ""),
        support=document.get("support", {}),
        hosts=document.get("hosts", {}),
        labels=frozenset(document.get("labels", ())),
        cite=frozenset(document.get("cite", ())),
        latest_version=int(document.get("latest_version", 0) or 0),
        search_text=search_text,
    )
