"""Per-host notes of a row: what the register says each host does. Pure, no Django.

A host note gathers, for one host, the Where-cell segment that names it, the sentences of the
row's fields that name it, the citations that point into its sources, and a state where the
register states one (a `<host> has` label, a ✓/✗ in the Where cell, or the status column for
the subject proxy).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from language.vocabulary import HOST_HAS, HOST_LACKS, HOST_MENTIONED, HOST_NA, HOST_PARTIAL, HOSTS, SUBJECT_HOST
from registers.core.support import host_segments

SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\"*])")
OPENCODE = re.compile(r"\bopencode\b", re.I)
OPENCODE_V1 = re.compile(r"\bv1\b|\b1\.\d+\.\d+|\bv1:")
OPENCODE_V2 = re.compile(r"\bv2\b|\b2\.0\.\d+|\bv2:")
LOOTBOX = re.compile(r"\blootbox\b", re.I)
CLOUDFLARE = re.compile(r"\bCloudflare\b|\bCF\b|@cloudflare/", re.I)

# The fields whose sentences describe behaviour; Sources is covered by citations instead.
STATEMENT_FIELDS = ("what", "where", "value", "risk", "detail")

STATUS_TO_HOST_STATE = {
    "yes": HOST_HAS,
    "acc": HOST_HAS,
    "partial": HOST_PARTIAL,
    "no": HOST_LACKS,
    "na": HOST_NA,
}
STATE_STRENGTH = {HOST_MENTIONED: 0, HOST_NA: 1, HOST_PARTIAL: 2, HOST_LACKS: 2, HOST_HAS: 3}


@dataclass
class HostNote:
    host: str
    state: str = HOST_MENTIONED
    state_source: str = ""
    where: list[str] = field(default_factory=list)
    statements: list[str] = field(default_factory=list)
    citation_indexes: list[int] = field(default_factory=list)


def sentences(text: str) -> list[str]:
    return [part.strip() for part in SENTENCE_END.split(text) if part.strip()]


def hosts_named(sentence: str, subject_name: str) -> set[str]:
    named: set[str] = set()
    # A substring test first: a pattern that opens with `\b` is tried at every position, which
    # made one 20 MB field take seconds; most sentences name no host at all.
    lowered = sentence.lower()
    if "opencode" in lowered and OPENCODE.search(sentence):
        v1, v2 = bool(OPENCODE_V1.search(sentence)), bool(OPENCODE_V2.search(sentence))
        if v1 or not v2:
            named.add("opencode-v1")
        if v2 or not v1:
            named.add("opencode-v2")
    if "lootbox" in lowered and LOOTBOX.search(sentence):
        named.add("lootbox")
    if ("cloudflare" in lowered or "cf" in lowered) and CLOUDFLARE.search(sentence):
        named.add("cloudflare")
    if subject_name and subject_name in sentence and re.search(rf"\b{re.escape(subject_name)}\b", sentence):
        named.add(SUBJECT_HOST)
    return named


def build_host_notes(row, subject_name: str) -> list[HostNote]:
    """One HostNote per host that the row (a parsed RowDoc: its labels, Where cell, fields, status
    and citations) says anything about, in HOSTS order. The subject's own status field is its note
    in full."""
    notes = {host: HostNote(host) for host in HOSTS}
    label_hosts = [label.host for label in row.labels if label.kind == "host" and label.host]
    subject_has_others_dont = any(
        label.text.replace(subject_name, "mcpx") == "mcpx has, others don't" for label in row.labels
    )
    status_verdict, citations = row.status_verdict, row.citations
    fields = [(f.key, f.text) for f in row.fields]

    def set_state(host: str, state: str, source: str) -> None:
        note = notes[host]
        if not note.state_source or STATE_STRENGTH[state] > STATE_STRENGTH[note.state]:
            note.state, note.state_source = state, source

    for segment in host_segments(row.where_cell):
        notes[segment.host].where.append(segment.text)
        if segment.state != HOST_MENTIONED:
            set_state(segment.host, segment.state, "where")
    for host in label_hosts:
        set_state(host, HOST_HAS, "label")
    if subject_has_others_dont:
        set_state(SUBJECT_HOST, HOST_HAS, "label")
        for host in HOSTS:
            if host != SUBJECT_HOST and not notes[host].state_source:
                set_state(host, HOST_LACKS, "label")
    if status_verdict in STATUS_TO_HOST_STATE:
        # The status column is the register's own verdict on the subject: it always wins.
        notes[SUBJECT_HOST].state = STATUS_TO_HOST_STATE[status_verdict]
        notes[SUBJECT_HOST].state_source = "status"

    for key, text in fields:
        if key == "status":
            notes[SUBJECT_HOST].statements.append(text)
            continue
        if key not in STATEMENT_FIELDS and not key.startswith("also-recorded"):
            continue
        for sentence in sentences(text):
            for host in hosts_named(sentence, subject_name):
                if sentence not in notes[host].statements:
                    notes[host].statements.append(sentence)

    for index, citation in enumerate(citations):
        if citation.host in notes:
            notes[citation.host].citation_indexes.append(index)

    return [
        note for note in notes.values() if note.state_source or note.where or note.statements or note.citation_indexes
    ]
