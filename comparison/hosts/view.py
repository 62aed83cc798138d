"""What a host makes of an MCP result: the HostView value every host model returns. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

#: Stands for "no value at all" (a JSON `undefined`), as opposed to JSON null.
ABSENT: Any = type("Absent", (), {"__repr__": lambda self: "ABSENT", "__bool__": lambda self: False})()

DELIVERED, FAILED = "delivered", "failed"


@dataclass(frozen=True)
class Rule:
    """A cited rule of a host's behaviour: the source location and the register rows it backs."""

    source: str
    rows: tuple[str, ...] = ()


@dataclass
class Change:
    """One thing the host dropped or changed on the way, and why."""

    subject: str  # e.g. "content[1] (audio)", "isError", "structuredContent"
    action: str  # "dropped", "changed", "moved"
    reason: str
    rule: Rule


@dataclass
class Media:
    mime: str
    bytes: int
    filename: str | None = None


@dataclass
class Part:
    """One content part handed to the model: text, or a file (media)."""

    text: str | None = None
    media: Media | None = None


@dataclass
class HostView:
    host: str  # vocabulary host key: opencode-v1, opencode-v2, lootbox, cloudflare, mcpx
    path: str  # direct, codemode, script, call, slash-command, prompt
    label: str
    outcome: str = DELIVERED
    #: What the model receives (direct paths) as ordered parts.
    parts: list[Part] = field(default_factory=list)
    #: Files delivered with the result (direct) or attached to the execute result (code modes).
    attachments: list[Media] = field(default_factory=list)
    #: What a script's `await tool()` resolves to (code and script paths); ABSENT elsewhere.
    script_value: Any = ABSENT
    #: opencode v2's `output` value; ABSENT elsewhere.
    output: Any = ABSENT
    #: The failure message when the call fails or the script's await throws.
    error: str | None = None
    #: Cloudflare: the wrapping `code` tool's text and isError as its host sees them.
    host_text: str | None = None
    host_is_error: bool | None = None
    changes: list[Change] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        return self.host if self.path in ("direct", "script", "call") else f"{self.host}-{self.path}"

    def text(self) -> str:
        return "\n\n".join(part.text for part in self.parts if part.text is not None)

    def drop(self, subject: str, reason: str, rule: Rule) -> None:
        self.changes.append(Change(subject, "dropped", reason, rule))

    def change(self, subject: str, reason: str, rule: Rule) -> None:
        self.changes.append(Change(subject, "changed", reason, rule))

    def drop_from_error(self, content: list, kept: tuple[str, ...], rule: Rule) -> None:
        """An error result's blocks that its message is not built from: said once, never silent."""
        lost = [block.get("type", "?") for block in content if isinstance(block, dict) and not _kept(block, kept)]
        if lost:
            self.drop(
                "non-text blocks of the error",
                f"the error message is built from text only: {', '.join(lost)} lost",
                rule,
            )

    def fail(self, message: str) -> HostView:
        self.outcome, self.error = FAILED, message
        return self


def _kept(block: dict, kept: tuple[str, ...]) -> bool:
    if block.get("type") != "resource":
        return block.get("type") in kept
    return "resource" in kept and isinstance((block.get("resource") or {}).get("text"), str)


BASE64_CHARS = re.compile(r"\s+")


def base64_size(data: str) -> int:
    """Decoded byte count of base64 text, without decoding it (large images stay cheap)."""
    # Base64 from servers rarely carries line breaks; skip the copy when it has none.
    has_space = any(char in data for char in " \n\r\t")
    compact = BASE64_CHARS.sub("", data) if has_space else data
    padding = len(compact) - len(compact.rstrip("="))
    return max(len(compact) * 3 // 4 - padding, 0)


def describe_block(index: int, block: Any) -> str:
    kind = block.get("type") if isinstance(block, dict) else type(block).__name__
    return f"content[{index}] ({kind})"


def js_string(value: Any) -> str:
    """What JavaScript's String(value) (and Array.join) makes of a JSON value."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e21 else repr(value)
    if isinstance(value, list):
        return ",".join(js_string(item) for item in value)
    return "[object Object]"
