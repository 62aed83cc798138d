"""manage.py evidence_coverage: per loaded register, how many rows have evidence that takes a
stance, only related checks, or none (and why), and every claim some source contradicts, from
the latest ended run of every target."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from evidence import row_evidence
from evidence.rules import evidence, evidence_related
from registers.models import Row

COLUMNS = ("row_id", "register__slug", "facts", "introduced_in", "removed_in", "anchors", "difference", "title")


class Command(BaseCommand):
    help = (
        "Per register: rows whose evidence takes a stance, rows with related checks only, rows with none "
        "(with the reason), and every disagreement with the source that contradicts the claim."
    )

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="Print the report as JSON.")

    def handle(self, *args, **options):
        rows = list(
            Row.objects.order_by("register__title", "order").values_list(
                *COLUMNS, "register__subject", "status_verdict"
            )
        )
        inputs, revisions_of = [], {}
        for row_id, _, facts, introduced, removed, anchors, difference, title, subject, status in rows:
            revisions = row_evidence.row_revisions(
                row_evidence.StoredRow(facts, introduced, removed, anchors, difference or title, subject, status)
            )
            revisions_of[row_id] = revisions
            inputs.append((row_id, (facts or {}).get("hosts", {}), revisions))
        found = row_evidence.evidence_of_rows(inputs)
        report: dict[str, dict] = {}
        for row_id, slug, *_ in rows:
            entry = report.setdefault(slug, {"rows": 0, "stance": 0, "related only": 0, "none": [], "disagrees": []})
            entry["rows"] += 1
            kind = evidence_related.coverage(found.get(row_id, []))
            if kind == evidence_related.NONE:
                why = evidence.UNCHECKED.get(row_id) or evidence_related.no_evidence_reason(revisions_of[row_id])
                entry["none"].append({"row": row_id, "why": why})
            else:
                entry[kind] += 1
            for item in found.get(row_id, []):
                for source in item.conflicts:
                    entry["disagrees"].append(
                        {
                            "row": row_id,
                            "entry": item.host,
                            "claim": item.claim,
                            "source": source.label,
                            "detail": source.detail,
                        }
                    )
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2, ensure_ascii=False))
            return
        for slug, entry in report.items():
            share = 100 * (entry["stance"] + entry["related only"]) / max(entry["rows"], 1)
            self.stdout.write(
                f"{slug}: {entry['rows']} rows, {entry['stance']} with a stance, {entry['related only']} related only, "
                f"{len(entry['none'])} none ({share:.0f} % with evidence)"
            )
            for item in entry["none"]:
                self.stdout.write(f"  none {item['row']}: {item['why']}")
            for item in entry["disagrees"]:
                self.stdout.write(f"  disagrees {item['row']} ({item['entry']}): {item['source']}: {item['detail']}")
