"""Version ranges in the browser-compat-data form, per host and feature: since / until / partial,
with the exact versions measured, the gaps between them, and where a change lies between two
measured versions, the version a bisection should measure next. Pure.

Input: {version: chip} for one host and feature (chips from features.py), and the host's
published releases; "not measured" versions are gaps, never part of a range.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from comparison.hostlab.features import NOT_MEASURED
from comparison.hostlab.versions import between, key


@dataclass
class Range:
    chip: str
    since: str  # first measured version showing it
    until: str  # last measured version showing it
    measured: list[str] = field(default_factory=list)
    #: The change into this range lies after `changed_after` (the previous range's last version);
    #: `exact` when no release lies between the two, so `since` is the first version showing it.
    changed_after: str = ""
    exact: bool = False

    def words(self) -> str:
        span = self.since if self.since == self.until else f"{self.since} – {self.until}"
        if not self.changed_after:
            return f"{self.chip}: {span} (oldest measured)"
        first = f"since {self.since}" if self.exact else f"from somewhere after {self.changed_after} to {self.since}"
        return f"{self.chip} {first}; measured {span}"


@dataclass
class Gap:
    after: str
    before: str
    unmeasured: list[str]

    def words(self) -> str:
        return f"not measured between {self.after} and {self.before} ({len(self.unmeasured)} release(s))"


def ranges(chips: dict[str, str], published: list[str]) -> tuple[list[Range], list[Gap]]:
    """Consecutive measured versions with the same chip, oldest first, and the unmeasured releases
    between measured ones (a gap inside a range is a gap too: the chip may have changed and back)."""
    measured = sorted((v for v, chip in chips.items() if chip != NOT_MEASURED), key=key)
    found: list[Range] = []
    gaps: list[Gap] = []
    for index, version in enumerate(measured):
        chip = chips[version]
        if index:
            unmeasured = between(measured[index - 1], version, published)
            if unmeasured:
                gaps.append(Gap(measured[index - 1], version, unmeasured))
        if found and found[-1].chip == chip:
            found[-1].until = version
            found[-1].measured.append(version)
            continue
        previous = found[-1].until if found else ""
        exact = bool(previous) and not between(previous, version, published)
        found.append(Range(chip, version, version, [version], previous, exact))
    return found, gaps


def next_to_bisect(chips: dict[str, str], published: list[str], skip: frozenset[str] = frozenset()) -> list[str]:
    """For every change between two measured versions with releases between them, the middle
    release: measuring it halves where the change can lie (repeat until each change is exact).
    `skip`: releases that cannot be measured (their install failed); a change whose remaining
    releases are all skipped is as narrow as it can be made."""
    found, _ = ranges(chips, published)
    wanted = []
    for item in found:
        if item.changed_after and not item.exact:
            inside = [v for v in between(item.changed_after, item.since, published) if v not in skip]
            if inside:
                wanted.append(inside[len(inside) // 2])
    return wanted
