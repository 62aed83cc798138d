"""Evidence that costs once (issue 53): an ended run's results never change, so its cells are read
from the database once per process, indexed once per set of latest runs, and a row's evidence is
worked out again only when the row or a run whose cells meet it changed. Another target's upload
costs the rows it does not meet nothing. Keys name a run by its id, creation time, target and
status (an id can come back after a rolled-back run), so nothing stale is ever read."""

from __future__ import annotations

from collections.abc import Callable

from evidence.rules.evidence import HostEvidence, ProbeCell
from language.anchors import kinds

RunStamp = tuple[str, str, bool, str]  # target name, status, built-in, created

#: {run key: that run's cells}, for the latest ended runs of the last read.
_cells: dict[tuple, list[ProbeCell]] = {}
#: The last read's runs and their cells, indexed.
_latest: tuple[tuple, LatestCells] | None = None
#: {row key: its evidence}, for the rows of the last snapshot.
_rows: dict[tuple, list[HostEvidence]] = {}


class LatestCells:
    """Cells indexed by their distinct anchor sets (a run repeats a few hundred: one scenario at
    every revision), each set with the runs its cells came from."""

    def __init__(self, cells: list[ProbeCell], run_keys: dict[int, tuple]):
        groups: dict[frozenset[str], list[int]] = {}
        for position, cell in enumerate(cells):
            groups.setdefault(cell.anchor_set, []).append(position)
        self.cells = cells
        self.members = list(groups.values())
        self.runs = [
            frozenset(run_keys[cells[i].run_id] for i in m if cells[i].run_id in run_keys) for m in self.members
        ]
        self.index = kinds.AnchorIndex(groups)

    def meeting(self, anchors) -> tuple[frozenset, list[int]]:
        """(the runs of the cells meeting `anchors`, those cells' positions in order)."""
        found = self.index.meeting(anchors)
        runs = frozenset().union(*(self.runs[group] for group in found))
        return runs, sorted(position for group in found for position in self.members[group])


def _key(run_id: int, stamp: RunStamp) -> tuple:
    return (run_id, *stamp)


def latest(stamps: dict[int, RunStamp], load: Callable[[dict], list[ProbeCell]]) -> LatestCells:
    """The cells of these runs, results by id then the conformance suite's per run (as one read
    would give them), indexed; `load({run id: (target, status, built-in)})` reads the runs not read
    before. The same object while the runs are those of the last read."""
    global _cells, _latest
    keys = {run_id: _key(run_id, stamp) for run_id, stamp in stamps.items()}
    named = tuple(sorted(keys.values()))
    if _latest is not None and _latest[0] == named:
        return _latest[1]
    missing = {run_id: stamps[run_id][:3] for run_id, key in keys.items() if key not in _cells}
    kept = {key: _cells[key] for key in keys.values() if key in _cells}
    if missing:
        for run_id in missing:
            kept[keys[run_id]] = []
        for cell in load(missing):
            kept[keys[cell.run_id]].append(cell)
    _cells = kept
    results = sorted((cell for key in keys.values() for cell in kept[key] if cell.result_id), key=_result_id)
    suite = [cell for run_id in sorted(keys) for cell in kept[keys[run_id]] if not cell.result_id]
    _latest = (named, LatestCells(results + suite, keys))
    return _latest[1]


def _result_id(cell: ProbeCell) -> int:
    return cell.result_id


def row_evidence(
    rows: list[tuple[str, dict, object]],
    latest_cells: LatestCells,
    compute: Callable[[str, dict, object, list[ProbeCell]], list[HostEvidence]],
) -> dict[str, list[HostEvidence]]:
    """{row id: compute(row id, claims, revisions, the cells meeting it)}, reusing a row's evidence
    when the row and the runs of the cells meeting it are those of the last read."""
    global _rows
    found, kept = {}, {}
    for row_id, claims, revisions in rows:
        runs, positions = latest_cells.meeting(revisions.anchors)
        key = (row_id, repr(sorted(claims.items())), repr(revisions), runs, len(positions))
        if key not in _rows:
            _rows[key] = compute(row_id, claims, revisions, [latest_cells.cells[i] for i in positions])
        found[row_id] = kept[key] = _rows[key]
    _rows = kept
    return found
