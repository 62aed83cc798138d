"""How a register row's title reads: what it names before it says anything (its head), and
whether it only names things. Pure."""

from __future__ import annotations

import re
from functools import lru_cache

#: Words a title may hold beside the identifiers it names and still only name them.
NAMING_WORDS = frozenset(
    "a an and as any are becomes block blocks content field fields gone in is json key method new notification "
    "notifications object of on optional param params parameter per-request property request requests result "
    "results removed added the type types union value values deprecated embedded allowed only".split()
)
_CODE = re.compile(r"`[^`]*`")
_WORD = re.compile(r"[A-Za-z][\w-]*")


def head(title: str) -> str:
    """The title before any `:`/`;`, without parentheses: what it names, before what it says."""
    return re.split(r"[:;]", re.sub(r"\([^)]*\)", "", title), maxsplit=1)[0]


@lru_cache(maxsize=8192)
def naming_title(title: str) -> bool:
    """Does the title only name things (its words outside code spans, before any `:`/`;` and
    outside parentheses, are all naming words)?"""
    words = _WORD.findall(_CODE.sub(" ", head(title)))
    return all(word.lower() in NAMING_WORDS for word in words)
