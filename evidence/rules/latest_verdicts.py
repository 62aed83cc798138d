"""The latest verdicts of every target's cells, indexed by the anchors each cell exercises, so a
row's verdicts are found by its anchors. Pure: no Django."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from language.anchors import kinds


class LatestVerdicts:
    """The verdicts of the latest ended run of every target, each with the anchors its scenario
    exercises; a row's verdicts are those of the cells that meet its anchors."""

    def __init__(self, cells: list[tuple[set[str], str]], targets: list[str] | None = None):
        self.labels = [label for _, label in cells]
        self.targets = targets or [""] * len(cells)
        self.index = kinds.AnchorIndex(anchors for anchors, _ in cells)

    def for_row(self, anchors: Iterable[str]) -> Counter:
        return Counter(self.labels[i] for i in self.index.meeting(anchors))

    def by_target(self, anchors: Iterable[str]) -> dict[str, dict[str, int]]:
        """{target name: {verdict: cells}}: an export never adds up verdicts of different proxies."""
        found: dict[str, Counter] = {}
        for i in self.index.meeting(anchors):
            found.setdefault(self.targets[i], Counter())[self.labels[i]] += 1
        return {target: dict(sorted(found[target].items())) for target in sorted(found)}
