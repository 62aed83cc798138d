"""Does a host model agree with what a register row says about each host? Pure.

For rows that have an example (their own in examples.ROW_EXAMPLES, or one for what their title
names in examples.ANCHOR_EXAMPLES), each host path's view of the
example is reduced to what happened to the part the row is about (kept, changed, dropped, failed)
and set against the register's state for that host (has, lacks, partial, …).
"""

from __future__ import annotations

from dataclasses import dataclass

from comparison.hosts import result_views
from comparison.hosts.examples import MCPX_PASS_THROUGH_ROWS, example, example_for
from comparison.hosts.present import PresentedView, present
from comparison.hosts.view import FAILED, HostView

KEPT, CHANGED, DROPPED, FAILS = "kept", "changed", "dropped", "fails"
#: Register host states are about a host's main path; code mode is compared only where it is that.
PRIMARY_PATHS = {"direct", "script", "slash-command", "call", "prompt"}
#: Which model outcomes each register state allows.
ALLOWED = {"has": {KEPT, CHANGED}, "lacks": {DROPPED, FAILS}}


def assess(view: HostView, subject: str) -> str:
    if subject == "failure":
        # The row is about the host failing the call: doing so is "having" the behaviour.
        return KEPT if view.outcome == FAILED else DROPPED
    if view.outcome == FAILED:
        return FAILS
    if subject == "parse":
        # The row is about text turned into a parsed value.
        return KEPT if any("pars" in c.reason for c in view.changes) else DROPPED
    related = [c for c in view.changes if _about(c.subject, subject)]
    if any(c.action == "dropped" for c in related) or (subject == "role" and related):
        return DROPPED
    if related:
        return CHANGED
    return KEPT


def _about(change_subject: str, subject: str) -> bool:
    if subject in ("annotations", "_meta"):
        return change_subject.endswith(f" {subject}")
    if subject == "role":
        return change_subject.endswith(" role")
    return f"({subject})" in change_subject and not change_subject.endswith((" annotations", " _meta", " uri"))


@dataclass
class RowHostView:
    view: PresentedView
    assessment: str
    register_state: str
    agreement: str  # "agrees", "disagrees", or "" when the register states nothing checkable


def row_host_views(
    row_id: str, register_states: dict[str, str], title: str = ""
) -> tuple[str, list[RowHostView]] | None:
    """(example name, one entry per host path) for a row with an example (its own, or one for what
    its title starts by naming), else None."""
    found = example_for(row_id, title)
    if found is None:
        return None
    name, subject = found
    value = example(name)
    views = result_views(value)
    entries = []
    for view in views:
        state = register_states.get(view.host, "")
        outcome, agreement = judge(view, row_id, subject, state)
        entries.append(RowHostView(present(view), outcome, state, agreement))
    return name, entries


def judge(view, row_id: str, subject: str, state: str) -> tuple[str, str]:
    """(what happened to the row's subject, "agrees" / "disagrees" / "" when the register's state
    for this host says nothing checkable about this path). `view` is a HostView or a PresentedView."""
    outcome = assess(view, subject)
    checked = view.path in PRIMARY_PATHS and (view.host != "mcpx" or row_id in MCPX_PASS_THROUGH_ROWS)
    allowed = ALLOWED.get(state) if checked else None
    return outcome, "" if allowed is None else ("agrees" if outcome in allowed else "disagrees")
