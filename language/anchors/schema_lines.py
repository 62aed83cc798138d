"""Which definition, and which property of it, a line of an official `schema.ts` belongs to.
Pure; each revision's file is read once.

A declaration starts at its doc comment (`/** … */` directly above `export interface|type …`) and
ends where its body closes; a property of an interface starts at its own doc comment and ends at
its `;`. A line between declarations belongs to none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from language.anchors.vocabulary import SPEC_REVISIONS, schema_source

_DECLARATION = re.compile(r"^export (?:interface|type) (\w+)")
_PROPERTY = re.compile(r"^  (?:readonly )?(\"[^\"]+\"|[\w$]+)\??:")


@dataclass(frozen=True)
class Place:
    definition: str
    prop: str = ""

    @property
    def name(self) -> str:
        return f"{self.definition}.{self.prop}" if self.prop else self.definition


def _depth_change(line: str) -> int:
    code = line.split("//", 1)[0]
    return code.count("{") - code.count("}")


@lru_cache(maxsize=len(SPEC_REVISIONS))
def places(revision: str) -> tuple[Place | None, ...]:
    """One entry per line of the revision's schema.ts (index 0 is line 1)."""
    lines = schema_source(revision).splitlines()
    found: list[Place | None] = [None] * len(lines)
    comment_start: int | None = None
    definition, depth, prop, prop_start = "", 0, "", None
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("/**") and depth <= 1:
            comment_start = index
        match = _DECLARATION.match(line) if depth == 0 else None
        if match:
            definition = match.group(1)
            start = comment_start if comment_start is not None else index
            for earlier in range(start, index):
                found[earlier] = Place(definition)
            comment_start = None
        if definition and depth == 1 and not match:
            property_match = _PROPERTY.match(line)
            if property_match:
                prop = property_match.group(1).strip('"')
                start = comment_start if comment_start is not None else index
                for earlier in range(start, index):
                    found[earlier] = Place(definition, prop)
                comment_start = None
                prop_start = index
        if definition:
            found[index] = Place(definition, prop if prop_start is not None else "")
        depth += _depth_change(line)
        if definition and depth == 1 and prop_start is not None and stripped.endswith(";"):
            prop, prop_start = "", None
        if definition and depth <= 0 and (stripped.endswith(";") or stripped.endswith("}")):
            definition, depth, prop, prop_start = "", 0, "", None
    return tuple(found)


def place_at(revision: str, line: int) -> Place | None:
    if revision not in SPEC_REVISIONS:
        return None
    table = places(revision)
    return table[line - 1] if 1 <= line <= len(table) else None
