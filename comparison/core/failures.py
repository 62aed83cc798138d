"""DPCTER: how actionable a failure is, as a result-only observer sees it. Pure, no Django.

Six independent coordinates (Mehan, arXiv:2609.00072; failure-gap register FG-01…FG-06):
Detection, Policy, Cause, Target, Executable repair, Replay constraints. Each is decided twice:
from typed fields only (JSON-RPC error code and data, `isError`, an `mcp-error/1` envelope, `_meta`
hints), and from typed fields plus text, with a documented, deterministic text classifier. Every
decision carries the field or phrase that decided it. No coordinate implies another.

An observation is what one consumer receives: the proxy's raw output, or what a host path passes on
(a thrown message, a tool result, a script value). `observations()` builds them from a JSON-RPC
response with the host models.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from comparison.core.envelope import ENVELOPE_SCHEMA, find_envelope
from comparison.hosts.present import PresentedView
from comparison.hosts.view import FAILED
from language.vocabulary import HOST_PATH_LABELS

COORDINATES = ("D", "P", "C", "T", "E", "R")
NAMES = {
    "D": "Detection",
    "P": "Policy",
    "C": "Cause",
    "T": "Target",
    "E": "Executable repair",
    "R": "Replay constraints",
}
#: The article's audit of 21 induced failures (typed only, typed + text), the reference column.
PUBLISHED = {"D": (18, 21), "P": (8, 19), "C": (0, 19), "T": (0, 18), "E": (0, 0), "R": (0, 0)}
PUBLISHED_TOTAL = 21

#: JSON-RPC codes whose meaning selects a next action.
CODE_POLICY = {
    -32602: "fix-argument",
    -32601: "alternate-tool",
    -32600: "fix-argument",
    -32002: "fix-argument",
    -32042: "authenticate",
}
POLICIES = ("fix-argument", "authenticate", "retry", "wait-retry", "alternate-tool", "escalate")

# The text classifier: ordered (cause, policy, pattern). First match wins.
TEXT_CAUSES = (
    (
        "auth.required",
        "authenticate",
        re.compile(
            r"unauthori[sz]ed|forbidden|\b40[13]\b|bearer|expired token|"
            r"not authenticated|authentication",
            re.I,
        ),
    ),
    ("rate.limit", "wait-retry", re.compile(r"rate.?limit|too many requests|\b429\b", re.I)),
    ("execution.timeout", "retry", re.compile(r"timed? ?out|timeout", re.I)),
    ("tool.not_found", "alternate-tool", re.compile(r"unknown tool|tool .{0,40}not found|no such tool", re.I)),
    (
        "resource.not_found",
        "fix-argument",
        re.compile(r"not found|no such|does not exist|unknown (?:prompt|resource)", re.I),
    ),
    (
        "argument.type",
        "fix-argument",
        re.compile(
            r"expected \w+.{0,40}(?:got|received)|must be an? \w+|invalid type|"
            r"type error|invalid_type",
            re.I,
        ),
    ),
    (
        "argument.value",
        "fix-argument",
        re.compile(
            r"invalid (?:argument|param|value|input)|out of range|"
            r"must be (?:between|at least|at most|one of)|validation error",
            re.I,
        ),
    ),
)
FAILURE_WORDS = re.compile(
    r"\berror\b|\bfail|\binvalid\b|not found|no such|unauthori|forbidden|denied|timed? ?out|"
    r"exception|cannot|can't|unable",
    re.I,
)
TARGET_TEXT = re.compile(
    r"(?:parameter|argument|field|property|param)s?\s+['\"`]?(?P<name>[\w./-]+)|"
    r"(?P<pointer>(?<![\w:])/[A-Za-z_][\w/-]*)|['\"`](?P<quoted>[A-Za-z_][\w.-]*)['\"`]\s+must|"
    r"(?:tool|prompt)\s+['\"`]?(?P<tool>[\w.-]+)['\"`]?\s+(?:not found|does not exist)",
    re.I,
)
RETRY_TEXT = re.compile(
    r"retry after|try again in|wait \d+|after \d+\s*(?:ms|s|seconds)|idempotent|no side effects|"
    r"side effects",
    re.I,
)


@dataclass
class Decision:
    yes: bool
    evidence: str = ""


@dataclass
class Observation:
    """What one consumer receives of a failure: typed fields and the text it can read."""

    consumer: str  # "proxy output" or a host path key
    label: str
    is_failure: bool  # the scenario induced a failure (the audit counts these)
    code: int | None = None
    data: Any = None
    is_error: bool | None = None
    thrown: bool = False
    envelope: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    text: str = ""


@dataclass
class Profile:
    consumer: str
    label: str
    typed: dict[str, Decision]
    with_text: dict[str, Decision]
    policy: str = ""  # the fail-closed next action from the envelope, or ""
    suggestion: dict[str, Any] | None = None  # what an enrichment hook could inject (a guess)

    def as_dict(self) -> dict[str, Any]:
        return {
            "consumer": self.consumer,
            "label": self.label,
            "typed": {k: {"yes": d.yes, "evidence": d.evidence} for k, d in self.typed.items()},
            "with_text": {k: {"yes": d.yes, "evidence": d.evidence} for k, d in self.with_text.items()},
            "policy": self.policy,
            "suggestion": self.suggestion,
        }


#: Failure prose is scored on its first 64 KiB: a multi-megabyte answer costs the same as a short
#: one (the scan was measured at 3 s per consumer for 6 MB), and no failure message a host acts on
#: is longer.
MAX_SCORED_TEXT = 64 * 1024


def fail_closed_policy(envelope: dict[str, Any] | None) -> str:
    """The deterministic next action an envelope selects; "escalate" when it names none."""
    if not envelope:
        return ""
    policy = envelope.get("policy")
    return policy if policy in POLICIES else "escalate"


def _typed(o: Observation) -> dict[str, Decision]:
    env = o.envelope or {}
    data = o.data if isinstance(o.data, dict) else {}
    decided: dict[str, Decision] = {}
    if env:
        decided["D"] = Decision(True, "mcp-error/1 envelope")
    elif o.code is not None:
        decided["D"] = Decision(True, f"JSON-RPC error {o.code}")
    elif o.is_error:
        decided["D"] = Decision(True, "isError: true")
    elif o.thrown:
        decided["D"] = Decision(True, "the call throws")
    else:
        decided["D"] = Decision(False, "nothing typed marks a failure")
    if env.get("policy"):
        decided["P"] = Decision(True, f"envelope policy {env['policy']!r}")
    elif isinstance(o.code, int) and o.code in CODE_POLICY:
        decided["P"] = Decision(True, f"JSON-RPC {o.code} selects {CODE_POLICY[o.code]}")
    else:
        decided["P"] = Decision(False, "no typed policy")
    decided["C"] = (
        Decision(True, f"envelope code {env['code']!r}")
        if env.get("code")
        else Decision(False, "no typed cause (a JSON-RPC code names a class, not a cause)")
    )
    target = env.get("target") or data.get("target") or data.get("pointer")
    decided["T"] = (
        Decision(True, f"typed target {json.dumps(target)[:80]}") if target else Decision(False, "no typed target")
    )
    repair = env.get("repair") or data.get("repair")
    decided["E"] = (
        Decision(True, f"typed repair {json.dumps(repair)[:80]}") if repair else Decision(False, "no executable repair")
    )
    replay = {k: env[k] for k in ("retry", "sideEffects") if k in env} or {
        k: data[k] for k in ("retryAfterMs", "retryAfter", "sideEffects") if k in data
    }
    decided["R"] = (
        Decision(True, f"typed replay constraints {json.dumps(replay)[:80]}")
        if replay
        else Decision(False, "no typed replay constraints")
    )
    return decided


def classify_text(text: str) -> tuple[str, str, str]:
    """(cause, policy, matched phrase) from failure prose, or ("", "", "")."""
    for cause, policy, pattern in TEXT_CAUSES:
        match = pattern.search(text)
        if match:
            return cause, policy, match.group(0)
    return "", "", ""


def text_target(text: str) -> str:
    match = TARGET_TEXT.search(text)
    if not match:
        return ""
    return next(value for value in match.groupdict().values() if value)


def _with_text(o: Observation, typed: dict[str, Decision]) -> dict[str, Decision]:
    decided = dict(typed)
    text = o.text or ""
    cause, policy, phrase = classify_text(text)
    if not decided["D"].yes and (failure := FAILURE_WORDS.search(text)):
        decided["D"] = Decision(True, f"text {failure.group(0)!r}")
    if not decided["P"].yes and policy:
        decided["P"] = Decision(True, f"text {phrase!r} suggests {policy}")
    if not decided["C"].yes and cause:
        decided["C"] = Decision(True, f"text {phrase!r} reads as {cause}")
    if not decided["T"].yes:
        target = text_target(text)
        if target:
            decided["T"] = Decision(True, f"text names {target!r}")
    if not decided["R"].yes and (retry := RETRY_TEXT.search(text)):
        decided["R"] = Decision(True, f"text {retry.group(0)!r}")
    return decided


def enrichment(o: Observation) -> dict[str, Any] | None:
    """What a host-side result hook could inject when the failure is prose only: an envelope built
    by pattern matching (FG-14). A guess, never data."""
    if o.envelope or not o.text:
        return None
    cause, policy, _ = classify_text(o.text)
    suggestion: dict[str, Any] = {
        "schema": ENVELOPE_SCHEMA,
        "code": cause or "unknown",
        "policy": policy or "escalate",
        "text": o.text[:500],
    }
    target = text_target(o.text)
    if target:
        suggestion["target"] = {"kind": "parameter" if target.startswith("/") else "name", "name": target}
    return {"suggested_envelope": suggestion, "note": "built from prose by pattern matching: a suggestion"}


def score(o: Observation) -> Profile:
    o.text = o.text[:MAX_SCORED_TEXT] if isinstance(o.text, str) else ""
    typed = _typed(o)
    return Profile(o.consumer, o.label, typed, _with_text(o, typed), fail_closed_policy(o.envelope), enrichment(o))


def _block_text(content: Any) -> str:
    if not isinstance(content, list):
        return ""
    return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and isinstance(b.get("text"), str))


def raw_observation(response: dict[str, Any] | None, *, is_failure: bool) -> Observation:
    """The proxy's own output: a JSON-RPC error, or a result."""
    o = Observation("proxy output", "raw proxy output", is_failure)
    if not isinstance(response, dict):
        return o
    if isinstance(response.get("error"), dict):
        error = response["error"]
        o.code, o.data = error.get("code"), error.get("data")
        o.text = str(error.get("message", ""))
        o.envelope = find_envelope(error.get("data"), o.text)
        return o
    result = response.get("result") if isinstance(response.get("result"), dict) else {}
    o.is_error = bool(result.get("isError"))
    o.meta = result.get("_meta") or {}
    o.text = _block_text(result.get("content"))
    o.envelope = find_envelope(result.get("structuredContent"), o.text, o.meta)
    return o


def host_observations(
    response: dict[str, Any] | None, host_views: Sequence[PresentedView], *, is_failure: bool
) -> list[Observation]:
    """What each host path passes on. A JSON-RPC error reaches every SDK-based host as a thrown
    error whose message carries the code as text (`MCP error <code>: <message>`)."""
    found: list[Observation] = []
    if isinstance(response, dict) and isinstance(response.get("error"), dict):
        error = response["error"]
        message = f"MCP error {error.get('code')}: {error.get('message', '')}"
        for key, label in HOST_PATH_LABELS.items():
            if key == "mcpx":
                continue
            o = Observation(key, label, is_failure, thrown=True, text=message)
            o.envelope = find_envelope(message)
            found.append(o)
        return found
    for view in host_views:
        if view.key not in HOST_PATH_LABELS:
            continue
        o = Observation(view.key, view.label or view.key, is_failure)
        if view.outcome == FAILED:
            o.thrown = True
            o.text = view.error or ""
        else:
            value = view.script_value if view.has_script_value else None
            if isinstance(value, dict) and "isError" in value:
                o.is_error = bool(value.get("isError"))
                o.text = _block_text(value.get("content"))
            else:
                parts = [p.text for p in view.parts if p.text]
                o.text = "\n".join(parts) if parts else (value if isinstance(value, str) else json.dumps(value))
        o.envelope = find_envelope(o.text)
        found.append(o)
    return found


CONSUMERS = ("proxy output", *HOST_PATH_LABELS)


def profiles(
    response: dict[str, Any] | None, host_views: Sequence[PresentedView], *, is_failure: bool
) -> list[Profile]:
    observations = [
        raw_observation(response, is_failure=is_failure),
        *host_observations(response, host_views, is_failure=is_failure),
    ]
    return [score(o) for o in observations]


@dataclass
class AuditCell:
    typed: int = 0
    with_text: int = 0
    total: int = 0


def audit(results: list[dict[str, Any]]) -> dict[str, dict[str, AuditCell]]:
    """Counts per consumer and coordinate over failure results: [{profiles: [...]}] as stored."""
    table: dict[str, dict[str, AuditCell]] = {c: {k: AuditCell() for k in COORDINATES} for c in CONSUMERS}
    for result in results:
        for profile in result.get("profiles", []):
            consumer = profile["consumer"]
            if consumer not in table:
                continue
            for key in COORDINATES:
                cell = table[consumer][key]
                cell.total += 1
                cell.typed += profile["typed"][key]["yes"]
                cell.with_text += profile["with_text"][key]["yes"]
    return table


def audit_text(table: dict[str, dict[str, AuditCell]]) -> str:
    """The audit as a plain-text table (typed/with text per coordinate), with the published figures."""
    head = f"{'consumer':26}" + "".join(f"{k:>10}" for k in COORDINATES)
    lines = [head, "-" * len(head)]
    lines.append(
        f"{'published (of 21)':26}" + "".join(f"{t:>4}/{x:<5}" for t, x in (PUBLISHED[k] for k in COORDINATES))
    )
    for consumer, cells in table.items():
        total = cells["D"].total
        if not total:
            continue
        label = HOST_PATH_LABELS.get(consumer, consumer)
        lines.append(
            f"{label + f' (of {total})':26}"
            + "".join(f"{cells[k].typed:>4}/{cells[k].with_text:<5}" for k in COORDINATES)
        )
    lines.append("cells: typed fields only / typed fields + text")
    return "\n".join(lines)
