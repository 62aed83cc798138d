"""Does the official schema of each revision define what a register row says it does? Pure, no
Django (reads the shipped schema files).

A row's revision claim is where the register says its subject exists: from its labels
(`2025-06-18 has` → from 2025-06-18, `… deprecates` keeps it, a removal ends it) or, without a
revision label, from its "Where it exists" cell. Each checked row names one thing in the schema
(a definition, a property of one, or a type one property accepts); the check reads every revision's
schema and compares. Only rows whose subject is a schema shape are checked: prose rules (which
errors are protocol errors) are not in any schema.
"""

from __future__ import annotations

from dataclasses import dataclass

from registers.vocabulary import REVISIONS

from .probes.revisions import official_schema


@dataclass(frozen=True)
class SchemaSubject:
    definition: str
    prop: str = ""  # a property of the definition
    accepts: str = ""  # a definition the property (or its array items) accepts
    any_json: bool = False  # the property takes any JSON value (no `type` of its own)

    def describe(self) -> str:
        if self.any_json:
            return f"{self.definition}.{self.prop} as any JSON value"
        if self.accepts:
            return f"{self.definition}.{self.prop} accepts {self.accepts}"
        return f"{self.definition}.{self.prop}" if self.prop else self.definition


#: Register row -> what in the schema its subject is.
ROW_SUBJECTS: dict[str, SchemaSubject] = {
    "CT-01": SchemaSubject("TextContent"),
    "CT-02": SchemaSubject("ImageContent"),
    "CT-03": SchemaSubject("AudioContent"),
    "CT-04": SchemaSubject("EmbeddedResource"),
    "CT-05": SchemaSubject("ResourceLink"),
    "CT-06": SchemaSubject("ResourceLink"),
    "CT-07": SchemaSubject("ContentBlock"),
    "CT-08": SchemaSubject("ToolUseContent"),
    "CT-09": SchemaSubject("TextContent", "annotations"),
    "CT-10": SchemaSubject("TextContent", "_meta"),
    "CT-11": SchemaSubject("ToolResultContent", "structuredContent", any_json=True),
    "CT-13": SchemaSubject("CallToolResult", "structuredContent"),
    "FG-01": SchemaSubject("CallToolResult", "isError"),
    "FG-12": SchemaSubject("CallToolResult", "isError"),
    "PRM-01": SchemaSubject("Prompt", "title"),
    "PRM-02": SchemaSubject("PromptArgument", "title"),
    "PRM-03": SchemaSubject("Prompt", "icons"),
    "PRM-04": SchemaSubject("Prompt", "_meta"),
    "PRM-05": SchemaSubject("PromptMessage", "content", "AudioContent"),
    "PRM-06": SchemaSubject("PromptMessage", "content", "ResourceLink"),
    "PRM-07": SchemaSubject("PromptMessage", "role"),
}


def _definitions(revision: str) -> dict:
    schema = official_schema(revision)
    return schema.get("$defs") or schema.get("definitions") or {}


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


def defines(subject: SchemaSubject, revision: str) -> bool:
    definitions = _definitions(revision)
    definition = definitions.get(subject.definition)
    if not isinstance(definition, dict):
        return False
    if not subject.prop:
        return True
    prop = (definition.get("properties") or {}).get(subject.prop)
    if prop is None:
        return False
    if subject.any_json:
        return isinstance(prop, dict) and "type" not in prop and "$ref" not in prop
    return not subject.accepts or subject.accepts in _accepted(prop, definitions)


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

    @property
    def differing(self) -> list[str]:
        return [revision for revision, claimed in self.claimed.items() if self.found.get(revision) != claimed]

    @property
    def agrees(self) -> bool:
        return not self.differing

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
        return text


def check(row_id: str, support: dict[str, str], introduced: str = "", removed: str = "") -> SchemaCheck | None:
    """The row's revision claim against every revision's schema; None for a row with no schema
    subject or no stated revision."""
    subject = ROW_SUBJECTS.get(row_id)
    claimed = claimed_revisions(support, introduced, removed)
    if subject is None or not claimed:
        return None
    found = {revision: defines(subject, revision) for revision in REVISIONS}
    return SchemaCheck(subject.describe(), claimed, found)
