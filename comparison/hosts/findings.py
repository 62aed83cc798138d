"""Where a real host run disagreed with the behaviour notes (comparison/data/real_host_findings.json),
each with the spec anchors it is about: a finding is about a row that names one of them, or whose
title names what one falls under."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from language.anchors import kinds

FINDINGS = Path(__file__).resolve().parent.parent / "data" / "real_host_findings.json"


@lru_cache(maxsize=1)
def findings() -> list[dict[str, Any]]:
    return json.loads(FINDINGS.read_text(encoding="utf-8"))


def findings_for(anchors: Iterable[str], subject: Iterable[str] = ()) -> list[dict[str, Any]]:
    """The findings about a row: one that names one of its anchors, or meets what its title names."""
    wanted, about = set(anchors), set(subject)
    return [
        finding
        for finding in findings()
        if wanted & set(finding.get("anchors", ())) or kinds.meet(set(finding.get("anchors", ())), about)
    ]
