"""Two or more probe runs side by side: scenario × revision rows, one column per run, each cell its
verdict and what changed against the upstream; per run a summary (verdict counts, interop score,
the cells per host that differ). Pure: takes plain dicts, returns plain data for pages and exports."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from comparison.probes.assessment.compare import describe
from comparison.probes.assessment.interop import RunScore, run_score
from comparison.probes.conformance import conformance
from language.vocabulary import PROBE_VERDICTS, SCORED_HOSTS

FAILED, INVALID = PROBE_VERDICTS[3], PROBE_VERDICTS[2]


@dataclass
class RunColumn:
    """One run as the comparison shows it."""

    run_id: int
    target: str
    status: str
    created: str
    counts: dict[str, int]
    score: RunScore
    dpcter: list[dict[str, Any]] = field(default_factory=list)
    #: The run's conformance pass in one line ("" when the run did not ask for one).
    conformance: str = ""
    #: What the target said it is in the run's first answer (serverInfo name and version).
    identity: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "run": self.run_id,
            "target": self.target,
            "status": self.status,
            "created": self.created,
            "counts": self.counts,
            "interop": self.score.as_dict(),
            "dpcter": self.dpcter,
            "conformance": self.conformance,
            "identity": self.identity,
        }


@dataclass
class Cell:
    result_id: int
    verdict: str
    changes: list[str]  # "result.isError added", one per difference against the upstream
    differs_for: list[str]  # hosts that get something else than from the upstream

    def as_dict(self) -> dict[str, Any]:
        return {
            "result": self.result_id,
            "verdict": self.verdict,
            "changes": self.changes,
            "differs_for": self.differs_for,
        }


@dataclass
class Line:
    scenario: str
    revision: str
    cells: list[Cell | None]

    @property
    def verdicts_differ(self) -> bool:
        return len({cell.verdict if cell else None for cell in self.cells}) > 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "revision": self.revision,
            "cells": [cell.as_dict() if cell else None for cell in self.cells],
        }


@dataclass
class SuiteLine:
    """One scenario of the official conformance suite: its verdict through each run's target."""

    scenario: str
    verdicts: list[str | None]

    def as_dict(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "verdicts": self.verdicts}


@dataclass
class Comparison:
    columns: list[RunColumn]
    lines: list[Line]
    suite: list[SuiteLine] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": "mcp-compare/comparison/1",
            "runs": [column.as_dict() for column in self.columns],
            "cells": [line.as_dict() for line in self.lines],
            "conformance": [line.as_dict() for line in self.suite],
        }


def _cell(result: dict[str, Any]) -> Cell:
    interop = result.get("interop") or {}
    changes = describe(result.get("diff"))
    if result["verdict"] == FAILED and result.get("failure"):
        changes = [str(result["failure"])[:200]]
    return Cell(result["id"], result["verdict"], changes, [host for host in SCORED_HOSTS if interop.get(host) is False])


def compare_runs(runs: list[dict[str, Any]]) -> Comparison:
    """Runs are {"id", "target", "status", "created", "results": [{"id", "scenario", "revision",
    "verdict", "failure", "diff", "interop"}], "dpcter": [...], "conformance": None or {"status",
    "rows"}}; lines follow the first run's order."""
    columns, by_run, suites = [], [], []
    for run in runs:
        results = run["results"]
        counts = {verdict: sum(1 for r in results if r["verdict"] == verdict) for verdict in PROBE_VERDICTS}
        score = run_score(results, failed=FAILED, invalid=INVALID)
        suite = run.get("conformance")
        rows, status = conformance.stored(suite)
        said = conformance.summary(rows, status).sentence() if suite else ""
        columns.append(
            RunColumn(
                run["id"],
                run["target"],
                run["status"],
                run["created"],
                counts,
                score,
                run.get("dpcter", []),
                said,
                run.get("identity", ""),
            )
        )
        by_run.append({(r["scenario"], r["revision"]): r for r in results})
        suites.append({row["scenario"]: row["verdict"] for row in rows})
    keys: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for cells in by_run:
        for key in cells:
            if key not in seen:
                seen.add(key)
                keys.append(key)
    lines = [Line(key[0], key[1], [_cell(cells[key]) if key in cells else None for cells in by_run]) for key in keys]
    names = sorted({name for verdicts in suites for name in verdicts})
    suite_lines = [SuiteLine(name, [verdicts.get(name) for verdicts in suites]) for name in names]
    return Comparison(columns, lines, suite_lines)
