"""Interop: does each host get through the proxy what it would get from the upstream directly?
Scored per cell and host when a result is assessed, and summed per run as wpt.fyi sums a browser's
tests. Pure, no Django.

A host "gets" what its model (or script) receives: for a tool or prompt result, the host model's
view without the explanations; for a JSON-RPC error, the error every SDK-based host throws; for
any other answer (a list, a resource), the answer itself. A cell the proxy failed to answer gives
every host nothing, so it counts against every host.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from comparison.hosts import is_prompt_result, prompt_views, tool_views
from comparison.hosts.present import present
from language.vocabulary import HOSTS, SCORED_HOSTS

#: What a view says about what it received (its changes and notes explain, they are not received).
RECEIVED_FIELDS = ("outcome", "error", "parts", "attachments", "script_value", "output", "host_text", "host_is_error")
#: Hosts that take prompts (as slash commands, or mcpx passing them on); the others have no prompt path.
PROMPT_HOSTS = ("opencode-v1", "opencode-v2", "mcpx")


def received(method: str, answer: dict[str, Any] | None) -> dict[str, Any]:
    """{host: what it gets} for an answer payload ({"result": …} or {"error": …})."""
    if not isinstance(answer, dict):
        return {}
    hosts = PROMPT_HOSTS if method.startswith("prompts/get") else HOSTS
    if "error" in answer:
        error = answer["error"] if isinstance(answer["error"], dict) else {}
        thrown = f"MCP error {error.get('code')}: {error.get('message', '')}"
        return {host: {"throws": thrown} for host in hosts}
    result = answer.get("result")
    if method == "tools/call" and isinstance(result, dict):
        return _by_host(tool_views(result))
    if method == "prompts/get" and is_prompt_result(result):
        return _by_host(prompt_views(result))
    return {host: {"answer": result} for host in hosts}


def _by_host(views) -> dict[str, Any]:
    got: dict[str, Any] = {}
    for view in views:
        shown = present(view, limit=None).to_json()
        got.setdefault(view.host, {})[view.path] = {name: shown.get(name) for name in RECEIVED_FIELDS}
    return got


def cell_interop(method: str, through: dict | None, direct: dict | None, *, same_error=None) -> dict[str, bool]:
    """{host: True when it gets through the proxy what it gets from the upstream}. `same_error`
    decides two errors alike (the fixture's own error texts are not fixed: its caller compares
    what the fixture states); by default they must be equal."""
    if not isinstance(direct, dict):
        return {}
    if isinstance(through, dict) and "error" in through and "error" in direct and same_error is not None:
        alike = bool(same_error(direct["error"], through["error"]))
        return dict.fromkeys(received(method, direct), alike)
    want, got = received(method, direct), received(method, through)
    return {host: got.get(host) == value for host, value in want.items()}


@dataclass
class Score:
    """The share of scored cells where a host (or every host) got what the upstream sends."""

    same: int = 0
    scored: int = 0

    @property
    def percent(self) -> float | None:
        return round(100 * self.same / self.scored, 1) if self.scored else None

    def as_dict(self) -> dict[str, Any]:
        return {"same": self.same, "scored": self.scored, "percent": self.percent}


@dataclass
class RunScore:
    """A run's interop: every host at once (the target's score), per host, and the share of
    answered cells valid for their negotiated revision."""

    overall: Score = field(default_factory=Score)
    hosts: dict[str, Score] = field(default_factory=dict)
    valid: Score = field(default_factory=Score)
    #: (scenario, revision) per host where it got something else than from the upstream.
    differing: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "overall": self.overall.as_dict(),
            "hosts": {host: score.as_dict() for host, score in self.hosts.items()},
            "valid": self.valid.as_dict(),
            "differing": {host: [list(cell) for cell in cells] for host, cells in self.differing.items()},
        }


def run_score(cells: list[dict[str, Any]], *, failed: str, invalid: str) -> RunScore:
    """Cells are {"scenario", "revision", "verdict", "interop": {host: bool}}. A cell without
    interop is unscored (no upstream to compare with, or scored before scores existed), except a
    failed one in a run that has a reference: the proxy gave every host nothing."""
    # The registers' subject proxy is never a host here: its cells stay on its own page.
    score = RunScore(hosts={host: Score() for host in SCORED_HOSTS})
    has_reference = any(isinstance(cell.get("interop"), dict) and cell["interop"] for cell in cells)
    for cell in cells:
        where = (cell["scenario"], cell["revision"])
        if cell["verdict"] != failed:
            score.valid.scored += 1
            score.valid.same += cell["verdict"] != invalid
        # Stored data may name a host this version does not know, or be of another shape (a result
        # stored before uploads were checked): it counts nowhere.
        stored = cell.get("interop") if isinstance(cell.get("interop"), dict) else {}
        interop = {host: same for host, same in stored.items() if host in score.hosts}
        if cell["verdict"] == failed and has_reference:
            interop = dict.fromkeys(SCORED_HOSTS, False)
        if not interop:
            continue
        score.overall.scored += 1
        score.overall.same += all(interop.values())
        for host, same in interop.items():
            score.hosts[host].scored += 1
            score.hosts[host].same += bool(same)
            if not same:
                score.differing.setdefault(host, []).append(where)
    return score
