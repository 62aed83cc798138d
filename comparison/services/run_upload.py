"""A run made elsewhere, stored as a run of a target an admin configured: the JSON that
`manage.py probe --json` prints, sent by a proxy's own CI through the API.

What is sent is stored as sent: it is never compared with the target's credentials or the
dashboard's own secrets, since whether a text was masked would tell the sender whether it guessed
one (the sender's own probe masked its credentials before it printed them). A replay (the same
Idempotency-Key, or the same body) is answered with the run it already made. The run and its
"changes since the previous run" are written in one transaction: a server killed after the commit
leaves a whole run, or none."""

from __future__ import annotations

import hashlib

from django.db import IntegrityError, transaction
from django.utils import timezone

from common.pagecache import bump_runs_version
from comparison.models import ProbeResult, ProbeRun, ProbeTarget
from comparison.probes.assessment.revisions import REVISIONS
from comparison.probes.run.upload_check import UploadError, checked_results
from comparison.probes.targets.identity import identity_from_exchanges
from comparison.services.run_changes import record_changes

STORED_FIELDS = (
    "scenario", "anchors", "seen", "method", "requested_revision", "verdict", "failure", "response", "findings", "diff",
    "diff_against", "host_views", "dpcter", "interop", "exchanges", "duration_ms",
)  # fmt: skip
MAX_KEY = 80


def upload_key(idempotency_key: str, body: bytes) -> str:
    """The replay key: the sender's Idempotency-Key, else the body's digest."""
    if idempotency_key:
        if len(idempotency_key) > MAX_KEY or not idempotency_key.isprintable():
            raise UploadError(f"Idempotency-Key: at most {MAX_KEY} printable characters")
        return "key:" + hashlib.sha256(idempotency_key.encode()).hexdigest()
    return "body:" + hashlib.sha256(body).hexdigest()


def replayed(target: ProbeTarget, key: str) -> ProbeRun | None:
    return ProbeRun.objects.filter(target=target, upload_key=key).first()


def store_uploaded_run(*, target: ProbeTarget, report: object, user, key: str = "") -> tuple[ProbeRun, bool]:
    """(the run, whether it is new): the report's cells as a finished run of `target`, compared
    with its previous run like any other; the run already made for `key` when there is one.
    UploadError (from probes.upload_check) names what is wrong; nothing is stored then."""
    if key and (found := replayed(target, key)) is not None:
        return found, False
    results = checked_results(report)
    revisions = [str(rev) for rev in REVISIONS if any(r["requested_revision"] == rev for r in results)]
    pins = [str(rev) for rev in REVISIONS if any(r.get("upstream_revision") == rev for r in results)]
    scenarios = list(dict.fromkeys(result["scenario"] for result in results))
    said = next((found for r in results if (found := identity_from_exchanges(r["exchanges"]))), "")
    now = timezone.now()
    try:
        with transaction.atomic():
            run = ProbeRun.objects.create(
                target=target,
                revisions=revisions,
                upstream_revisions=pins,
                scenarios=scenarios,
                started_by=user,
                status=ProbeRun.DONE,
                total=len(results),
                done=len(results),
                started_at=now,
                finished_at=now,
                uploaded=True,
                upload_key=key,
                server_identity=said[:200],
            )
            for data in results:  # save(), not bulk_create: a result keys its anchors when saved
                ProbeResult.objects.create(
                    run=run,
                    family=data.get("family", ""),
                    negotiated_revision=data["negotiated_revision"][:20],
                    upstream_revision=data.get("upstream_revision") or "",
                    tries=data.get("tries") or [],
                    predictions=data.get("predictions") or [],
                    **{name: data[name] for name in STORED_FIELDS},
                )
            record_changes(run)
    except IntegrityError:
        # The same upload, sent twice at once: the other request made the run.
        if key and (found := replayed(target, key)) is not None:
            return found, False
        raise
    bump_runs_version()
    return run, True
