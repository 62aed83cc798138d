"""Evidence that costs once (issue 53): an ended run's results never change, so its cells are read
from the database once per process, and a row's evidence is worked out again only when the row or
a run whose cells meet it changed. Another target's upload costs the rows it does not meet
nothing. Keys name a run by its id, creation time, target and status (an id can come back after a
rolled-back run), so nothing stale is ever read."""

from __future__ import annotations

from collections.abc import Callable

from comparison.core.evidence import HostEvidence, ProbeCell

RunStamp = tuple[str, str, bool, str]  # target name, status, built-in, created

#: {run key: that run's cells}, for the latest ended runs of the last read.
_cells: dict[tuple, list[ProbeCell]] = {}
#: {row key: its evidence}, for the rows of the last snapshot.
_rows: dict[tuple, list[HostEvidence]] = {}


def _key(run_id: int, stamp: RunStamp) -> tuple:
    return (run_id, *stamp)


def latest_cells(stamps: dict[int, RunStamp], load: Callable[[dict], list[ProbeCell]]) -> list[ProbeCell]:
    """The cells of these runs, results by id then the conformance suite's per run, as one read
    would give them; `load({run id: (target, status, built-in)})` reads the runs not read before."""
    global _cells
    keys = {run_id: _key(run_id, stamp) for run_id, stamp in stamps.items()}
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
    return results + suite


def _result_id(cell: ProbeCell) -> int:
    return cell.result_id


def row_evidence(
    rows: list[tuple[str, dict, object]],
    meeting: Callable[[object], list[ProbeCell]],
    stamps: dict[int, RunStamp],
    compute: Callable[[str, dict, object, list[ProbeCell]], list[HostEvidence]],
) -> dict[str, list[HostEvidence]]:
    """{row id: compute(row id, claims, revisions, the cells meeting it)}, reusing a row's evidence
    when the row and the runs of the cells meeting it are those of the last read."""
    global _rows
    found, kept = {}, {}
    for row_id, claims, revisions in rows:
        cells = meeting(revisions)
        runs = tuple(sorted({_key(cell.run_id, stamps[cell.run_id]) for cell in cells if cell.run_id in stamps}))
        key = (row_id, repr(sorted(claims.items())), repr(revisions), runs, len(cells))
        found[row_id] = kept[key] = _rows[key] if key in _rows else compute(row_id, claims, revisions, cells)
    _rows = kept
    return found
