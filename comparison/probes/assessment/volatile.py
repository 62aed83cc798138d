"""What is the same between two runs of an unchanged target, with what differs by nature set
aside: the per-run key in every probe's name, process ids, session names and timestamps the
fixture reports. Text that holds JSON (the fixture's reports) is compared as JSON, so a
difference is named by its field, not by the first 80 characters of the text. Pure, no Django.

A re-run of the built-in target reported 31 of 258 cells "changed" though every verdict and
every answer a host acts on were the same.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: `<run key>-<revision>-<scenario>`: the run key is 12 hex digits, new for every run.
RUN_KEY = re.compile(r"\b[0-9a-f]{12}(?=-\d{4}-\d{2}-\d{2}-)")
PROCESS = re.compile(r"\bprocess-\d+\b")
#: Fields whose numbers differ by nature between runs: when and in which process something happened.
VOLATILE_FIELDS = frozenset({"at", "pid"})
#: Fields whose text differs by nature between runs: the session a server handed out (a header, and
#: the fixture journal's own name for it).
VOLATILE_TEXT_FIELDS = frozenset({"mcp-session-id", "session"})
#: Longest text parsed as JSON; longer stays text.
MAX_JSON_TEXT = 64 * 1024
RUN, PID, VARIES = "<run>", "process-<pid>", "<varies>"


def steady(value: Any) -> Any:
    """A copy of JSON-like data with every volatile value replaced by a placeholder."""
    if isinstance(value, dict):
        return {key: VARIES if _volatile(key, item) else steady(item) for key, item in value.items()}
    if isinstance(value, list):
        return [steady(item) for item in value]
    if isinstance(value, str):
        return _steady_text(value)
    return value


def _volatile(key: Any, item: Any) -> bool:
    if key in VOLATILE_FIELDS and _number(item):
        return True
    return isinstance(key, str) and key.lower() in VOLATILE_TEXT_FIELDS and isinstance(item, str)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _steady_text(text: str) -> Any:
    stripped = text.strip()
    if stripped[:1] in ("{", "[") and len(stripped) <= MAX_JSON_TEXT:
        try:
            return steady(json.loads(stripped))
        except ValueError:
            pass
    return PROCESS.sub(PID, RUN_KEY.sub(RUN, text))
