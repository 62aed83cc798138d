"""A run made elsewhere, stored as a run of a target an admin configured: the JSON that
`manage.py probe --json` prints, sent by a proxy's own CI through the API."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from common.pagecache import bump_data_version

from .models import ProbeResult, ProbeRun, ProbeTarget
from .probes.identity import identity_from_exchanges
from .probes.revisions import REVISIONS
from .probes.upload_check import checked_results
from .run_changes import record_changes

STORED_FIELDS = (
    "scenario", "anchors", "seen", "method", "requested_revision", "verdict", "failure", "response", "findings", "diff",
    "diff_against", "host_views", "dpcter", "interop", "exchanges", "duration_ms",
)  # fmt: skip


def store_uploaded_run(*, target: ProbeTarget, report: object, user) -> ProbeRun:
    """The report's cells as a finished run of `target`, compared with its previous run like any
    other. The target's own credentials are masked in what is kept, as in a run made here.
    UploadError (from probes.upload_check) names what is wrong; nothing is stored then."""
    results = [target.redactor().data(result) for result in checked_results(report)]
    revisions = [str(rev) for rev in REVISIONS if any(r["requested_revision"] == rev for r in results)]
    scenarios = list(dict.fromkeys(result["scenario"] for result in results))
    said = next((found for r in results if (found := identity_from_exchanges(r["exchanges"]))), "")
    now = timezone.now()
    with transaction.atomic():
        run = ProbeRun.objects.create(
            target=target,
            revisions=revisions,
            scenarios=scenarios,
            started_by=user,
            status=ProbeRun.DONE,
            total=len(results),
            done=len(results),
            started_at=now,
            finished_at=now,
            uploaded=True,
            server_identity=said[:200],
        )
        for data in results:  # save(), not bulk_create: a result keys its anchors when saved
            ProbeResult.objects.create(
                run=run,
                family=data.get("family", ""),
                negotiated_revision=data["negotiated_revision"][:20],
                tries=data.get("tries") or [],
                **{name: data[name] for name in STORED_FIELDS},
            )
    record_changes(run)
    bump_data_version()
    return run
