"""A register's claim about a host, checked against the lab's version ranges at the version the
register describes the host at. Pure.

Registers of the corpus describe each host at one version (their legend pins opencode v1 at
1.18.31; Cloudflare documentation as fetched on one day). The lab measures a host at many
versions. The check reads the chip the lab found at the pinned version (measured there, or inside
a range whose two ends were measured with the same chip, labelled as such) and says whether it
bears the claim out.

Only claims the chips can decide are checked: a row whose subject (its title anchors) is a block
type or field that a lab scenario delivers, on a feature where "the host has it" means "it reaches
the model" (a block, structuredContent, annotations, the isError flag). A row about something else
that merely mentions the type (a proxy emitting resource links, scripts unwrapping results) and a
host state inferred from "mcpx has, others don't" are left unchecked, never guessed at.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

from comparison.hostlab.catalogue import BY_TOOL
from comparison.hostlab.features import CHANGED, DROPPED, FEATURES, KEPT, NOT_MEASURED, NOT_SUPPORTED
from comparison.hostlab.matrix import FEATURE_SCENARIO
from comparison.hostlab.ranges import ranges
from comparison.hostlab.versions import key
from language.vocabulary import HOST_NAMES

PINS_FILE = Path(__file__).resolve().parent.parent / "data" / "register_host_pins.json"
AGREES, CONTRADICTS, UNDECIDED = "agrees", "contradicts", "not decided"
#: Features where a host "having" the thing means it reaches the model.
PRESENCE_FEATURES = (
    "text", "image", "audio", "resource-text", "resource-blob", "resource-link", "structured", "structured-beside",
    "annotations",
    "error-flag",
)  # fmt: skip
HAS, PARTIAL, LACKS = "has", "partial", "lacks"
#: Where a register states a host's state, in words.
STATED_IN = {"where": "its Where cell", "label": "a label"}


@dataclass(frozen=True)
class Pin:
    register_host: str
    lab_host: str  # "" when the lab cannot run it
    version: str
    source: str


@cache
def pins() -> dict[str, Pin]:
    data = json.loads(PINS_FILE.read_text(encoding="utf-8"))
    return {host: Pin(host, item["lab_host"], item["version"], item["source"]) for host, item in data["pins"].items()}


def features_for(title_anchors: set[str]) -> list[str]:
    """The presence features whose scenario is about a row's subject: the scenario's first anchor is
    one of the row's title anchors (an is-error scenario has text in it, but is not about text)."""
    return [feature for feature in PRESENCE_FEATURES if BY_TOOL[FEATURE_SCENARIO[feature]].anchors[0] in title_anchors]


def chip_at(chips: dict[str, str], version: str, published: list[str]) -> tuple[str, str]:
    """(chip, how the lab knows it) for one version; NOT_MEASURED when no measurement covers it."""
    if chips.get(version, NOT_MEASURED) != NOT_MEASURED:
        return chips[version], f"measured at {version}"
    for span in ranges(chips, published or list(chips))[0]:
        if span.since != span.until and key(span.since) <= key(version) <= key(span.until):
            return span.chip, f"not measured at {version}: {span.since} and {span.until}, either side, both show it"
    measured = sorted((v for v, chip in chips.items() if chip != NOT_MEASURED), key=key)
    around = f"measured {measured[0]} – {measured[-1]}" if measured else "never measured"
    return NOT_MEASURED, f"{version} is not covered by a measured range ({around})"


def verdict(claim: str, chip: str) -> str:
    if chip == NOT_MEASURED:
        return NOT_MEASURED
    if claim == HAS:
        return AGREES if chip in (KEPT, CHANGED) else CONTRADICTS
    if claim == LACKS:
        return AGREES if chip in (DROPPED, NOT_SUPPORTED) else CONTRADICTS
    return AGREES if claim == PARTIAL and chip == CHANGED else UNDECIDED


@dataclass
class ClaimCheck:
    register_host: str
    lab_host: str
    version: str
    feature: str
    title: str
    claim: str
    claim_source: str
    chip: str
    how: str
    verdict: str
    pin_source: str
    observation_id: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return dict(asdict(self), label=HOST_NAMES.get(self.register_host, self.register_host),
                    stated_in=STATED_IN.get(self.claim_source, self.claim_source))  # fmt: skip


def check_row(
    title_anchors: set[str],
    claims: dict[str, tuple[str, str]],
    chips: dict[str, dict[str, dict[str, str]]],
    published: dict[str, list[str]],
    observation_ids: dict[tuple[str, str, str], int] | None = None,
) -> list[ClaimCheck]:
    """`claims`: register host -> (state, where the register states it), explicit claims only;
    `chips`: lab host -> feature -> {version: chip}; `published`: lab host -> its releases;
    `observation_ids`: (lab host, version, feature) -> the observation measured there."""
    features = features_for(title_anchors)
    found = []
    for host, (claim, source) in claims.items():
        pin = pins().get(host)
        if pin is None or not pin.lab_host or claim not in (HAS, PARTIAL, LACKS):
            continue
        for feature in features:
            chip, how = chip_at(
                chips.get(pin.lab_host, {}).get(feature, {}), pin.version, published.get(pin.lab_host, [])
            )
            found.append(
                ClaimCheck(
                    host, pin.lab_host, pin.version, feature, FEATURES[feature], claim, source, chip, how,
                    verdict(claim, chip), pin.source, (observation_ids or {}).get((pin.lab_host, pin.version, feature)),
                )
            )  # fmt: skip
    return found


#: A register's word for what a chip says of a feature reaching the model.
STATE_OF_CHIP = {KEPT: HAS, CHANGED: PARTIAL, DROPPED: LACKS, NOT_SUPPORTED: LACKS}


def lab_state(chips: list[str]) -> str:
    """The state a row's features show for one host, in the registers' words: "has" when each
    reaches the model as itself, "lacks" when none reaches it, "partial" otherwise; "" when the lab
    has no reading of any of them."""
    states = {STATE_OF_CHIP[chip] for chip in chips if chip in STATE_OF_CHIP}
    if not states:
        return ""
    return states.pop() if len(states) == 1 else PARTIAL
