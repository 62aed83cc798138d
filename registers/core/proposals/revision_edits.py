"""Where a row's thing exists, as the official schemas decide it: the `<rev> has` / `<rev> removes`
labels, the "Where it exists" cell written in the compact notation (`25-06 ✓ · 25-11 ✓`), and the
block's "<rev> onward" phrase, rewritten to what the schemas say. Pure, no Django.

Only a presence the schemas give as one unbroken span of revisions is written: a thing that
comes, goes and comes back, or that no revision defines, needs a person. A cell in any other
notation than the compact one is left alone, and so is the row, which then needs a person too:
the labels and the cell must keep agreeing.
"""

from __future__ import annotations

import re

from language.vocabulary import REVISION_SHORT, REVISIONS, SHORT_TO_REVISION
from registers.core.format.grammar import CODE_SPAN_LABEL, REVISION_LABEL
from registers.core.proposals.edits import LABELS, REVISION, WHERE, Edit, Evidence, NeedsPerson

COMPACT_SEGMENT = re.compile(r"^(?P<rev>\d{2}-\d{2}|\d{4}-\d{2}-\d{2}) (?P<mark>✓|—)(?P<rest>(?: .*)?)$")
ONWARD = re.compile(r"(?P<rev>\d{4}-\d{2}-\d{2}) onward")


def span(found: dict[str, bool]) -> tuple[str, str] | None:
    """(first revision present, first revision absent after it, or "") when the presence is one
    unbroken span; None otherwise."""
    present = [index for index, revision in enumerate(REVISIONS) if found.get(revision)]
    if not present or present != list(range(present[0], present[-1] + 1)):
        return None
    after = REVISIONS[present[-1] + 1] if present[-1] + 1 < len(REVISIONS) else ""
    return str(REVISIONS[present[0]]), str(after)


def _revision_of(text: str) -> str:
    return str(SHORT_TO_REVISION.get(text, text))


def compact_where(cell: str, found: dict[str, bool]) -> str | None:
    """The cell rewritten to `found`, in its own compact notation (inside a code span where it was
    written in one); None for another notation."""
    if len(cell) > 2 and cell.startswith("`") and cell.endswith("`") and cell.count("`") == 2:
        inner = compact_where(cell[1:-1], found)
        return None if inner is None else f"`{inner}`"
    segments = cell.split(" · ")
    parsed = [COMPACT_SEGMENT.match(segment) for segment in segments]
    if not all(parsed):
        return None
    long_form = any(len(m["rev"]) == 10 for m in parsed)
    lists_absent = any(m["mark"] == "—" for m in parsed)
    stated = {_revision_of(m["rev"]): m for m in parsed}
    if any(revision not in REVISIONS for revision in stated):
        return None
    written = []
    for revision in REVISIONS:
        there = bool(found.get(revision))
        if not there and not lists_absent:
            continue
        name = str(revision) if long_form else REVISION_SHORT[revision]
        mark = "✓" if there else "—"
        old = stated.get(revision)
        # What the cell said beside a mark that stays is kept; beside one that changes it no longer holds.
        rest = old["rest"] if old is not None and (old["mark"] == "✓") == there else ""
        written.append(f"{name} {mark}{rest}")
    return " · ".join(written)


def revision_labels(cell: str, first: str, removed: str) -> str:
    """The labels cell with its introduction (`<rev> has`, the earliest) and removal labels set to
    `first` and `removed` ("" for none); every other label kept in its place."""
    labels = CODE_SPAN_LABEL.findall(cell)
    has = [label for label in labels if (m := REVISION_LABEL.match(label)) and m["verb"] == "has"]
    earliest = min(has, key=lambda label: REVISIONS.index(label.split()[0])) if has else ""
    out: list[str] = []
    placed_removal = False
    for label in labels:
        found = REVISION_LABEL.match(label)
        if label == earliest:
            out.append(f"{first} has")
            if removed and not any((m := REVISION_LABEL.match(x)) and m["verb"] == "removes" for x in labels):
                out.append(f"{removed} removes")
                placed_removal = True
        elif found and found["verb"] == "removes":
            if removed and not placed_removal:
                out.append(f"{removed} removes")
                placed_removal = True
        else:
            out.append(label)
    if not earliest:
        out.insert(0, f"{first} has")
        if removed and not placed_removal:
            out.insert(1, f"{removed} removes")
    deduplicated = list(dict.fromkeys(out))
    return " ".join(f"`{label}`" for label in deduplicated)


def revision_edits(
    row_id: str,
    labels: str,
    where: str,
    where_field: str,
    found: dict[str, bool],
    evidence: Evidence,
) -> tuple[list[Edit], list[NeedsPerson]]:
    """The edits that make the row say where the schemas define its thing, or why a person must."""
    found_span = span(found)
    if found_span is None:
        present = ", ".join(r for r in REVISIONS if found.get(r)) or "no revision"
        why = f"the schemas define it at {present}: not one span of revisions a label can say"
        return [], [NeedsPerson(row_id, REVISION, why, (evidence,))]
    first, removed = found_span
    new_labels = revision_labels(labels, first, removed)
    new_where = compact_where(where, found)
    if new_where is None:
        why = f"the schemas say {first} onward{f' until {removed}' if removed else ''}; its Where cell is prose"
        return [], [NeedsPerson(row_id, REVISION, why, (evidence,))]
    edits = []
    if new_labels != labels:
        edits.append(Edit(row_id, REVISION, LABELS, labels, new_labels, (evidence,)))
    if new_where != where:
        edits.append(Edit(row_id, REVISION, WHERE, where, new_where, (evidence,)))
    onward = ONWARD.search(where_field)
    if edits and onward and onward["rev"] != first:
        edits.append(Edit(row_id, REVISION, "field:Where", onward.group(0), f"{first} onward", (evidence,)))
    return edits, []
