"""What the opening agreed: the revision (the one the client asked for, against the one the
upstream agrees to directly: a proxy that pushes a client down to an older revision changes what
every host may use) and the server capabilities the client is told (one the upstream offers and
the client is not told of is lost to it; one the proxy adds is its own). Read from the session the
probe opened; compared with the same opening against the upstream directly."""

from __future__ import annotations

from typing import Any

from comparison.probes.families.base import Family, Finding, Played, Scenario
from language.vocabulary import ProbeVerdict as V

NAME = "negotiation"
REVISION, CAPABILITIES = "negotiated-revision", "offered-capabilities"


def play(client: Any, scenario: Scenario, revision: str, key: str) -> Played:
    played = Played()
    session = client.session
    played.notes.update(
        requested=session.requested,
        negotiated=session.negotiated,
        capabilities=session.capabilities if isinstance(session.capabilities, dict) else {},
    )
    return played


def assess(scenario: Scenario, played: Played, revision: str) -> list[Finding]:
    reference = played.notes.get("reference")
    if scenario.key == REVISION:
        return _revision(played.notes, reference)
    if not isinstance(reference, dict):
        return [Finding(V.NOT_COMPARED, "capabilities", "the upstream's own opening at this revision is not known")]
    # The reference was opened at the revision the target agreed to: like is compared with like.
    return capability_findings(reference.get("capabilities") or {}, played.notes.get("capabilities") or {})


def _revision(notes: dict[str, Any], reference: Any) -> list[Finding]:
    """The reference of this scenario is the upstream's opening at the revision the client asked
    for (the runner keeps it when it re-probes the rest at the target's revision)."""
    asked, got = notes.get("requested"), notes.get("negotiated")
    if not isinstance(reference, dict) or reference.get("requested") != asked:
        return [
            Finding(V.NOT_COMPARED, "protocolVersion", f"asked {asked}, agreed {got}; the upstream's own is not known")
        ]
    direct = reference.get("negotiated")
    if direct == got:
        return []
    if reference.get("pinned") and got == asked:
        # The cross-era grid: the upstream speaks one revision, and answers this client with it or
        # not at all. A proxy answering the client at the revision it asked for answers as a
        # server of that revision must (lifecycle, "Version Negotiation"): it bridges the eras.
        return []
    if not direct:
        return [
            Finding(
                V.CHANGED,
                "protocolVersion",
                f"asked {asked}; the upstream alone opens no session for it, the proxy agrees to {got}",
            )
        ]
    older = isinstance(got, str) and isinstance(direct, str) and got < direct
    return [
        Finding(
            V.CHANGED,
            "protocolVersion",
            f"asked {asked}; the upstream agrees to {direct} directly, the proxy to {got}"
            + (" (a downgrade)" if older else ""),
        )
    ]


def capability_findings(upstream: dict[str, Any], client: dict[str, Any]) -> list[Finding]:
    """A capability (or a flag of one, such as `subscribe`) the upstream offers and the client is
    not told of is lost; one the client is told of that the upstream does not offer is the proxy's."""
    findings = []
    for name, offered in upstream.items():
        if name not in client:
            findings.append(
                Finding(V.LOST, f"capabilities.{name}", f"the upstream offers `{name}`; the client is not told")
            )
            continue
        if isinstance(offered, dict) and isinstance(client[name], dict):
            for flag, value in offered.items():
                if value is True and client[name].get(flag) is not True:
                    findings.append(
                        Finding(
                            V.LOST,
                            f"capabilities.{name}.{flag}",
                            f"the upstream offers `{name}.{flag}`; the client is told {client[name].get(flag)!r}",
                        )
                    )
    # An empty `experimental` object offers nothing (SDKs add one by default).
    added = [name for name in client if name not in upstream and not (name == "experimental" and not client[name])]
    if added:
        findings.append(
            Finding(
                V.CHANGED,
                "capabilities",
                f"the proxy offers what the upstream does not: {', '.join(f'`{n}`' for n in added)}",
            )
        )
    return findings


FAMILY = Family(
    NAME,
    "Negotiation",
    (
        Scenario(REVISION, "The revision agreed, against the upstream's", "initialize", {}, (), family=NAME),
        Scenario(CAPABILITIES, "The server capabilities the client is told", "initialize", {}, (), family=NAME),
    ),
    play=play,
    assess=assess,
    compared=True,
)

#: What every scenario of the family exercises (comparison.anchors), beside its own.
ANCHORS: tuple[str, ...] = ("page:lifecycle", "prop:protocolVersion", "type:ServerCapabilities")
