"""What the lab measured, as a host state per register row, for the hosts no register has a
column for (Codex CLI, Claude Code, Gemini CLI, Qwen Code): the chips, at each host's pinned
version, of the lab features a row's title is about (comparison/hostlab/claims.py). The row filter,
the facets, the listing's columns, the two-host comparison and the row page read it. One query for
every row."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from common.beside_runs import kept_beside_runs
from comparison.hostlab import claims, matrix
from comparison.hosts.measured import LAB_KEY
from comparison.selectors.lab import current_observations
from language.vocabulary import LAB_ONLY_HOSTS

NOT_IN_THE_REGISTER = "not in the register: from the lab"


@kept_beside_runs
def host_chips() -> dict[str, dict[str, tuple[str, str, str]]]:
    """{host: {feature: (chip, detail, version)}} of the lab-only hosts at their pinned versions."""
    rows = matrix.host_rows(current_observations(), [LAB_KEY[host] for host in LAB_ONLY_HOSTS])
    by_lab = {LAB_KEY[host]: host for host in LAB_ONLY_HOSTS}
    return {by_lab[row.key]: {c.feature: (c.chip, c.detail, c.version) for c in row.cells} for row in rows}


def title_anchors(anchors: Any) -> set[str]:
    items = anchors if isinstance(anchors, list) else []
    return {item["anchor"] for item in items if isinstance(item, dict) and item.get("how") == "title"}


def row_states(anchors: Any, chips: dict[str, dict[str, tuple[str, str, str]]]) -> dict[str, dict[str, Any]]:
    """{host: {"state", "features": [(feature, chip, detail, version)]}} for one row's anchors."""
    features = claims.features_for(title_anchors(anchors))
    found = {}
    for host, by_feature in chips.items():
        seen = [(f, *by_feature[f]) for f in features if f in by_feature]
        state = claims.lab_state([chip for _, chip, _, _ in seen])
        if state:
            found[host] = {"state": state, "features": seen}
    return found


def states_of_rows(rows: Iterable[tuple[Any, Any]]) -> dict[Any, dict[str, str]]:
    """{row key: {host: state}} for (row key, anchors) pairs: the lab read once."""
    chips = host_chips()
    return {key: {host: item["state"] for host, item in row_states(anchors, chips).items()} for key, anchors in rows}
