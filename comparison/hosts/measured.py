"""What the hosts the lab runs would see of a tool result, predicted from their measured chips
(comparison/hostlab): each part of the result (a block by its type, its annotations,
structuredContent, the failure flag, a JSON-RPC error) reaches the host as the lab saw that
feature reach it, kept or changed (it arrives, so what the proxy did to it arrives too) or dropped
(nothing of it arrives, so nothing a proxy did to it matters). A feature the lab has no reading of
for the host is "not measured": a difference there is unknown, never a verdict. Pure, no Django.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from language.vocabulary import HOST_NAMES, REVISIONS, Host

#: The lab's host key of each host it measures (the lab runs the released opencode, v1's line,
#: and Cloudflare's codemode package).
LAB_KEY = {
    Host.CODEX: "codex",
    Host.CLAUDE_CODE: "claude-code",
    Host.GEMINI_CLI: "gemini-cli",
    Host.QWEN_CODE: "qwen-code",
    Host.COPILOT: "copilot",
    Host.CLINE: "cline",
    Host.KILO: "kilo",
    Host.CONTINUE: "continue",
    Host.OPENCODE_V1: "opencode",
    Host.CLOUDFLARE: "codemode",
}
KEPT, CHANGED, DROPPED, NOT_SUPPORTED, NOT_MEASURED = "kept", "changed", "dropped", "not supported", "not measured"
#: Chips of a part that reaches the model in some form.
ARRIVES = (KEPT, CHANGED)


@dataclass(frozen=True)
class Measured:
    """One host as the lab measured it: a chip (and its detail) per feature, at one version."""

    host: str
    label: str
    version: str
    chips: Mapping[str, str] = field(default_factory=dict)
    details: Mapping[str, str] = field(default_factory=dict)
    #: The protocol version the host asked for in its `initialize` ("" when not read).
    asks: str = ""

    @property
    def source(self) -> str:
        return f"from the lab, {self.label} {self.version}"

    def negotiates(self, revision: str) -> bool:
        """A host never asks for a revision newer than its own, so it never meets one."""
        if self.asks not in REVISIONS or revision not in REVISIONS:
            return True
        return REVISIONS.index(revision) <= REVISIONS.index(self.asks)


def measured_hosts(rows: Iterable[Mapping[str, Any]]) -> dict[str, Measured]:
    """{host: Measured} from the lab's matrix rows ({"key", "label", "version", "cells": [{"feature",
    "chip", "detail"}], "asks"}): only features with a measured chip count."""
    by_lab_key = {lab: host for host, lab in LAB_KEY.items()}
    found: dict[str, Measured] = {}
    for row in rows:
        host = by_lab_key.get(str(row.get("key", "")))
        if host is None:
            continue
        cells = [c for c in row.get("cells") or [] if isinstance(c, Mapping) and c.get("chip") != NOT_MEASURED]
        found[host] = Measured(
            host,
            str(row.get("label", host)),
            str(row.get("version", "")),
            {str(c.get("feature")): str(c.get("chip")) for c in cells},
            {str(c.get("feature")): str(c.get("detail", "")) for c in cells},
            str(row.get("asks", "")),
        )
    return found


def parts(payload: Any) -> list[tuple[str, Any]]:
    """(feature, what was sent) for each part of a tools/call answer ({"result": …} or {"error": …})."""
    if not isinstance(payload, dict):
        return []
    if isinstance(payload.get("error"), dict):
        error = payload["error"]
        return [("rpc-error", {"code": error.get("code"), "message": error.get("message")})]
    result = payload.get("result")
    if not isinstance(result, dict):
        return []
    found: list[tuple[str, Any]] = []
    content = result.get("content")
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            continue
        found.append((_block_feature(block), {k: v for k, v in block.items() if k not in ("annotations", "_meta")}))
        if block.get("annotations"):
            found.append(("annotations", block["annotations"]))
    if "structuredContent" in result:
        # The lab measures the value beside text apart from the value alone (hosts differ there).
        beside = any(feature == "text" for feature, _ in found)
        found.append(("structured-beside" if beside else "structured", result["structuredContent"]))
    if result.get("isError") is True:
        found.append(("error-flag", True))
    return found


def _block_feature(block: dict[str, Any]) -> str:
    kind = block.get("type")
    if kind in ("text", "image", "audio"):
        return str(kind)
    if kind == "resource":
        resource = block.get("resource")
        return "resource-text" if isinstance(resource, dict) and "text" in resource else "resource-blob"
    if kind == "resource_link":
        return "resource-link"
    return "unknown-type"


def prediction(payload: Any, measured: Measured) -> dict[str, Any]:
    """What the host would see of the answer: one chip per part, from the lab."""
    cells = []
    for feature, _ in parts(payload):
        chip = measured.chips.get(feature, NOT_MEASURED)
        detail = measured.details.get(feature, "") if chip != NOT_MEASURED else "the lab has no reading of it"
        cells.append({"feature": feature, "chip": chip, "detail": detail})
    name = HOST_NAMES.get(measured.host, measured.label)
    return {"host": measured.host, "label": name, "source": measured.source, "cells": cells}


def _seen(payload: Any, measured: Measured) -> list[tuple[str, str]]:
    """What of each part reaches the host: its JSON where it arrives, a mark where it does not,
    the part itself marked unknown where the lab has no reading."""
    seen = []
    for feature, sent in parts(payload):
        chip = measured.chips.get(feature)
        value = json.dumps(sent, sort_keys=True, ensure_ascii=False, default=str)
        if chip is None:
            seen.append(("?" + feature, value))
        elif chip in ARRIVES:
            seen.append((feature, value))
        elif chip == NOT_SUPPORTED:
            seen.append((feature, chip))  # the host refuses a result holding it: that it is there counts
        # Dropped: nothing of it reaches the host, whatever the proxy did to it.
    return seen


def same_for(direct: Any, through: Any, measured: Measured) -> bool | None:
    """True when the host gets the same through the proxy as directly, False when not, None when
    the difference lies in a part the lab has no reading of (unknown, never scored)."""
    want, got = _seen(direct, measured), _seen(through, measured)
    if want == got:
        return True
    differing = {part for part in want if part not in got} | {part for part in got if part not in want}
    if any(feature.startswith("?") for feature, _ in differing):
        return None
    return False


def interop(direct: Any, through: Any, hosts: Mapping[str, Measured], revision: str) -> dict[str, bool]:
    """{host: same} for every measured host that meets the revision and whose answer is known."""
    found = {}
    for host, measured in hosts.items():
        same = same_for(direct, through, measured) if measured.negotiates(revision) else True
        if same is not None:
            found[host] = same
    return found
