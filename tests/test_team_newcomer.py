"""What a newcomer following the README tripped on (the 'ready for a team' report), each as what
the user sees: the probes page's "Compare runs side by side" opens the picker."""

from __future__ import annotations

import pytest

from comparison.probing import ensure_builtin_target, start_run


@pytest.mark.django_db
def test_compare_runs_side_by_side_opens_the_picker_with_nothing_chosen(client):
    run = start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text"])
    probes = client.get("/probes/").content.decode()
    assert 'href="/probes/compare/?run="' in probes
    picker = client.get("/probes/compare/?run=")
    assert picker.status_code == 200
    html = picker.content.decode()
    assert 'id="compare-many-form"' in html
    assert f'value="{run.pk}"' in html, "the runs to choose from"
    assert client.get("/probes/compare/?run=x").status_code == 404, "a value that is not a number still says so"


@pytest.mark.django_db
def test_the_built_in_fixtures_own_run_says_its_invalid_cells_are_deliberate(client):
    from comparison.models import ProbeResult

    run = start_run(target=ensure_builtin_target(), revisions=["2024-11-05"], scenarios=["text", "audio"])
    assert ProbeResult.objects.filter(run=run, verdict="invalid for revision").exists()
    html = client.get(run.get_absolute_url()).content.decode()
    assert 'id="fixture-invalid-note"' in html
    assert "on purpose" in html
