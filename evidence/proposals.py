"""The edits a register's evidence decides (issue 51), each with its evidence, and the rows whose
evidence is mixed ("needs a person"); the patch of the register's text as loaded that makes them.

Kinds:
- revision: the `<rev> has` / `removes` labels, the compact "Where it exists" cell and the block's
  "<rev> onward", where the official schema of each revision decides the row's claim
  (comparison.core.spec_checks, only a decisive disagreement: a title naming one schema thing);
- host: a `<host> has` label the host lab contradicts at the version the register pins, on every
  feature the row is about (comparison.hostlab.claims); a claim stated in the Where cell, or one
  the lab both agrees and disagrees with, needs a person;
- status: the status column's `<subject> @ <commit>` where the latest run of a target named as the
  subject reports a commit as its version (serverInfo); a `✓` status cell where the latest probe
  of such a target lost or changed what the row is about in every cell that meets it (`✗`), or in
  some (`partial`);
  a `✗` or `partial` the probe finds faithful needs a person (the cell may be about more);
- citation: a quote verified as moved (registers.verification) re-pointed to the line that holds
  it now at the source's pinned commit; one whose quote is in the file no more needs a person.

An edit that no longer fits the text (the register changed since, or the phrase is wrapped over
two lines) is not proposed; the row is listed as needing a person instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from comparison.core import spec_checks
from comparison.hostlab import claims
from comparison.models import ProbeRun
from comparison.selectors.runs import latest_ended_runs
from evidence.lab_findings import every_claim_check
from evidence.row_evidence import latest_probe_cells, revisions_of_row
from evidence.rules.evidence_related import FAITHFUL, UNFAITHFUL, meeting, names_subject, subject_of
from language.vocabulary import FIXED_LABELS, HOST_NAMES, LabelKind
from registers.core.format import parse_register
from registers.core.proposals.edits import (
    CITATION,
    HOST,
    KINDS,
    LABELS,
    REVISION,
    STATUS,
    STATUS_CELL,
    SUBJECT_HEADER,
    Edit,
    Evidence,
    NeedsPerson,
)
from registers.core.proposals.patch import unified_patch
from registers.core.proposals.revision_edits import revision_edits
from registers.core.proposals.text_edits import EditConflict, apply_edits
from registers.core.quotes import DRIFTED, MOVED
from registers.models import Citation, Register, RegisterSource, Row

SCHEMA_SOURCE = "MCP JSON Schema of each revision"


class NoSource(ValueError):
    """The register's text as loaded is not kept (loaded before it was): load it again."""


@dataclass
class Proposals:
    register: Register
    text: str
    edits: list[Edit] = field(default_factory=list)
    people: list[NeedsPerson] = field(default_factory=list)
    #: The text with the kept edits made (set by _keep_what_fits).
    edited: str = ""

    def counts(self) -> dict[str, int]:
        return {kind: sum(1 for edit in self.edits if edit.kind == kind) for kind in KINDS}

    def edited_text(self) -> str:
        """The text with every kept edit made (made once, when the edits were tried on it)."""
        return self.edited

    def patch(self, path: str = "") -> str:
        """The unified diff, naming the register by `path` (default: its path as loaded, else its slug)."""
        named = path or self.register.source_path.lstrip("/") or f"{self.register.slug}.md"
        return unified_patch(self.text, self.edited_text(), named)

    def as_dict(self) -> dict:
        return {
            "register": self.register.slug,
            "counts": self.counts(),
            "edits": [edit.as_dict() for edit in self.edits],
            "needs_a_person": [item.as_dict() for item in self.people],
        }


def source_text(register: Register) -> str:
    found = RegisterSource.objects.filter(register=register).values_list("text", flat=True).first()
    if found is None:
        raise NoSource(f"{register.slug}: its text as loaded is not kept; load the register again")
    return found


def register_proposals(register: Register, kinds: tuple[str, ...] = KINDS) -> Proposals:
    text = source_text(register)
    doc = parse_register(text, register.source_path or register.slug, slug=register.slug, require_fields=False)
    rows = {
        row.row_id: row
        for row in Row.objects.filter(register=register)
        .select_related("register")
        .prefetch_related("labels", "host_notes")
    }
    found = Proposals(register, text)
    host_checks = _host_checks(rows.values()) if HOST in kinds else {}
    cells = latest_probe_cells() if STATUS in kinds else []
    moved = _moved_citations(register) if CITATION in kinds else {}
    if STATUS in kinds:
        _subject_header(found, register)
    for row_doc in doc.rows:
        row = rows.get(row_doc.row_id)
        if row is None:
            continue
        if REVISION in kinds:
            _revision(found, row, row_doc)
        if HOST in kinds:
            _host(found, row_doc, host_checks.get(row_doc.row_id, []))
        if STATUS in kinds:
            _status(found, row, row_doc, cells)
        if CITATION in kinds:
            _citations(found, row_doc, moved.get(row_doc.row_id, []))
    _keep_what_fits(found)
    return found


#: The label that says a register host has the row's thing.
HOST_LABELS = {host: label for label, (kind, host) in FIXED_LABELS.items() if kind == LabelKind.HOST}


def _host_checks(rows) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for check in every_claim_check(list(rows)):
        found.setdefault(check["row"], []).append(check)
    return found


def _host(found: Proposals, row_doc, checks: list[dict]) -> None:
    by_host: dict[str, list[dict]] = {}
    for check in checks:
        if check["verdict"] in (claims.AGREES, claims.CONTRADICTS):
            by_host.setdefault(check["register_host"], []).append(check)
    labels = row_doc.labels_cell
    for host, said in by_host.items():
        if not any(check["verdict"] == claims.CONTRADICTS for check in said):
            continue
        evidence = tuple(
            Evidence(
                "host lab",
                f"{check['label']} {check['version']}: {check['title']} {check['chip']} ({check['how']})",
                f"/hosts/observations/{check['observation_id']}/" if check.get("observation_id") else "",
            )
            for check in said
        )
        label = HOST_LABELS.get(host)
        decided = all(check["verdict"] == claims.CONTRADICTS for check in said)
        stated_in_label = all(check["claim_source"] == "label" for check in said) and said[0]["claim"] == claims.HAS
        if not decided or not stated_in_label or label is None or f"`{label}`" not in labels:
            why = (
                "the lab agrees with the claim on some features and not on others"
                if not decided
                else f"the claim ({said[0]['claim']}) is stated in the Where cell, which a person words"
            )
            found.people.append(NeedsPerson(row_doc.row_id, HOST, f"{HOST_NAMES.get(host, host)}: {why}", evidence))
            continue
        new = " ".join(part for part in labels.replace(f"`{label}`", "").split(" ") if part)
        found.edits.append(Edit(row_doc.row_id, HOST, LABELS, labels, new, evidence))
        labels = new


COMMIT = re.compile(r"^[0-9a-f]{7,40}$")


def _subject_header(found: Proposals, register: Register) -> None:
    """The status column's commit, where the latest finished run of a target named as the subject
    says (its serverInfo version) it is another commit."""
    if not register.subject or not register.subject_commit:
        return
    latest = latest_ended_runs(measured=True)
    runs = ProbeRun.objects.filter(pk__in=list(latest), status=ProbeRun.DONE).exclude(server_identity="")
    for run_id, identity in runs.order_by("-pk").values_list("pk", "server_identity"):
        if not names_subject(latest[run_id].target, register.subject):
            continue
        version = identity.rsplit(" ", 1)[-1]
        if COMMIT.match(version) and not version.startswith(register.subject_commit[:7]):
            old, new = f"{register.subject} @ {register.subject_commit}", f"{register.subject} @ {version[:12]}"
            says = f"{latest[run_id].target} said it is {identity} (serverInfo) in run #{run_id}"
            evidence = (Evidence(f"probe run #{run_id}", says, f"/probes/runs/{run_id}/"),)
            found.edits.insert(0, Edit("", STATUS, SUBJECT_HEADER, old, new, evidence))
        return


def _status(found: Proposals, row: Row, row_doc, cells) -> None:
    revisions = revisions_of_row(row)
    subject = subject_of(revisions)
    own = [c for c in cells if names_subject(c.target, revisions.status_subject) and meeting(c, subject)]
    bad = [c for c in own if c.verdict in UNFAITHFUL]
    good = [c for c in own if c.verdict in FAITHFUL]
    if not bad and not good:
        return
    said = row_doc.status_cell
    evidence = tuple(
        Evidence(f"probe run #{c.run_id} through {c.target}", f"{c.scenario} @ {c.revision}: {c.verdict}",
                 f"/probes/results/{c.result_id}/")
        for c in (bad + good)[:6]
    )  # fmt: skip
    verdict = row_doc.status_verdict
    if verdict == "yes" and bad:
        mark = "✗" if not good else "partial"
        new = f"{mark} — {bad[0].verdict} through {bad[0].target} (probe run #{bad[0].run_id})"
        found.edits.append(Edit(row_doc.row_id, STATUS, STATUS_CELL, said, new, evidence))
    elif verdict in ("no", "partial") and good and not bad:
        why = f"the status says {said.split(' — ')[0]}; the probe of {good[0].target} found it faithful"
        found.people.append(NeedsPerson(row_doc.row_id, STATUS, why, evidence))


def _moved_citations(register: Register) -> dict[str, list[Citation]]:
    found: dict[str, list[Citation]] = {}
    checked = Citation.objects.filter(row__register=register, verdict__in=[MOVED, DRIFTED])
    for citation in checked.select_related("row").order_by("row__order", "order"):
        found.setdefault(citation.row.row_id, []).append(citation)
    return found


def _citations(found: Proposals, row_doc, moved: list[Citation]) -> None:
    names = {field.key: field.name for field in row_doc.fields}
    for citation in moved:
        if citation.verdict == DRIFTED or citation.found_line is None:
            said = citation.verify_detail or "the quote is not in the file"
            evidence = (Evidence("cited source", said, citation.web_url),)
            why = f"{citation.path}:{citation.line_start}: {said}; no line holds the quote to point at"
            found.people.append(NeedsPerson(row_doc.row_id, CITATION, why, evidence))
            continue
        name = names.get(citation.field)
        start, end = citation.line_start, citation.line_end or citation.line_start
        if name is None or start is None:
            continue
        old = f"{citation.path}:{start}" + (f"-{end}" if end != start else "")
        shift = citation.found_line - start
        new = f"{citation.path}:{start + shift}" + (f"-{end + shift}" if end != start else "")
        says = f"the quote is at line {citation.found_line} at {citation.verified_commit[:12] or 'the pinned commit'}"
        evidence = (Evidence("cited source", says, citation.web_url),)
        found.edits.append(Edit(row_doc.row_id, CITATION, f"field:{name}", old, new, evidence))


def _revision(found: Proposals, row: Row, row_doc) -> None:
    revisions = revisions_of_row(row)
    check = spec_checks.check_row(revisions)
    if check is None or check.stance is not False:
        return
    where_field = next((f.text for f in row_doc.fields if f.key == "where"), "")
    evidence = Evidence(SCHEMA_SOURCE, check.detail())
    edits, people = revision_edits(
        row_doc.row_id, row_doc.labels_cell, row_doc.where_cell, where_field, check.found, evidence
    )
    found.edits += edits
    found.people += people


def _keep_what_fits(found: Proposals) -> None:
    """Every edit tried on the text with the ones before it: one that does not fit is dropped, and
    its row's other edits with it (a row is edited whole or not at all)."""
    text, kept = found.text, []
    for row_id in dict.fromkeys(edit.row_id for edit in found.edits):
        edits = [edit for edit in found.edits if edit.row_id == row_id]
        try:
            text = apply_edits(text, edits)
        except EditConflict as conflict:
            evidence = tuple(e for edit in edits for e in edit.evidence)[:1]
            found.people.append(
                NeedsPerson(row_id, edits[0].kind, f"the edit does not fit the text: {conflict}", evidence)
            )
            continue
        kept += edits
    found.edits, found.edited = kept, text
