"""The failure-gap rows against the DPCTER audit of the failures the built-in fixture induces.
Pure, no Django.

The fixture induces four failure kinds (not found, argument type, argument value, auth), each as a
JSON-RPC error and as `isError` with prose (the spec's own forms) and as an `mcp-error/1` envelope.
Scored as the upstream sends them (comparison.core.failures), with the JSON-RPC `data` left out of the
spec forms: its content is the fixture's choice, not the spec's, and the published audit counted
what the spec gives.

- FG-01…FG-06 (one coordinate each): the article's published profile says whether typed fields,
  and typed fields plus text, ever decide the coordinate (e.g. Target: typed 0/21, text 18/21);
  the fixture's spec forms must show the same presence or absence.
- FG-07…FG-12: what the row's own text says of that failure kind or form (quoted in CLAIMS).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from comparison.core import failures
from comparison.probes.fixture.fixture_content import FAILURE_KINDS, TOOLS, ToolError

SPEC_FORMS = ("rpc", "prose")
COORDINATE_ROWS = {"FG-01": "D", "FG-02": "P", "FG-03": "C", "FG-04": "T", "FG-05": "E", "FG-06": "R"}


@dataclass(frozen=True)
class Expect:
    tool: str  # the fixture's failure tool
    mode: str  # "typed" or "with_text"
    coordinate: str
    present: bool


#: Row -> (what the row says, what the audit must then show).
CLAIMS: dict[str, tuple[str, tuple[Expect, ...]]] = {
    "FG-07": (
        "the protocol error gives Detection and a typed hint of Policy, but which names are valid is "
        "left to another tools/list",
        (
            Expect("fail-not-found-rpc", "typed", "D", True),
            Expect("fail-not-found-rpc", "typed", "P", True),
            Expect("fail-not-found-rpc", "with_text", "E", False),
        ),
    ),
    "FG-08": (
        "the typed signal moves from an error code to a flag: both detect, only the code selects a policy",
        (
            Expect("fail-argument-type-rpc", "typed", "D", True),
            Expect("fail-argument-type-prose", "typed", "D", True),
            Expect("fail-argument-type-rpc", "typed", "P", True),
            Expect("fail-argument-type-prose", "typed", "P", False),
        ),
    ),
    "FG-09": (
        "the target (which argument) is the coordinate most often missing from such prose",
        (
            Expect("fail-argument-value-prose", "with_text", "C", True),
            Expect("fail-argument-value-prose", "with_text", "T", False),
        ),
    ),
    "FG-10": (
        "tool results have no typed auth signal",
        (
            Expect("fail-auth-prose", "typed", "C", False),
            Expect("fail-auth-prose", "typed", "P", False),
            Expect("fail-auth-prose", "with_text", "P", True),
        ),
    ),
    "FG-11": (
        "the envelope carries code, target, policy, retry and side effects",
        tuple(
            Expect(f"fail-{kind}-envelope", "typed", coordinate, True)
            for kind in FAILURE_KINDS
            for coordinate in ("C", "T", "P", "R")
        ),
    ),
    "FG-12": (
        "the spec's vocabulary is isError plus prose: it detects, and decides nothing else by itself",
        tuple(
            Expect(f"fail-{kind}-prose", "typed", coordinate, coordinate == "D")
            for kind in FAILURE_KINDS
            for coordinate in failures.COORDINATES
        ),
    ),
}


def _response(tool: str) -> dict:
    value = TOOLS[tool][1]
    if isinstance(value, ToolError):
        # The spec form: code and message; `data` is the fixture's own content.
        return {"error": {"code": value.code, "message": value.message}}
    return {"result": value}


@lru_cache(maxsize=64)
def profile(tool: str) -> failures.Profile:
    return failures.score(failures.raw_observation(_response(tool), is_failure=True))


def _decided(tool: str, mode: str, coordinate: str) -> bool:
    return getattr(profile(tool), mode)[coordinate].yes


@dataclass(frozen=True)
class AuditCheck:
    says: str
    agrees: bool
    detail: str


def check(row_id: str) -> AuditCheck | None:
    if row_id in COORDINATE_ROWS:
        return _coordinate_check(row_id, COORDINATE_ROWS[row_id])
    if row_id not in CLAIMS:
        return None
    return expectations(*CLAIMS[row_id])


def expectations(says: str, expects: tuple[Expect, ...]) -> AuditCheck:
    """A row's words and what the audit must show for them, against what it shows."""
    wrong = [e for e in expects if _decided(e.tool, e.mode, e.coordinate) != e.present]
    shown = "; ".join(
        f"{e.tool} {e.mode.replace('_', ' ')} {failures.NAMES[e.coordinate]}: "
        f"{'decided' if _decided(e.tool, e.mode, e.coordinate) else 'not decided'}"
        for e in (wrong or expects)[:6]
    )
    lead = "contradicts the row" if wrong else "as the row says"
    return AuditCheck(says, not wrong, f"DPCTER of the fixture's failures, {lead}: {shown}")


def _coordinate_check(row_id: str, coordinate: str) -> AuditCheck:
    typed_published, text_published = failures.PUBLISHED[coordinate]
    tools = [f"fail-{kind}-{form}" for kind in FAILURE_KINDS for form in SPEC_FORMS]
    typed = sum(_decided(tool, "typed", coordinate) for tool in tools)
    text = sum(_decided(tool, "with_text", coordinate) for tool in tools)
    agrees = (typed > 0) == (typed_published > 0) and (text > 0) == (text_published > 0)
    total = failures.PUBLISHED_TOTAL
    name = failures.NAMES[coordinate]
    says = f"{name}: typed {typed_published}/{total}, with text {text_published}/{total} (published audit)"
    detail = (
        f"the fixture's {len(tools)} failures in the spec's forms decide {name} typed in {typed} and with "
        f"text in {text}: {'the same' if agrees else 'not the same'} presence as the published audit"
    )
    return AuditCheck(says, agrees, detail)
