"""A lint for register authors: what a register says against itself. Pure, no Django.

Findings, each with a severity, the file line, the row and a code:

- errors: the file does not parse (a duplicate ID, a missing field, a malformed cell); a revision
  label that the Where cell's markers contradict (`2025-03-26 has` where the cell says `26-07
  only`, or says `25-03 —`); a host label that a marker contradicts (`lootbox has` and
  `lootbox ✗`). Only markers (`✓`, `—`, `✗`, `dep`, `only`, a revision alone) state a revision's
  or a host's state: a revision followed by other words (`26-07 405`, `26-07 MUST NOT emit`,
  `26-07 server only`, `v2 no idle TTL`) describes one, and no label contradicts a description;
- warnings: a `deprecates` label at a revision the cell states otherwise; the status column and
  the subject labels disagreeing (`mcpx missing` with ✓); a row with no citation; a host with a
  stated state and nothing cited from its sources; a citation no source root covers; a label of
  no known kind; a table row without a section or a section without a table row.

Citation verdicts (drifted, moved) come from verification, not from the file: the command adds
them with `--verify`, the register page from the stored verdicts.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from language.vocabulary import ABSENT, DEPRECATED, EXISTS, HOST_NAMES, REVISION_SHORT
from registers.core.format import RegisterDoc, RegisterParseError, RowDoc
from registers.core.sources import SourceRoot, root_for
from registers.core.support import marked_lacking_hosts, marked_states, only_revisions

ERROR, WARNING = "error", "warning"
#: Host states a register states (not merely mentions).
STATED_HOST_STATES = ("has", "lacks", "partial")


@dataclass(frozen=True)
class Finding:
    severity: str
    line: int
    row: str
    code: str
    message: str

    def as_dict(self) -> dict:
        return asdict(self)


def lint_text(text: str, path: str, roots: list[SourceRoot] | None = None) -> list[Finding]:
    """Every finding of one register file, a parse failure included."""
    from registers.core.format import parse_register

    try:
        doc = parse_register(text, path)
    except RegisterParseError as error:
        return [Finding(ERROR, error.line, "", "parse", error.message)]
    return lint(doc, roots)


def lint(doc: RegisterDoc, roots: list[SourceRoot] | None = None) -> list[Finding]:
    found = [Finding(WARNING, w.line, _row_of(w.message), "structure", w.message) for w in doc.warnings]
    for row in doc.rows:
        found += _revision_labels(row)
        found += _host_labels(row)
        found += _status_and_labels(row, doc.subject or "mcpx")
        found += _citations(row, roots)
        found += [
            Finding(WARNING, row.line, row.row_id, "unknown-label", f"label `{label.text}` is of no known kind")
            for label in row.labels
            if label.kind == "other"
        ]
    return sorted(found, key=lambda f: (f.line, f.row, f.code, f.message))


ROW_ID = re.compile(r"\b[A-Z]+-\d+\b")


def _row_of(message: str) -> str:
    """The row a parser warning is about: the first row ID it names."""
    match = ROW_ID.search(message)
    return match.group(0) if match else ""


def _revision_labels(row: RowDoc) -> list[Finding]:
    stated = marked_states(row.where_cell)
    only = only_revisions(row.where_cell)
    found = []
    for label in row.labels:
        if label.kind != "revision" or not label.revision:
            continue
        revision, verb, short = label.revision, label.verb, REVISION_SHORT.get(label.revision, label.revision)
        state = stated.get(revision, "")
        if only and revision not in only and verb in ("has", "deprecates"):
            named = ", ".join(REVISION_SHORT[rev] for rev in sorted(only))
            found.append(_contradiction(row, f"label `{label.text}` contradicts the Where cell's `{named} only`"))
        elif verb == "has" and state == ABSENT:
            found.append(
                _contradiction(row, f"label `{label.text}` contradicts the Where cell, which says {short} lacks it")
            )
        elif verb == "removes" and state in (EXISTS, DEPRECATED):
            message = f"label `{label.text}` contradicts the Where cell, which says {short} has it ({state})"
            found.append(_contradiction(row, message))
        elif verb == "deprecates" and state in (EXISTS, ABSENT):
            message = f"label `{label.text}` but the Where cell says {short}: {state}"
            found.append(_contradiction(row, message, WARNING))
    return found


def _contradiction(row: RowDoc, message: str, severity: str = ERROR) -> Finding:
    return Finding(severity, row.line, row.row_id, "contradiction", message)


def _host_labels(row: RowDoc) -> list[Finding]:
    lacking = marked_lacking_hosts(row.where_cell)
    return [
        _contradiction(
            row, f"label `{label.text}` contradicts the Where cell, which says {HOST_NAMES[label.host]} lacks it"
        )
        for label in row.labels
        if label.kind == "host" and label.host in lacking
    ]


def _status_and_labels(row: RowDoc, subject: str) -> list[Finding]:
    texts = {label.text for label in row.labels}
    found = []
    if f"{subject} missing" in texts and row.status_verdict in ("yes", "acc"):
        found.append(
            Finding(
                WARNING,
                row.line,
                row.row_id,
                "status",
                f"label `{subject} missing` but the status column says {row.status_cell.split(' ')[0]}",
            )
        )
    if f"{subject} missing" in texts and f"{subject} has, others don't" in texts:
        found.append(
            Finding(
                WARNING,
                row.line,
                row.row_id,
                "status",
                f"labels `{subject} missing` and `{subject} has, others don't` together",
            )
        )
    return found


def _citations(row: RowDoc, roots: list[SourceRoot] | None) -> list[Finding]:
    line = row.section_line or row.line
    if row.section_line is None:
        return []  # no section, nothing to cite from: the structure finding says so
    if not row.citations:
        return [Finding(WARNING, line, row.row_id, "uncited", "the row cites nothing")]
    found = []
    cited_hosts = {c.host for c in row.citations if c.host}
    labelled = [label for label in row.labels if label.kind == "host" and label.host]
    found += [
        Finding(
            WARNING,
            line,
            row.row_id,
            "uncited",
            f"label `{label.text}` with nothing cited from {HOST_NAMES[label.host]}'s sources",
        )
        for label in labelled
        if label.host not in cited_hosts
    ]
    # A label is a claim of its own and is reported above even when sentences name the host; a
    # state read from the Where cell is let off when the row's prose says where it comes from.
    labelled_hosts = {label.host for label in labelled}
    for note in row.host_notes:
        if note.state in STATED_HOST_STATES and note.state_source != "status" and note.host not in cited_hosts:
            if not note.statements and note.host not in labelled_hosts:
                found.append(
                    Finding(
                        WARNING,
                        line,
                        row.row_id,
                        "uncited",
                        f"{HOST_NAMES[note.host]} is said to be `{note.state}` with nothing cited from its sources",
                    )
                )
    if roots is not None:
        for citation in row.citations:
            if citation.path and citation.kind not in ("url", "wire") and root_for(citation.path, roots) is None:
                found.append(
                    Finding(
                        WARNING,
                        line,
                        row.row_id,
                        "no-source",
                        f"`{citation.path}` is in no source root: it cannot be verified",
                    )
                )
    return found


def counts(findings: list[Finding]) -> dict[str, int]:
    return {ERROR: sum(f.severity == ERROR for f in findings), WARNING: sum(f.severity == WARNING for f in findings)}
