"""The cross-era grid of a run: client revision down, upstream revision across, one chip per pair
with the share of its scenarios that survive, read against what the revisions' rules say of the
pair (probes.era_rules), and the same per host at the revision each host asks for. Pure: result
dicts in, the grid out. No Django.

A pair's reading says what the target did across the eras:
- "as the rules say": no common era and none was made (a legacy client before a 2026-07-28 server);
- "translated": the client is served at its own revision where the upstream alone cannot serve it;
- "passed through": the upstream's own counter-offer reached the client (as directly; in a run of
  the upstream itself, "counter-offered");
- "refused": the upstream alone serves the pair and the target opened no session;
- "carried": both speak the client's revision, and the chip's share says what survived;
- "own counter-offer": the target answers the client with a revision of its own, the same whatever
  the upstream speaks (a proxy that does not speak the client's revision).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from comparison.probes.assessment.era_rules import COUNTER_OFFER, FAILS, WORKS, PairRule, direct_rule
from language.vocabulary import REVISIONS, ProbeVerdict

AS_THE_RULES_SAY, TRANSLATED, PASSED_THROUGH, REFUSED, CARRIED, AGREED_OTHER, COUNTER_OFFERED, OWN_OFFER = (
    "as the rules say",
    "translated",
    "passed through",
    "refused",
    "carried",
    "agreed another",
    "counter-offered",
    "own counter-offer",
)
#: Cells that say nothing of the pair: the scenario has no form at the revision agreed.
UNCOUNTED = (ProbeVerdict.NOT_TESTABLE,)


@dataclass
class Pair:
    client: str
    upstream: str
    rule: PairRule
    counts: Counter = field(default_factory=Counter)
    agreed: str = ""
    reading: str = ""
    #: The pair's results, for links: [(scenario, verdict, result id or None)].
    cells: list[tuple[str, str, Any]] = field(default_factory=list)

    @property
    def counted(self) -> int:
        return sum(n for verdict, n in self.counts.items() if verdict not in UNCOUNTED)

    @property
    def survived(self) -> int:
        return self.counts.get(ProbeVerdict.AS_EXPECTED, 0)

    @property
    def share(self) -> float | None:
        return self.survived / self.counted if self.counted else None

    @property
    def percent(self) -> str:
        return "–" if self.share is None else f"{round(self.share * 100)}%"

    @property
    def expected(self) -> bool:
        """Whether the reading is what the rules say a conformant path gives the pair."""
        return self.reading in (AS_THE_RULES_SAY, TRANSLATED, PASSED_THROUGH, CARRIED, COUNTER_OFFERED, OWN_OFFER)

    def as_dict(self) -> dict[str, Any]:
        return {
            "client_revision": self.client,
            "upstream_revision": self.upstream,
            "agreed": self.agreed,
            "reading": self.reading,
            "survived": self.survived,
            "counted": self.counted,
            "share": None if self.share is None else round(self.share, 4),
            "verdicts": {str(k): v for k, v in sorted(self.counts.items())},
            "rule": {
                "outcome": self.rule.outcome,
                "says": self.rule.says,
                "bridge": self.rule.bridge,
                "cites": [{"path": c.text, "url": c.url, "says": c.says} for c in self.rule.cites],
            },
        }


@dataclass
class HostLine:
    host: str
    label: str
    asks: str
    #: {upstream revision: (survived, counted)} of the cells at the revision the host asks for.
    shares: dict[str, tuple[int, int]] = field(default_factory=dict)

    def percent(self, upstream: str) -> str:
        survived, counted = self.shares.get(upstream, (0, 0))
        return f"{round(survived / counted * 100)}%" if counted else "–"


@dataclass
class Grid:
    clients: list[str]
    upstreams: list[str]
    pairs: dict[tuple[str, str], Pair]
    hosts: list[HostLine] = field(default_factory=list)

    def rows(self) -> list[tuple[str, list[Pair | None]]]:
        return [(c, [self.pairs.get((c, u)) for u in self.upstreams]) for c in self.clients]

    def host_rows(self) -> list[tuple[HostLine, list[str]]]:
        return [(line, [line.percent(u) for u in self.upstreams]) for line in self.hosts]

    @property
    def readings(self) -> dict[str, int]:
        """{reading: pairs}: a plain dict, so a template's `.items` is the method, not a missing key."""
        return dict(Counter(pair.reading for pair in self.pairs.values()))

    def as_dict(self) -> dict[str, Any]:
        return {
            "client_revisions": self.clients,
            "upstream_revisions": self.upstreams,
            "pairs": [pair.as_dict() for pair in self.pairs.values()],
            "hosts": [
                {"host": h.host, "label": h.label, "asks": h.asks, "shares": {u: list(s) for u, s in h.shares.items()}}
                for h in self.hosts
            ],
        }


def _ordered(revisions) -> list[str]:
    present = set(revisions)
    return [str(r) for r in REVISIONS if r in present]


def reading(rule: PairRule, agreed: str, opened: bool, direct: bool = False) -> str:
    client, upstream = rule.client, rule.upstream
    if not opened:
        return AS_THE_RULES_SAY if rule.outcome == FAILS else REFUSED
    if agreed == client:
        return CARRIED if rule.outcome == WORKS else TRANSLATED
    if rule.outcome == COUNTER_OFFER and agreed == upstream:
        return COUNTER_OFFERED if direct else PASSED_THROUGH
    return AGREED_OTHER


def _own_offers(pairs: dict[tuple[str, str], Pair]) -> None:
    """A client revision the target answers with one other revision at every upstream revision
    (two at least) is the target's own offer, not the upstream's passed through."""
    for client in {key[0] for key in pairs}:
        row = [pair for key, pair in pairs.items() if key[0] == client and pair.agreed]
        offered = {pair.agreed for pair in row}
        if len(row) > 1 and len(offered) == 1 and client not in offered:
            for pair in row:
                if pair.reading in (PASSED_THROUGH, AGREED_OTHER):
                    pair.reading = OWN_OFFER


def grid_of(
    results: list[dict[str, Any]], hosts: dict[str, tuple[str, str]] | None = None, *, direct: bool = False
) -> Grid:
    """The grid of a run's results ({scenario, requested_revision, upstream_revision,
    negotiated_revision, verdict, interop, id?}); `hosts` is {host: (label, revision it asks for)};
    `direct` for a run of the upstream itself (no proxy between)."""
    pinned = [r for r in results if r.get("upstream_revision")]
    pairs: dict[tuple[str, str], Pair] = {}
    agreed: dict[tuple[str, str], Counter] = {}
    for result in pinned:
        key = (str(result["requested_revision"]), str(result["upstream_revision"]))
        pair = pairs.get(key) or pairs.setdefault(key, Pair(*key, direct_rule(*key)))
        verdict = str(result["verdict"])
        pair.counts[verdict] += 1
        pair.cells.append((str(result["scenario"]), verdict, result.get("id")))
        if result.get("negotiated_revision"):
            agreed.setdefault(key, Counter())[str(result["negotiated_revision"])] += 1
    for key, pair in pairs.items():
        found = agreed.get(key)
        pair.agreed = found.most_common(1)[0][0] if found else ""
        opened = bool(found) and pair.counted > pair.counts.get(ProbeVerdict.FAILED, 0)
        pair.reading = reading(pair.rule, pair.agreed, opened, direct)
    if not direct:
        _own_offers(pairs)
    grid = Grid(
        _ordered(k[0] for k in pairs),
        _ordered(k[1] for k in pairs),
        dict(sorted(pairs.items(), key=lambda item: (REVISIONS.index(item[0][0]), REVISIONS.index(item[0][1])))),
    )
    for host, (label, asks) in sorted((hosts or {}).items()):
        if asks not in grid.clients:
            continue
        line = HostLine(host, label, asks)
        for upstream in grid.upstreams:
            at = [r for r in pinned if r["requested_revision"] == asks and r["upstream_revision"] == upstream]
            told = [r for r in at if isinstance(r.get("interop"), dict) and host in r["interop"]]
            if told:
                line.shares[upstream] = (sum(1 for r in told if r["interop"][host] is True), len(told))
            else:
                counted = [r for r in at if r["verdict"] not in UNCOUNTED]
                line.shares[upstream] = (
                    sum(1 for r in counted if r["verdict"] == ProbeVerdict.AS_EXPECTED),
                    len(counted),
                )
        grid.hosts.append(line)
    return grid


def no_common_era(grid: Grid) -> set[tuple[str, str]]:
    """The pairs that have no common era and were given none, as the rules say they cannot: their
    cells failing is the expected outcome, not a target's failure."""
    return {key for key, pair in grid.pairs.items() if pair.reading == AS_THE_RULES_SAY}


def grid_text(grid: Grid) -> str:
    """The grid as aligned text (the probe command's summary)."""
    width = 24
    lines = ["cross-era grid (client revision down, upstream revision across): survived / counted, reading"]
    lines.append("client".ljust(12) + "".join(f"upstream {u}".ljust(width) for u in grid.upstreams))
    for client, row in grid.rows():
        chips = [(f"{p.survived}/{p.counted} {p.reading}" if p else "–").ljust(width) for p in row]
        lines.append(client.ljust(12) + "".join(chips))
    return "\n".join(lines)


def compare_grids(before: Grid, after: Grid) -> list[dict[str, Any]]:
    """Pairs whose reading or survivors changed between two runs' grids (both sides named)."""
    changed = []
    for key in sorted(set(before.pairs) | set(after.pairs)):
        a, b = before.pairs.get(key), after.pairs.get(key)
        if a and b and (a.reading, a.survived, a.counted) == (b.reading, b.survived, b.counted):
            continue
        changed.append(
            {
                "client_revision": key[0],
                "upstream_revision": key[1],
                "before": None if a is None else {"reading": a.reading, "percent": a.percent, "agreed": a.agreed},
                "after": None if b is None else {"reading": b.reading, "percent": b.percent, "agreed": b.agreed},
            }
        )
    return changed
