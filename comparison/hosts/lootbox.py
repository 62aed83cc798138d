"""lootbox (upstream 587a5a1): a script gets the SDK-1.22.0-parsed envelope (HOSTS.md §4)."""

from __future__ import annotations

from typing import Any

from comparison.hosts import sdk
from comparison.hosts.view import HostView, Rule, describe_block

PASS_RULE = Rule(".lootbox/src/lib/rpc/execute_mcp.ts:60-72", ("CT-15", "CT-19"))


def script(result: Any) -> HostView:
    view = HostView("lootbox", "script", "lootbox · script")
    parsed = sdk.parse(result, sdk.SDK_1_22)
    if not parsed.ok:
        return view.fail(parsed.error)
    view.script_value = parsed.result
    for index, block in enumerate(result.get("content", []) if isinstance(result, dict) else []):
        if isinstance(block, dict) and "annotations" in block:
            view.drop(
                f"{describe_block(index, block)} annotations",
                "SDK 1.22.0 has no annotations field",
                sdk.ANNOTATIONS_STRIPPED,
            )
    if parsed.result.get("isError"):
        view.notes.append("isError does not throw: the script must check `.isError` itself")
        view.change("isError", "kept as a field; the await resolves as if the call succeeded", PASS_RULE)
    view.notes.append("the model sees only what the script prints")
    return view
