"""The unified diff a person reviews and `patch -p1` applies. Pure, no Django."""

from __future__ import annotations

import difflib


def unified_patch(before: str, after: str, path: str) -> str:
    """The diff from `before` to `after`, as a patch of `path` (relative, `a/` and `b/` prefixed)."""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{path}", f"b/{path}", n=2
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
