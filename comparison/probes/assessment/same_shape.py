"""A loss is the proxy's only when the probe's own client keeps the same exchange with no proxy in
between. The check: the fixture served in the target's shape (stdio, Streamable HTTP, or the
deprecated HTTP+SSE) is probed directly at the revision the proxy agreed, for the cells judged lost
through the proxy; a cell lost there too is not the proxy's doing. Pure, no Django: the runner
starts the fixture and plays the cells.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from language.vocabulary import ProbeVerdict as V

STDIO, STREAMABLE, LEGACY = "stdio", "Streamable HTTP", "the deprecated HTTP+SSE"
#: The verdicts that blame the proxy, and so are checked with no proxy in between.
BLAMING = frozenset({V.LOST, V.REFUSED})
#: The verdicts that mean the fixture alone did not deliver the exchange whole to the probe.
NOT_DELIVERED = frozenset({V.LOST, V.REFUSED, V.CHANGED, V.FAILED, V.INTERMITTENT})
RULE = "same-shape"


@dataclass(frozen=True)
class Served:
    """The fixture in one shape: how it is started and reached."""

    shape: str
    transport: str  # "http" or "stdio"
    url: str = ""
    launch: tuple[str, ...] = ()


def shape_of(transport: str, framings: Iterable[str]) -> str:
    """The target's shape, from its transport and how its answers came (an HTTP target that only
    serves the deprecated transport answers on its one stream)."""
    if transport == "stdio":
        return STDIO
    return LEGACY if "legacy sse" in framings else STREAMABLE


def served(shape: str, port: int) -> Served:
    """The fixture on 127.0.0.1:`port` in `shape` (stdio needs no port: the runner's own fixture)."""
    if shape == STDIO:
        return Served(STDIO, "stdio")
    command = (sys.executable, "-m", "comparison.probes.fixture.fixture_server", "--port", str(port))
    if shape == LEGACY:
        return Served(LEGACY, "http", f"http://127.0.0.1:{port}/sse", (*command, "--sse"))
    return Served(STREAMABLE, "http", f"http://127.0.0.1:{port}/mcp", command)


def verdict_alone(session_failure: str, verdict: str) -> str:
    """What the fixture alone gave a lost cell: "" when the check could not say (the fixture in
    that shape did not even open a session), else the cell's verdict there."""
    return "" if session_failure else verdict


def finding(shape: str, alone: str, why: str) -> dict[str, Any]:
    """The note that takes the loss off the proxy: the same exchange, no proxy, same loss."""
    said = f" ({why})" if why else ""
    return {
        "rule": RULE,
        "path": "(cell)",
        "message": (
            f"not the proxy's: with no proxy in between, the fixture served over {shape} gives the probe's "
            f"client \"{alone}\" here too{said}, so the loss is the probe's or the transport's"
        ),
        "verdict": V.NOT_COMPARED.value,
    }


def confirmed(shape: str, verdict: str) -> dict[str, Any]:
    """The note on a loss the check upheld: with no proxy in between, the probe's client got it."""
    return {
        "rule": RULE,
        "path": "(cell)",
        "message": f"checked with no proxy in between: the fixture served over {shape} gives the probe's client "
        "this exchange whole, so the proxy is where it goes",
        "verdict": verdict,
    }


def unchecked(shape: str, why: str, verdict: str) -> dict[str, Any]:
    """The note on a loss the check could not confirm (the fixture in that shape did not start)."""
    return {
        "rule": RULE,
        "path": "(cell)",
        "message": f"not checked with no proxy in between: the fixture over {shape} could not be probed ({why})",
        "verdict": verdict,
    }
