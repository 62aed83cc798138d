"""mcpx's per-revision `downgrade()` (the model in mcpx.py) against the two rows about it. Pure.

- CT-06 says the `resource_link` rewrite for clients before 2025-06-18 is partial: the embedded
  resource keeps the link's mime type over a text label.
- CT-12 says only the link and `resultType` branches can fire: mcpx itself emits one text block
  (`mcpx_call`) or text plus an artifact link (`mcpx_exec`), always with `resultType`, and serves no
  revision before 2025-03-26.
"""

from __future__ import annotations

from dataclasses import dataclass

from comparison.hosts.mcpx import downgrade
from language.vocabulary import REVISIONS
from language.vocabulary import Revision as R

LINK = {"type": "resource_link", "uri": "mcpx://artifacts/abc123", "name": "chart.png", "mimeType": "image/png"}
TEXT = {"type": "text", "text": "done"}
#: What mcpx itself sends: `mcpx_call`'s one text block and `mcpx_exec`'s text plus artifact link.
EMITTED = (
    {"content": [TEXT], "resultType": "complete"},
    {"content": [TEXT, LINK], "resultType": "complete"},
)
#: The revisions mcpx agrees to below 2026-07-28 (its floor is 2025-03-26, CT-03).
SERVED = REVISIONS[1:-1]


@dataclass(frozen=True)
class DowngradeCheck:
    agrees: bool
    detail: str


def _branch(change: str) -> str:
    return change.split(" ", 1)[0]


def check(row_id: str) -> DowngradeCheck | None:
    if row_id == "CT-06":
        out, _ = downgrade({"content": [LINK]}, R.V2025_03_26)
        block = out["content"][0]
        rewritten = block.get("type") == "resource" and "text" in block.get("resource", {})
        mime = block.get("resource", {}).get("mimeType")
        broken = rewritten and mime == LINK["mimeType"]
        detail = (
            f"at {R.V2025_03_26} a resource_link becomes {block.get('type')} with mimeType {mime} over the text "
            f"{block.get('resource', {}).get('text', '')!r}"
        )
        return DowngradeCheck(
            broken, detail + (" (partial: the mime type no longer says what it holds)" if broken else "")
        )
    if row_id == "CT-12":
        fired = sorted(
            {_branch(change) for result in EMITTED for revision in SERVED for change in downgrade(result, revision)[1]}
        )
        agrees = set(fired) == {"resultType", "resource_link"}
        return DowngradeCheck(
            agrees,
            f"on what mcpx itself sends, at {', '.join(SERVED)}, the branches that fire: {', '.join(fired) or 'none'}",
        )
    return None
