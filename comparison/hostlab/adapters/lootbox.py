"""lootbox (`jx-codes/lootbox`): a Deno program, not on npm. As published it imports from `jsr:`,
`deno.land` and `esm.sh`, which this lab cannot fetch (only npm is reachable), and it binds
0.0.0.0; it ran only with a replacement import map and local stand-ins. So the lab does not run
it, and its page says so; what it does stays the hand model (comparison/hosts/lootbox.py)."""

from __future__ import annotations

from comparison.hostlab.adapters.base import Adapter

ADAPTER = Adapter(
    key="lootbox",
    label="lootbox",
    package="",
    version="0.0.54",
    dialect="none: no model; an outer agent calls `lootbox exec '<script>'`",
    tool_visibility="behind code: a script gets the raw CallToolResult",
    unavailable=(
        "not run: lootbox is a Deno program whose jsr:, deno.land and esm.sh imports cannot be fetched here "
        "(only npm is reachable), and it binds 0.0.0.0 unless patched; its row stays the hand model"
    ),
)
