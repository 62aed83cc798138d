"""Per-revision support and host segments from a row's "Where it exists" cell and its labels.

Pure, no Django. The cell is free text with an informal grammar (segments separated by ` · `
or `; `, each a revision abbreviation with a status word, a host with a status word, or
prose). What the cell states wins; labels fill in what it leaves open; anything still open
stays "unknown", never "absent".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from language.vocabulary import (
    ABSENT,
    DEPRECATED,
    EXISTS,
    FROM_LABEL,
    FROM_WHERE_CELL,
    HOST_HAS,
    HOST_LACKS,
    HOST_MENTIONED,
    INFERRED,
    REVISION_SHORT,
    REVISIONS,
    SHORT_TO_REVISION,
    UNKNOWN,
)

SEGMENT_SEPARATOR = re.compile(r" · |; ")
REVISION_PATTERN = r"(?:\d{2}-\d{2}(?!-)|\d{4}-\d{2}-\d{2})"
REVISION_SEGMENT = re.compile(
    rf"^(?P<first>{REVISION_PATTERN})(?:\.\.(?P<last>{REVISION_PATTERN})|(?P<open>\+))?(?:\s+|(?=[✓(])|$)(?P<rest>.*)$"
)
ABSENT_WORDS = {"—", "-", "✗", "rem", "rem.", "removed", "forbidden", "none"}
DEPRECATED_WORDS = {"dep", "dep.", "deprecated"}
ALL_REVISIONS = re.compile(r"^(?:all five|every revision|all revisions)\b", re.I)

HOST_SEGMENT = re.compile(
    r"(?P<host>opencode v1/v2|opencode v1|opencode v2|opencode|lootbox|mcpx|Cloudflare|CF|(?<=\s)v1|(?<=\s)v2|^v1|^v2)"
    r"(?![\w-])"
)
HOST_KEYS = {
    "opencode v1/v2": ("opencode-v1", "opencode-v2"),
    "opencode": ("opencode-v1", "opencode-v2"),
    "opencode v1": ("opencode-v1",),
    "v1": ("opencode-v1",),
    "opencode v2": ("opencode-v2",),
    "v2": ("opencode-v2",),
    "lootbox": ("lootbox",),
    "mcpx": ("mcpx",),
    "Cloudflare": ("cloudflare",),
    "CF": ("cloudflare",),
}
HOST_ABSENT_WORDS = ("✗", "—", "dropped", "never", "no ", "none", "missing")


@dataclass
class Support:
    revision: str
    state: str
    note: str = ""
    source: str = ""


@dataclass
class HostSegment:
    host: str
    state: str
    text: str


def plain_cell(cell: str) -> str:
    """The cell without code-span backticks (nested spans make backtick pairing useless)."""
    return cell.replace("`", "").strip()


def split_segments(cell: str) -> list[str]:
    return [seg.strip() for seg in SEGMENT_SEPARATOR.split(plain_cell(cell)) if seg.strip()]


def _revision_of(token: str) -> str | None:
    if len(token) == 5:
        return SHORT_TO_REVISION.get(token)
    return token if token in REVISIONS else None


def _state_of(rest: str) -> tuple[str, str]:
    """Status word and note of a revision segment's remainder."""
    rest = rest.strip()
    if rest.startswith("✓"):
        note = _note(rest[1:])
        return (DEPRECATED if note.lower() in DEPRECATED_WORDS else EXISTS), note
    word, _, tail = rest.partition(" ")
    lowered = word.lower()
    if lowered in ABSENT_WORDS:
        return ABSENT, _note(tail)
    if lowered in DEPRECATED_WORDS:
        return DEPRECATED, _note(tail)
    # Any other words ("only", "MUST", "+audio", "inline unions") describe a form in which
    # the thing exists in that revision.
    return EXISTS, _note(rest)


def _note(text: str) -> str:
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return text.strip()


def revisions_in_segment(segment: str) -> list[tuple[str, str, str]] | None:
    """[(revision, state, note)] for a revision segment, or None if it is not one."""
    if ALL_REVISIONS.match(segment):
        state, note = _state_of(ALL_REVISIONS.sub("", segment))
        if not segment.lower().startswith("all five"):
            state, note = EXISTS, segment
        return [(rev, state, note) for rev in REVISIONS]
    match = REVISION_SEGMENT.match(segment)
    if not match:
        return None
    first = _revision_of(match.group("first"))
    if first is None:
        return None
    revisions = [first]
    if match.group("last"):
        last = _revision_of(match.group("last"))
        if last is None or REVISIONS.index(last) < REVISIONS.index(first):
            return None
        revisions = list(REVISIONS[REVISIONS.index(first) : REVISIONS.index(last) + 1])
    elif match.group("open"):
        revisions = list(REVISIONS[REVISIONS.index(first) :])
    state, note = _state_of(match.group("rest"))
    return [(rev, state, note) for rev in revisions]


def support_from_where(cell: str) -> dict[str, Support]:
    found: dict[str, Support] = {}
    for segment in split_segments(cell):
        for revision, state, note in revisions_in_segment(segment) or []:
            found.setdefault(revision, Support(revision, state, note, FROM_WHERE_CELL))
    return found


def support_from_labels(label_events: list[tuple[str, str]]) -> dict[str, Support]:
    """Per-revision states from `<rev> has|removes|deprecates` labels.

    A `has` label marks where a thing first appears, so revisions before the first one lack it
    and revisions after it keep whatever the last earlier event said.
    """
    events: dict[str, set[str]] = {}
    for revision, verb in label_events:
        events.setdefault(revision, set()).add(verb)
    if not events:
        return {}
    has_revisions = [rev for rev in REVISIONS if "has" in events.get(rev, ())]
    first_has = REVISIONS.index(has_revisions[0]) if has_revisions else None
    found: dict[str, Support] = {}
    current: str | None = None
    for index, revision in enumerate(REVISIONS):
        verbs = events.get(revision, set())
        if verbs:
            if "removes" in verbs:
                current = ABSENT
            elif "deprecates" in verbs:
                current = DEPRECATED
            else:
                current = EXISTS
            found[revision] = Support(revision, current, "", FROM_LABEL)
        elif first_has is not None and index < first_has:
            found[revision] = Support(revision, ABSENT, "before its first revision", INFERRED)
        elif current is not None:
            found[revision] = Support(revision, current, "", INFERRED)
    if first_has is None:
        # Only removes/deprecates labels: the thing existed before it was removed.
        first_event = min(REVISIONS.index(rev) for rev in events)
        for revision in REVISIONS[:first_event]:
            found[revision] = Support(revision, EXISTS, "before its removal", INFERRED)
    return found


ONLY = re.compile(r"^only\b", re.I)
#: Host markers that state a host lacks something; words ("no idle TTL", "never") describe it.
HOST_LACK_MARKERS = ("✗", "—")


def marked_states(cell: str) -> dict[str, str]:
    """{revision: state} of the Where segments that state it with a marker: `✓` (`✓ (dep.)` is
    deprecated), `—`/`✗`/`rem`, `dep`, `only`, or a revision alone. A revision followed by other
    words (`26-07 405`, `26-07 MUST NOT emit`, `26-07 server only`) describes a state: no marker."""
    found: dict[str, str] = {}
    for segment in split_segments(cell):
        rest = _marked_rest(segment)
        if rest is None:
            continue
        for revision, state, _ in revisions_in_segment(segment) or []:
            found.setdefault(revision, state)
    return found


def _marked_rest(segment: str) -> str | None:
    """The marker a revision segment starts with ("" for a revision alone), or None for words."""
    if ALL_REVISIONS.match(segment):
        rest = ALL_REVISIONS.sub("", segment).strip()
        return rest if segment.lower().startswith("all five") and _is_marker(rest) else None
    match = REVISION_SEGMENT.match(segment)
    if not match or _revision_of(match.group("first")) is None:
        return None
    rest = match.group("rest").strip()
    return rest if _is_marker(rest) else None


def _is_marker(rest: str) -> bool:
    word = rest.partition(" ")[0].lower()
    return not rest or rest.startswith("✓") or word in ABSENT_WORDS | DEPRECATED_WORDS or bool(ONLY.match(rest))


def marked_lacking_hosts(cell: str) -> set[str]:
    """Hosts the Where cell marks as lacking it (`lootbox ✗`, `mcpx —`), not those it describes."""
    return {
        segment.host
        for segment in host_segments(cell)
        if segment.state == HOST_LACKS and any(marker in segment.text for marker in HOST_LACK_MARKERS)
    }


def only_revisions(cell: str) -> set[str]:
    """Revisions the Where cell says the thing exists in *only* (`25-11 only`)."""
    found: set[str] = set()
    for segment in split_segments(cell):
        match = REVISION_SEGMENT.match(segment)
        if match and ONLY.match(match.group("rest").strip()):
            found.update(revision for revision, _, _ in revisions_in_segment(segment) or [])
    return found


def _where_inference(
    stated: dict[str, Support], only: set[str], label_events: list[tuple[str, str]]
) -> dict[str, Support]:
    """What the Where cell implies about the revisions it does not state: after `X only`, no
    other revision has it; a cell that lists revisions has none before the first that has it
    (or the first a `has` label names, when that is earlier)."""
    found: dict[str, Support] = {}
    if only:
        named = ", ".join(REVISION_SHORT[rev] for rev in REVISIONS if rev in only)
        for revision in REVISIONS:
            if revision not in only:
                found[revision] = Support(revision, ABSENT, f"the Where cell says {named} only", INFERRED)
        return found
    exists = [rev for rev in REVISIONS if rev in stated and stated[rev].state in (EXISTS, DEPRECATED)]
    exists += [rev for rev, verb in label_events if verb == "has" and rev in REVISIONS]
    if not exists or not stated:
        return found
    first = min(REVISIONS.index(rev) for rev in exists)
    for revision in REVISIONS[:first]:
        found[revision] = Support(revision, ABSENT, "before the first revision the Where cell lists", INFERRED)
    return found


def revision_support(where_cell: str, label_events: list[tuple[str, str]]) -> list[Support]:
    """One Support per revision, in revision order, by authority: what the Where cell states, then
    what a label says of its own revision, then what the Where cell implies (`only`, or none
    before the first listed), then what the labels imply; an inference never overrides a
    statement, and what nothing says stays unknown."""
    stated = support_from_where(where_cell)
    from_labels = support_from_labels(label_events)
    explicit = {rev: item for rev, item in from_labels.items() if item.source == FROM_LABEL}
    label_inferred = {rev: item for rev, item in from_labels.items() if item.source == INFERRED}
    where_inferred = _where_inference(stated, only_revisions(where_cell), label_events)
    result: list[Support] = []
    for revision in REVISIONS:
        support = stated.get(revision) or explicit.get(revision) or where_inferred.get(revision)
        if support is None and revision in label_inferred:
            support = label_inferred[revision]
            earlier_exists = any(item.state in (EXISTS, DEPRECATED) for item in result)
            if support.state == ABSENT and earlier_exists:
                # The cell says an earlier revision has it in some form: carry that forward
                # rather than trusting the label's "first appears" reading.
                support = Support(revision, result[-1].state, "", INFERRED)
        result.append(support or Support(revision, UNKNOWN, "", ""))
    return result


def milestones(support: list[Support], label_events: list[tuple[str, str]]) -> dict[str, str]:
    """introduced_in / removed_in / deprecated_in, from labels first, then the support strip."""

    def first_label(verb: str) -> str:
        revs = [rev for rev, v in label_events if v == verb]
        return min(revs, key=REVISIONS.index) if revs else ""

    introduced = first_label("has")
    if not introduced:
        for index, item in enumerate(support):
            if item.state in (EXISTS, DEPRECATED):
                if index == 0 or all(s.state == ABSENT for s in support[:index]):
                    introduced = item.revision
                break
    removed = first_label("removes")
    if not removed:
        seen_exists = False
        for item in support:
            seen_exists = seen_exists or item.state in (EXISTS, DEPRECATED)
            if seen_exists and item.state == ABSENT:
                removed = item.revision
                break
    deprecated = first_label("deprecates") or next((item.revision for item in support if item.state == DEPRECATED), "")
    return {"introduced_in": introduced, "removed_in": removed, "deprecated_in": deprecated}


def host_segments(cell: str) -> list[HostSegment]:
    """Host mentions in the Where cell (`opencode v1 ✓ ($1..$n)`, `lootbox raw envelope`, `CF isolate`)."""
    found: list[HostSegment] = []
    for segment in split_segments(cell):
        matches = list(HOST_SEGMENT.finditer(segment))
        for position, match in enumerate(matches):
            end = matches[position + 1].start() if position + 1 < len(matches) else len(segment)
            words = segment[match.end() : end].strip()
            state = _host_state(words)
            text = segment[match.start() : end].strip()
            for host in HOST_KEYS[match.group("host")]:
                found.append(HostSegment(host, state, text))
    return found


def _host_state(words: str) -> str:
    if words.startswith("✓"):
        return HOST_HAS
    lowered = f"{words.lower()} "
    if any(lowered.startswith(word) or f" {word}" in lowered for word in HOST_ABSENT_WORDS):
        return HOST_LACKS
    return HOST_MENTIONED
