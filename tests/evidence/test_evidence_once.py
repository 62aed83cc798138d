"""Issue 53, item 2: the rows' evidence costs once. An ended run's cells are read from the database
once, and after another target's run only that run's results are read; the evidence is the same as
a read of everything; a run id that comes back (a deleted run, another in its place) is read anew."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from comparison.selectors.runs import latest_ended_runs
from evidence import row_evidence
from registers import filters
from registers.models import Row
from tests.support.relay_targets import relay_target

pytestmark = pytest.mark.django_db


def rows() -> list:
    columns = (*filters.FACT_COLUMNS, *filters.EVIDENCE_COLUMNS, *filters.SHOWN_COLUMNS)
    return [filters._evidence_input(v) for v in Row.objects.order_by("register__title", "order").values_list(*columns)]


def read_of_everything(inputs: list) -> dict:
    return row_evidence.evidence_of_rows(inputs, row_evidence.cells_of_runs(latest_ended_runs(measured=True)))


def result_reads(queries) -> list[str]:
    return [q["sql"] for q in queries if 'FROM "comparison_proberesult"' in q["sql"]]


def test_another_targets_run_reads_only_that_runs_results_and_the_evidence_is_the_same(loaded):
    from comparison.services.probing import ensure_builtin_target
    from comparison.tasks import start_run

    builtin = start_run(target=ensure_builtin_target(), revisions=["2025-06-18"], scenarios=["text", "is-error"])
    inputs = rows()
    first = row_evidence.evidence_of_rows(inputs)
    assert first == read_of_everything(inputs)
    relayed = start_run(target=relay_target("is-error"), revisions=["2025-06-18"], scenarios=["is-error"])
    with CaptureQueriesContext(connection) as queries:
        second = row_evidence.evidence_of_rows(inputs)
    reads = result_reads(queries.captured_queries)
    assert len(reads) == 1
    assert f"IN ({relayed.pk})" in reads[0], "only the new run's results are read"
    assert str(builtin.pk) not in reads[0].split("IN (", 1)[1].split(")", 1)[0]
    assert second == read_of_everything(inputs)
    assert second != first, "the relay's run is evidence on some row"
    with CaptureQueriesContext(connection) as queries:
        assert row_evidence.evidence_of_rows(inputs) == second
    assert result_reads(queries.captured_queries) == [], "nothing new: no result is read"


def test_a_run_id_that_comes_back_is_read_anew(loaded):
    """As after a rolled-back run: the same id, another run's results and creation time."""
    from django.utils import timezone

    from comparison.models import ProbeResult, ProbeRun
    from comparison.tasks import start_run

    target = relay_target("is-error")
    kept = start_run(target=target, revisions=["2025-06-18"], scenarios=["is-error"])
    inputs = rows()
    before = row_evidence.evidence_of_rows(inputs)
    other = start_run(target=target, revisions=["2025-06-18"], scenarios=["text"])
    ProbeResult.objects.filter(run=kept).delete()
    ProbeResult.objects.filter(run=other).update(run=kept)
    other.delete()
    ProbeRun.objects.filter(pk=kept.pk).update(created=timezone.now())
    after = row_evidence.evidence_of_rows(inputs)
    assert after == read_of_everything(inputs)
    assert after != before
