"""Does the official schema of each revision define what a register row's revision claim is
about? Pure, no Django (reads the shipped schemas through comparison.anchors).

No row is named here. A row's subject is the set of anchors its title names (comparison.anchors);
each schema-shaped subject anchor is a *reading* of what the claim is about, with the revisions
whose schema has it. The claim is where the register says the subject exists: from its labels
(`2025-06-18 has` → from 2025-06-18, a removal ends it) or, without a revision label, from its
"Where it exists" cell.

The check agrees when one reading is present exactly where the claim says. It disagrees only when
it measured the claim unambiguously: the title names one schema thing and nothing else (a *naming*
title: "`Prompt.title`", "`logging/setLevel` request removed"). A title that describes a behaviour
of a thing ("`tools/list` in deterministic order") claims where the behaviour exists, which the
schema does not hold: there the check is related, with no stance.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from language.anchors import kinds
from language.anchors.titles import head as _head
from language.anchors.titles import naming_title
from language.anchors.vocabulary import schema_definitions, vocabulary
from language.vocabulary import REVISIONS

#: A title saying the thing becomes any JSON value claims a type change, not an existence.
ANY_JSON = re.compile(r"\bany JSON\b", re.I)


@dataclass(frozen=True)
class Reading:
    name: str
    found: dict[str, bool]


def _accepted(node: dict, definitions: dict, depth: int = 0) -> set[str]:
    """The definitions a schema node accepts, through $ref, anyOf/oneOf and array items."""
    if not isinstance(node, dict) or depth > 8:
        return set()
    found: set[str] = set()
    ref = node.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        found.add(name)
        found |= _accepted(definitions.get(name, {}), definitions, depth + 1)
    for key in ("anyOf", "oneOf"):
        for option in node.get(key) or ():
            found |= _accepted(option, definitions, depth + 1)
    if isinstance(node.get("items"), dict):
        found |= _accepted(node["items"], definitions, depth + 1)
    return found


def _property(revision: str, definition: str, prop: str) -> dict | None:
    node = schema_definitions(revision).get(definition) or {}
    value = (node.get("properties") or {}).get(prop)
    return value if isinstance(value, dict) else None


def _field_reading(name: str, any_json: bool) -> Reading:
    definition, _, prop = name.partition(".")
    if not any_json:
        present = vocabulary().revisions_of(kinds.anchor(kinds.FIELD, name))
        return Reading(name, {revision: revision in present for revision in REVISIONS})
    found = {}
    for revision in REVISIONS:
        value = _property(revision, definition, prop)
        found[revision] = value is not None and "type" not in value and "$ref" not in value
    return Reading(f"{name} as any JSON value", found)


def _accepts_reading(field_name: str, accepted: str) -> Reading:
    definition, _, prop = field_name.partition(".")
    found = {}
    for revision in REVISIONS:
        value = _property(revision, definition, prop)
        found[revision] = value is not None and accepted in _accepted(value, schema_definitions(revision))
    return Reading(f"{field_name} accepts {accepted}", found)


@lru_cache(maxsize=4096)
def _readings(subject: tuple[str, ...], title: str) -> tuple[Reading, ...]:
    return tuple(readings(list(subject), title))


def readings(subject: list[str], title: str = "") -> list[Reading]:
    """Every schema reading of a row's subject anchors."""
    vocab = vocabulary()
    # "becomes any JSON" in what the title names claims a type change; after a `;` it is one of
    # the things the row says, so both the property and its any-JSON form are readings.
    head = _head(title)
    forms = [True] if ANY_JSON.search(head) else [False, True] if ANY_JSON.search(title) else [False]
    found: list[Reading] = []
    fields = [kinds.split(value)[1] for value in subject if kinds.split(value)[0] == kinds.FIELD]
    for value in subject:
        kind, name = kinds.split(value)
        if kind == kinds.FIELD:
            found += [_field_reading(name, any_json) for any_json in forms]
        elif kind == kinds.PROP:
            owners = sorted(vocab.owners.get(name, ()))
            if not forms[0]:
                # Not tied to a definition, the name reads first as "some definition has it": a
                # property that moved from inline params to a definition of its own still exists.
                anywhere = set().union(*(vocab.revisions_of(kinds.anchor(kinds.FIELD, f"{o}.{name}")) for o in owners))
                found.append(Reading(f"`{name}` on any definition", {r: r in anywhere for r in REVISIONS}))
            found += [_field_reading(f"{owner}.{name}", any_json) for owner in owners for any_json in forms]
        elif kind in kinds.SCHEMA_KINDS:
            present = vocab.revisions_of(value)
            found.append(Reading(name, {revision: revision in present for revision in REVISIONS}))
            if kind == kinds.TYPE:
                found += [_accepts_reading(field, name) for field in fields]
    return found


def claimed_revisions(support: dict[str, str], introduced: str, removed: str) -> dict[str, bool]:
    """{revision: the register says the subject exists there}, for the revisions it states."""
    if introduced in REVISIONS:
        start = REVISIONS.index(introduced)
        end = REVISIONS.index(removed) if removed in REVISIONS else len(REVISIONS)
        return {revision: start <= index < end for index, revision in enumerate(REVISIONS)}
    states = {"exists": True, "deprecated": True, "absent": False, "removed": False}
    return {revision: states[state] for revision, state in support.items() if state in states}


@dataclass(frozen=True)
class SchemaCheck:
    subject: str
    claimed: dict[str, bool]
    found: dict[str, bool]
    #: False when the title names more than one thing or describes a behaviour: the check then
    #: confirms a reading that matches, and otherwise takes no stance.
    decisive: bool = True

    @property
    def differing(self) -> list[str]:
        return [revision for revision, claimed in self.claimed.items() if self.found.get(revision) != claimed]

    @property
    def agrees(self) -> bool:
        return not self.differing

    @property
    def stance(self) -> bool | None:
        """True (agrees), False (disagrees), or None (related: measured, but not this claim)."""
        if self.agrees:
            return True
        return False if self.decisive else None

    def detail(self) -> str:
        present = [revision for revision, there in self.found.items() if there]
        where = ", ".join(present) or "no revision"
        text = f"the official schema defines {self.subject} at {where}"
        if self.differing:
            said = "; ".join(
                f"{revision}: the register says {'present' if self.claimed[revision] else 'absent'}"
                for revision in self.differing
            )
            text += f" ({said})"
            if not self.decisive:
                text += "; the title names more than this one thing, or a behaviour of it, so no stance"
        return text


def check_row(revisions) -> SchemaCheck | None:
    """`check` of what a row says (an evidence_types.RowRevisions)."""
    return check(
        list(revisions.subject),
        revisions.title,
        revisions.support,
        revisions.introduced,
        revisions.removed,
        revisions.described,
    )


def check(
    subject: list[str],
    title: str,
    support: dict[str, str],
    introduced: str = "",
    removed: str = "",
    described: tuple[str, ...] = (),
) -> SchemaCheck | None:
    """The row's revision claim against every revision's schema; None for a row whose subject has
    no schema reading or that states no revision."""
    claimed = claimed_revisions(support, introduced, removed)
    found = list(_readings(tuple(subject), title))
    if not found and described:
        # A title that names nothing: what the row's What names may still match the claim
        # (confirmed when one does), but the check cannot tell which the claim is about.
        found = list(_readings(tuple(described), title))
        title = ""
    if not found or not claimed:
        return None
    for reading in found:
        if all(reading.found.get(revision) == there for revision, there in claimed.items()):
            return SchemaCheck(reading.name, claimed, reading.found)
    decisive = len(found) == 1 and bool(title) and naming_title(title)
    return SchemaCheck(found[0].name, claimed, found[0].found, decisive)
