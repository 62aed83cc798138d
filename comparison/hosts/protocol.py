"""What each host does with the rest of the protocol: notifications, server requests, cursors,
cancellation, sessions, what the upstream is told. Pure, no Django.

The table itself (one `Reaction` per host and aspect, with its source) is in `reactions.py`; this
module reads it: which hosts a cell's loss affects, what each would see, and the hosts page's rows.
A proxy's loss counts against a host's interop only where the host uses what was lost, at a
revision the host negotiates at all; a cell the probe could not test is scored for nobody.
"""

from __future__ import annotations

from dataclasses import dataclass

from comparison.hosts import change_kinds
from comparison.hosts.reactions import (
    BEHAVIOUR,
    EVERYBODY,
    NEWEST,
    NOBODY,
    NOT_MODELLED,
    SAME_ASPECT,
    Reaction,
    ignoring,
    using,
)
from language.vocabulary import HOST_NAMES, HOSTS, REVISIONS, ProbeVerdict

__all__ = [
    "HOSTS",
    "HOST_NAMES",
    "NEWEST",
    "Reaction",
    "aspect",
    "interop",
    "negotiates",
    "outcomes",
    "reaction",
    "table",
]

AFFECTED, UNAFFECTED, EXPECTED, UNSCORED = "affected", "unaffected", "as expected", "not scored"


@dataclass(frozen=True)
class HostOutcome:
    host: str
    label: str
    status: str  # AFFECTED, UNAFFECTED, EXPECTED or UNSCORED
    says: str
    source: str

    def as_dict(self) -> dict[str, str]:
        return {"host": self.host, "label": self.label, "status": self.status, "says": self.says, "source": self.source}


def aspect(scenario_key: str) -> str:
    return SAME_ASPECT.get(scenario_key, scenario_key)


def reaction(host: str, scenario_key: str) -> Reaction:
    key = aspect(scenario_key)
    if key in NOBODY:
        return ignoring(NOBODY[key], "")
    if key in EVERYBODY:
        return using(*EVERYBODY[key], "")
    return BEHAVIOUR.get(host, {}).get(key, NOT_MODELLED)


def negotiates(host: str, revision: str) -> bool:
    newest = NEWEST.get(host, REVISIONS[-1])
    return revision in REVISIONS and REVISIONS.index(revision) <= REVISIONS.index(newest)


@dataclass(frozen=True)
class Cell:
    """One family cell as the host models read it: `verdict` is the cell's, `expected` the
    vocabulary's "as expected"; a cell not `testable` is scored for nobody, a `failed` one (the
    proxy answered nothing usable) counts against every host that negotiates the revision. `kinds`
    are the kinds of change the cell's findings name (change_kinds): when every finding names one,
    what each kind does to a host decides, not whether the host uses the message."""

    scenario_key: str
    revision: str
    verdict: str
    expected: str
    testable: bool = True
    failed: bool = False
    kinds: tuple[str, ...] = ()


def outcomes(cell: Cell) -> list[HostOutcome]:
    """What each host would see of one cell."""
    scenario_key, revision, verdict, kinds = cell.scenario_key, cell.revision, cell.verdict, cell.kinds
    testable, failed, expected = cell.testable, cell.failed, cell.expected
    found = []
    for host in HOSTS:
        react = reaction(host, scenario_key)
        label = HOST_NAMES[host]
        by_kind = change_kinds.impact(kinds, host, aspect(scenario_key)) if kinds else None
        if not testable:
            found.append(HostOutcome(host, label, UNSCORED, "the probe could not test it", react.source))
        elif not negotiates(host, revision):
            found.append(
                HostOutcome(host, label, UNAFFECTED, f"never negotiates {revision} (newest {NEWEST[host]})", "")
            )
        elif failed:
            found.append(HostOutcome(host, label, AFFECTED, "the exchange failed through the proxy", ""))
        elif verdict == expected:
            found.append(HostOutcome(host, label, EXPECTED, react.does or "gets what the upstream sent", react.source))
        elif (by_kind is not None and not by_kind.known) or (by_kind is None and react is NOT_MODELLED):
            # Unknown is never counted as affected: no source read here says what this host does.
            says = by_kind.says if by_kind is not None else react.if_lost
            found.append(HostOutcome(host, label, UNSCORED, says, react.source))
        elif by_kind is not None:
            status = AFFECTED if by_kind.affected else UNAFFECTED
            found.append(HostOutcome(host, label, status, by_kind.says, react.source))
        elif react.uses:
            found.append(HostOutcome(host, label, AFFECTED, react.if_lost, react.source))
        else:
            found.append(HostOutcome(host, label, UNAFFECTED, f"unaffected: {react.does}", react.source))
    return found


def interop(cell: Cell) -> dict[str, bool]:
    """{host: gets through the proxy what it gets from the upstream}, only for hosts scored."""
    return {item.host: item.status != AFFECTED for item in outcomes(cell) if item.status != UNSCORED}


def finding_kinds(findings: list[dict]) -> tuple[str, ...]:
    """The kinds a cell's findings name, when every finding that is not "as expected" names one
    (else (): a plain loss or change, read by whether each host uses the message)."""
    telling = [f for f in findings if isinstance(f, dict) and f.get("verdict") != ProbeVerdict.AS_EXPECTED]
    kinds = tuple(dict.fromkeys(str(f.get("kind") or "") for f in telling))
    return kinds if telling and all(kinds) else ()


@dataclass(frozen=True)
class TableCell:
    host: str
    uses: bool
    modelled: bool
    does: str
    if_lost: str
    source: str


def table(scenarios) -> list[tuple[str, str, list[TableCell]]]:
    """(scenario key, title, one cell per host) for each scenario given, one row per aspect: the
    host × protocol table the hosts page shows. `scenarios` are probe scenarios (key and title)."""
    rows, seen = [], set()
    for scenario in scenarios:
        key = aspect(scenario.key)
        if key in seen:
            continue
        seen.add(key)
        cells = []
        for host in HOSTS:
            react = reaction(host, key)
            cells.append(
                TableCell(host, react.uses, react is not NOT_MODELLED, react.does, react.if_lost, react.source)
            )
        rows.append((key, scenario.title, cells))
    return rows
