"""JSON from a target, made safe to keep, show and store: pure, no Django.

A target may send JSON that Python parses but nothing after it can take: NaN and Infinity (not
JSON; PostgreSQL's jsonb refuses them), numbers that overflow to infinity, lone UTF-16 surrogates
(not Unicode: encoding a page or a row fails), NUL characters (jsonb refuses `\\u0000`), and
nesting deep enough to exhaust recursion in every later step. `loads` refuses the first three
kinds and too-deep nesting with `UnsafeJSON`, and repairs the character problems, saying what it
repaired so the probe can report it as a finding.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

#: Deeper than any real MCP result; deep enough that every recursive step after it is safe.
MAX_DEPTH = 64
SURROGATE = re.compile("[\ud800-\udfff]")
NUL = "\x00"
NUL_SHOWN = "\u2400"  # ␀
REPLACEMENT = "\ufffd"


class UnsafeJSON(ValueError):
    """JSON that cannot be kept: the message says why."""


@dataclass
class Repairs:
    surrogates: int = 0
    nuls: int = 0
    notes: list[str] = field(default_factory=list)

    def describe(self) -> list[str]:
        found = []
        if self.surrogates:
            found.append(
                f"{self.surrogates} string(s) held lone UTF-16 surrogates (not valid Unicode); shown as U+FFFD"
            )
        if self.nuls:
            found.append(f"{self.nuls} string(s) held NUL characters; shown as U+2400")
        return found


def _constant(name: str) -> Any:
    raise UnsafeJSON(f"{name} is not a JSON value")


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise UnsafeJSON(f"the number {text[:40]} overflows a double")
    return value


def loads(data: bytes | str) -> tuple[Any, Repairs]:
    """Parse, bound the depth and repair the strings; raises UnsafeJSON or ValueError (invalid JSON)."""
    try:
        value = json.loads(data, parse_constant=_constant, parse_float=_finite)
    except RecursionError:
        raise UnsafeJSON(f"nested deeper than {MAX_DEPTH} levels") from None
    if _plain(data):
        return value, Repairs()
    return clean(value)


def _plain(data: bytes | str) -> bool:
    """Text that cannot need cleaning: no \\u escape (lone surrogates and NUL can only come as
    escapes) and too few brackets to nest past the bound. Most answers; they skip the walk."""
    if isinstance(data, str):
        if SURROGATE.search(data):
            return False
        data = data.encode("utf-8", "surrogatepass")
    return b"\\u" not in data and data.count(b"[") + data.count(b"{") <= MAX_DEPTH


def clean(value: Any) -> tuple[Any, Repairs]:
    """Check the depth and repair strings (keys too) without recursion."""
    repairs = Repairs()

    def fix(text: str) -> str:
        if SURROGATE.search(text):
            repairs.surrogates += 1
            text = SURROGATE.sub(REPLACEMENT, text)
        if NUL in text:
            repairs.nuls += 1
            text = text.replace(NUL, NUL_SHOWN)
        return text

    if isinstance(value, str):
        return fix(value), repairs
    if not isinstance(value, dict | list):
        return value, repairs
    root: list[Any] = [None]
    # (source container, destination parent, key in parent, depth)
    stack: list[tuple[Any, Any, Any, int]] = [(value, root, 0, 1)]
    while stack:
        source, parent, key, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise UnsafeJSON(f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(source, dict):
            copy: Any = {}
            parent[key] = copy
            for name, item in source.items():
                name = fix(name)
                if isinstance(item, dict | list):
                    copy[name] = None
                    stack.append((item, copy, name, depth + 1))
                else:
                    copy[name] = fix(item) if isinstance(item, str) else item
        else:
            copy = [None] * len(source)
            parent[key] = copy
            for index, item in enumerate(source):
                if isinstance(item, dict | list):
                    stack.append((item, copy, index, depth + 1))
                else:
                    copy[index] = fix(item) if isinstance(item, str) else item
    return root[0], repairs
