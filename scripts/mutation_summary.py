"""Summarise `mutmut results --all` per module: killed, survived and the rest, and the share that
survived of those that ran. Usage: python scripts/mutation_summary.py mutants/results.txt"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict

LINE = re.compile(r"^\s*(?P<name>[\w.]+)\.x[ǁ_](?P<rest>\S+): (?P<status>.+)$")


def main(path: str) -> None:
    by_module: dict[str, Counter] = defaultdict(Counter)
    for line in open(path, encoding="utf-8"):
        match = LINE.match(line)
        if match:
            by_module[match["name"]][match["status"].strip()] += 1
    total = Counter()
    print(f"{'module':40} {'killed':>7} {'survived':>9} {'other':>6} {'survival':>9}")
    for module in sorted(by_module):
        counts = by_module[module]
        total.update(counts)
        print(_line(module, counts))
    print(_line("all", total))


def _line(name: str, counts: Counter) -> str:
    killed, survived = counts["killed"], counts["survived"]
    other = sum(counts.values()) - killed - survived
    ran = killed + survived
    share = f"{100 * survived / ran:.1f} %" if ran else "—"
    return f"{name:40} {killed:7} {survived:9} {other:6} {share:>9}"


if __name__ == "__main__":
    main(sys.argv[1])
