"""What the revisions' rules say of a client at one revision meeting an upstream at another:
directly (version negotiation alone), and what a proxy bridging them must do. Pure, no Django.

Each rule cites the spec pages it comes from (the specification repository at SPEC_COMMIT), so a
grid chip can say why a pair is expected to work, to be counter-offered, or to fail.
"""

from __future__ import annotations

from dataclasses import dataclass

from comparison.probes.fixture.era_gate import HANDSHAKE, MODERN
from language.vocabulary import REVISIONS
from language.vocabulary import Revision as R

SPEC_REPOSITORY = "https://github.com/modelcontextprotocol/modelcontextprotocol"
#: The specification repository's commit the line numbers below are read at (2026-08-22).
SPEC_COMMIT = "b0f60ba5409db7a6582440a7b473cc0398890f15"

WORKS, COUNTER_OFFER, FAILS = "works", "counter-offer", "fails"


@dataclass(frozen=True)
class Citation:
    path: str
    lines: tuple[int, int]
    says: str

    @property
    def text(self) -> str:
        return f"{self.path}:{self.lines[0]}-{self.lines[1]}"

    @property
    def url(self) -> str:
        return f"{SPEC_REPOSITORY}/blob/{SPEC_COMMIT}/{self.path}#L{self.lines[0]}-L{self.lines[1]}"


def _lifecycle(revision: str) -> Citation:
    lines = {R.V2024_11_05: (121, 131), R.V2025_03_26: (126, 136), R.V2025_06_18: (125, 135), R.V2025_11_25: (165, 175)}
    return Citation(
        f"docs/specification/{revision}/basic/lifecycle.mdx",
        lines[revision],
        "the server answers initialize with the version asked for if it supports it, else with another it "
        "supports; a client that does not support that one should disconnect",
    )


MATRIX = Citation(
    "docs/specification/2026-07-28/basic/versioning.mdx",
    (159, 172),
    "the compatibility matrix: modern client and legacy server fail unless the client is dual-era; a legacy "
    "client and a modern-only server fail; a legacy client of a dual-era server works",
)
MODERN_ONLY_INITIALIZE = Citation(
    "docs/specification/2026-07-28/basic/versioning.mdx",
    (154, 157),
    "a server of modern versions only should name the versions it supports in its error to initialize",
)
UNSUPPORTED = Citation(
    "docs/specification/2026-07-28/basic/versioning.mdx",
    (48, 71),
    "a server that does not implement the requested version must answer UnsupportedProtocolVersionError "
    "listing the versions it supports",
)
HTTP_FALLBACK = Citation(
    "docs/specification/2026-07-28/basic/transports/streamable-http.mdx",
    (650, 668),
    "a dual-era client over HTTP tries a modern request and falls back to initialize on a 400 without a modern error",
)
SSE_FALLBACK = Citation(
    "docs/specification/2025-03-26/basic/transports.mdx",
    (250, 277),
    "a client falls back to the HTTP+SSE transport of 2024-11-05 when its POST gets a 4xx",
)
DUAL_ERA_SERVER = Citation(
    "docs/specification/2026-07-28/basic/versioning.mdx",
    (174, 183),
    "a dual-era server selects its behaviour from how the client opens, and may serve both eras at once",
)


@dataclass(frozen=True)
class PairRule:
    client: str
    upstream: str
    #: WORKS (agreed at the client's revision), COUNTER_OFFER (the upstream answers another
    #: version: a client of only its own disconnects), or FAILS (no common era).
    outcome: str
    #: What a client that speaks every revision (the probe) agrees directly: "" when nothing.
    agreed: str
    says: str
    cites: tuple[Citation, ...]
    #: What a proxy between them must do to serve the client at its revision.
    bridge: str


def direct_rule(client: str, upstream: str) -> PairRule:
    """A client asking for `client` of an upstream that speaks only `upstream`."""
    bridge = (
        f"answer the client as a server of {client} (the same version it asked for, lifecycle), reach the "
        f"upstream as a client of {upstream}, and refuse with an error, never drop silently, what cannot "
        "cross between the two"
    )
    if client == upstream:
        return PairRule(
            client, upstream, WORKS, client, f"both speak {client}", (_lifecycle_or_matrix(client),), bridge
        )
    if client in HANDSHAKE and upstream in HANDSHAKE:
        says = (
            f"the upstream answers initialize with {upstream}: a client of {client} alone should disconnect; "
            f"one that also speaks {upstream} goes on at {upstream}"
        )
        cites = (_lifecycle(upstream),) + ((SSE_FALLBACK,) if upstream == REVISIONS[0] else ())
        return PairRule(client, upstream, COUNTER_OFFER, upstream, says, cites, bridge)
    if client in MODERN and upstream in HANDSHAKE:
        says = (
            f"a modern request fails on a legacy server; a dual-era client falls back to initialize and is "
            f"answered {upstream}, a client of {client} alone cannot go on"
        )
        return PairRule(client, upstream, COUNTER_OFFER, upstream, says, (MATRIX, HTTP_FALLBACK), bridge)
    says = f"a legacy client has no way forward to a server of {upstream} alone: initialize is refused"
    return PairRule(client, upstream, FAILS, "", says, (MATRIX, MODERN_ONLY_INITIALIZE), bridge)


def _lifecycle_or_matrix(revision: str) -> Citation:
    return _lifecycle(revision) if revision in HANDSHAKE else UNSUPPORTED


def grid_rules(clients: list[str], upstreams: list[str]) -> dict[tuple[str, str], PairRule]:
    return {(c, u): direct_rule(c, u) for c in clients for u in upstreams}
