"""Where a real host run disagreed with the behaviour notes (comparison/data/real_host_findings.json)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

FINDINGS = Path(__file__).resolve().parent.parent / "data" / "real_host_findings.json"


@lru_cache(maxsize=1)
def findings() -> list[dict[str, Any]]:
    return json.loads(FINDINGS.read_text(encoding="utf-8"))


def findings_for(row_id: str) -> list[dict[str, Any]]:
    return [finding for finding in findings() if row_id in finding["rows"]]
