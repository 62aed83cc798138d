"""What MCP is made of, per revision, read from the official schemas (JSON and TypeScript) and
the spec pages copied under `comparison/data/spec` (pinned commit in its README). Pure; read once.

Nothing here is typed by hand: methods and notifications are the definitions whose `method` is a
constant, capabilities are the properties of the capability definitions, error codes and `_meta`
keys are the constants and string literals of `schema.ts`, headers, HTTP methods and statuses are
what the transport pages name.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from language.anchors import kinds
from language.vocabulary import REVISIONS

DATA = Path(__file__).resolve().parents[2] / "comparison" / "data"
SCHEMAS = DATA / "schemas"
SPEC = DATA / "spec"
PAGES = SPEC / "docs" / "specification"
#: Every revision the data holds: the five and the draft the next one is written in.
SPEC_REVISIONS = (*(str(revision) for revision in REVISIONS), "draft")
#: Type literals that name a JSON Schema primitive, not one MCP definition.
PRIMITIVE_LITERALS = {"string", "number", "integer", "boolean", "array", "object", "null"}
_ERROR_CONSTANT = re.compile(r"^export const ([A-Z_]+)\s*=\s*(-\d+);", re.M)
_META_KEY = re.compile(r"[\"'`]((?:io\.)?modelcontextprotocol(?:\.io)?/[A-Za-z][\w-]*)[\"'`]")
_BACKTICKED = re.compile(r"`([^`\n]{1,80})`")
_HEADER = re.compile(r"^[A-Z][A-Za-z]*(?:-[A-Z][A-Za-z]*)+$")
_HTTP_METHOD = re.compile(r"\b(GET|POST|DELETE|PUT|PATCH|OPTIONS|HEAD)\b")
_STATUS = re.compile(r"\bHTTP (\d{3})\b|\b(\d{3}) (?:[A-Z][a-z]+)(?: [A-Z][a-z]+)*\b")


@dataclass
class Vocabulary:
    """{anchor: revisions where the spec has it}, and the ways a bare name reaches an anchor."""

    present: dict[str, set[str]] = field(default_factory=dict)
    #: A property name → the definitions that have it (in any revision).
    owners: dict[str, set[str]] = field(default_factory=dict)
    #: A type literal (`audio`, `resource_link`) → the definition it tags.
    literals: dict[str, str] = field(default_factory=dict)
    #: A method's last segment (`setLevel`) → the method, where only one method ends so.
    short_methods: dict[str, str] = field(default_factory=dict)
    #: A definition's property → the definition its value is (through `$ref`).
    refs: dict[str, str] = field(default_factory=dict)
    #: A union definition (`ContentBlock`) → the definitions it is one of.
    members: dict[str, set[str]] = field(default_factory=dict)
    #: A request or notification definition → its method anchor.
    definition_methods: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)  # lower-cased → as the spec writes it
    pages: set[str] = field(default_factory=set)  # page topics

    def add(self, value: str, revision: str) -> None:
        self.present.setdefault(value, set()).add(revision)

    def revisions_of(self, value: str) -> set[str]:
        return self.present.get(value, set())


@lru_cache(maxsize=len(SPEC_REVISIONS))
def schema_definitions(revision: str) -> dict[str, dict]:
    schema = json.loads((SCHEMAS / f"{revision}.json").read_text(encoding="utf-8"))
    found = schema.get("$defs") or schema.get("definitions") or {}
    return {name: node for name, node in found.items() if isinstance(node, dict)}


@lru_cache(maxsize=len(SPEC_REVISIONS))
def schema_source(revision: str) -> str:
    return (SPEC / "schema" / revision / "schema.ts").read_text(encoding="utf-8")


def _ref_name(node: dict) -> str:
    ref = node.get("$ref") if isinstance(node, dict) else None
    return ref.rsplit("/", 1)[-1] if isinstance(ref, str) else ""


def _read_definitions(vocabulary: Vocabulary, revision: str) -> None:
    for name, node in schema_definitions(revision).items():
        vocabulary.add(kinds.anchor(kinds.TYPE, name), revision)
        properties = node.get("properties") or {}
        for prop, value in properties.items():
            vocabulary.add(kinds.anchor(kinds.FIELD, f"{name}.{prop}"), revision)
            vocabulary.owners.setdefault(prop, set()).add(name)
            if _ref_name(value):
                vocabulary.refs[f"{name}.{prop}"] = _ref_name(value)
            for nested in (value.get("properties") or {}) if isinstance(value, dict) else ():
                vocabulary.add(kinds.anchor(kinds.FIELD, f"{name}.{prop}.{nested}"), revision)
                # An inline object's property (`ProgressNotification.params.progressToken`, before
                # the params had a definition of their own) is owned by the property that holds it.
                vocabulary.owners.setdefault(nested, set()).add(f"{name}.{prop}")
        method = (properties.get("method") or {}).get("const")
        if isinstance(method, str):
            kind = kinds.NOTIFICATION if method.startswith("notifications/") else kinds.METHOD
            vocabulary.add(kinds.anchor(kind, method), revision)
            vocabulary.definition_methods[name] = kinds.anchor(kind, method)
        union = [_ref_name(option) for option in node.get("anyOf") or () if _ref_name(option)]
        if union and not properties:
            vocabulary.members.setdefault(name, set()).update(union)
        literal = (properties.get("type") or {}).get("const")
        if isinstance(literal, str) and literal not in PRIMITIVE_LITERALS:
            vocabulary.literals.setdefault(literal, name)
        if name in ("ClientCapabilities", "ServerCapabilities"):
            _read_capabilities(vocabulary, revision, properties)


def _read_capabilities(vocabulary: Vocabulary, revision: str, properties: dict) -> None:
    for capability, value in properties.items():
        vocabulary.add(kinds.anchor(kinds.CAPABILITY, capability), revision)
        for option in (value.get("properties") or {}) if isinstance(value, dict) else ():
            vocabulary.add(kinds.anchor(kinds.CAPABILITY, f"{capability}.{option}"), revision)


def _read_source(vocabulary: Vocabulary, revision: str) -> None:
    source = schema_source(revision)
    for _, code in _ERROR_CONSTANT.findall(source):
        vocabulary.add(kinds.anchor(kinds.ERROR, code), revision)
    for key in _META_KEY.findall(source):
        vocabulary.add(kinds.anchor(kinds.META, key), revision)


def page_topic(path: str) -> str:
    """A page's topic, the same across revisions that moved it (`basic/utilities/progress` and
    `basic/patterns/progress` are both `progress`; an `index` page is its folder)."""
    parts = [part for part in path.removesuffix(".mdx").split("/") if part]
    if parts and parts[-1] == "index" and len(parts) > 1:
        parts.pop()
    return parts[-1] if parts else ""


def _read_pages(vocabulary: Vocabulary, revision: str) -> None:
    root = PAGES / revision
    for page in sorted(root.rglob("*.mdx")):
        relative = page.relative_to(root).as_posix()
        topic = page_topic(relative)
        vocabulary.pages.add(topic)
        vocabulary.add(kinds.anchor(kinds.PAGE, topic), revision)
        if "transports" not in relative and "authorization" not in relative:
            continue
        text = page.read_text(encoding="utf-8")
        for token in _BACKTICKED.findall(text):
            if _HEADER.match(token):
                vocabulary.headers.setdefault(token.lower(), token)
                vocabulary.add(kinds.anchor(kinds.HEADER, vocabulary.headers[token.lower()]), revision)
        if "transports" in relative:
            for method in _HTTP_METHOD.findall(text):
                vocabulary.add(kinds.anchor(kinds.HTTP, method), revision)
            for first, second in _STATUS.findall(text):
                vocabulary.add(kinds.anchor(kinds.STATUS, first or second), revision)


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    found = Vocabulary()
    for revision in SPEC_REVISIONS:
        _read_definitions(found, revision)
        _read_source(found, revision)
        _read_pages(found, revision)
    methods = [kinds.split(value)[1] for value in found.present if value.startswith(kinds.METHOD + ":")]
    ends: dict[str, list[str]] = {}
    for method in methods:
        ends.setdefault(method.rsplit("/", 1)[-1], []).append(method)
    found.short_methods = {end: names[0] for end, names in ends.items() if len(names) == 1}
    return found
