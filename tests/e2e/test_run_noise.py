"""Run changes without noise (issue 33, item 5): re-running an unchanged target reports no cell
changed (it reported 31 of 258: per-run keys, process ids and timestamps in the fixture's
reports), and a real change is named by the field that differs, not cut off before it."""

from __future__ import annotations

import json

import pytest

from comparison.probes.assessment.compare import CHANGED, compare
from comparison.probes.assessment.volatile import steady
from comparison.services.probing import ensure_builtin_target
from comparison.tasks import start_run


@pytest.mark.django_db
def test_a_rerun_of_an_unchanged_target_changes_no_cell():
    target = ensure_builtin_target()
    start_run(target=target, revisions=[], scenarios=[])
    again = start_run(target=target, revisions=[], scenarios=[])
    again.refresh_from_db()
    assert again.previous_run_id is not None
    assert again.changes == []


@pytest.mark.django_db
def test_a_rerun_of_an_unchanged_http_target_changes_no_cell():
    """Over HTTP too: session ids the server hands out, and the sessions the upstream saw, are no change."""
    import sys

    from comparison.models import ProbeTarget
    from comparison.probes.processes.launch import free_port

    port = free_port()
    target = ProbeTarget.objects.create(
        name="fixture over HTTP",
        transport="http",
        url=f"http://127.0.0.1:{port}/mcp",
        launch=[sys.executable, "-m", "comparison.probes.fixture.fixture_server", "--port", str(port)],
        upstream="fixture",
    )
    first = start_run(target=target, revisions=[], scenarios=[])
    again = start_run(target=target, revisions=[], scenarios=[])
    first.refresh_from_db()
    again.refresh_from_db()
    assert (first.status, again.status) == ("done", "done")
    assert again.changes == []


def report(**fields) -> dict:
    text = json.dumps({"mcp-compare fixture report": fields})
    return {"result": {"content": [{"type": "text", "text": text}]}}


def test_volatile_values_are_set_aside_and_a_real_change_is_named_by_its_field():
    before = report(meta={"probe": "c794585df70b-2025-06-18-told-version"}, at=1796239228.2, pid=7944, sent=3)
    same = report(meta={"probe": "152871879012-2025-06-18-told-version"}, at=1796239229.4, pid=7952, sent=3)
    fewer = report(meta={"probe": "152871879012-2025-06-18-told-version"}, at=1796239229.4, pid=7952, sent=2)
    cells = lambda response: {("told", "2025-06-18"): {"id": 1, "verdict": "as expected", "response": response}}  # noqa: E731
    assert [c.status for c in compare(cells(before), cells(same))] == ["unchanged"]
    [change] = compare(cells(before), cells(fewer))
    assert change.status == CHANGED
    assert [d["path"] for d in change.differences] == ["result.content[0].text.mcp-compare fixture report.sent"]
    assert steady("session process-7944 of abcdef012345-2026-07-28-x") == "session process-<pid> of <run>-2026-07-28-x"
    assert steady({"headers": {"mcp-session-id": "0a4cf2e1813f"}}) == {"headers": {"mcp-session-id": "<varies>"}}
