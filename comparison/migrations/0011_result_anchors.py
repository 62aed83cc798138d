"""Probe results say what they exercise (their scenario's anchors) instead of which register rows:
checks meet rows by anchors (comparison.anchors). Stored results get their scenario's anchors from
the catalogue; a scenario the catalogue no longer has gets none."""

from django.db import migrations, models


def fill_anchors(apps, schema_editor):
    from language.anchors import kinds
    from language.anchors.travelled import travelled
    from comparison.probes.run.scenarios import SUITES

    declared = {scenario.key: list(scenario.anchors) for suite in SUITES.values() for scenario in suite}
    ProbeResult = apps.get_model("comparison", "ProbeResult")
    for chunk_start in range(0, ProbeResult.objects.count() + 1, 200):
        changed = []
        for result in ProbeResult.objects.order_by("pk").only("pk", "scenario", "exchanges")[
            chunk_start : chunk_start + 200
        ]:
            anchors = declared.get(result.scenario, [])
            keys = sorted(kinds.all_keys(anchors))
            result.anchors, result.anchors_key = anchors, "," + ",".join(keys) + "," if keys else ""
            result.seen = travelled(result.exchanges)
            changed.append(result)
        ProbeResult.objects.bulk_update(changed, ["anchors", "anchors_key", "seen"], batch_size=200)


class Migration(migrations.Migration):
    dependencies = [("comparison", "0010_run_tries")]

    operations = [
        migrations.AddField(
            model_name="proberesult",
            name="anchors",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="proberesult",
            name="anchors_key",
            field=models.TextField(blank=True, default=""),
        ),
        migrations.AddField(
            model_name="proberesult",
            name="seen",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(fill_anchors, migrations.RunPython.noop),
        migrations.RemoveField(model_name="proberesult", name="rows_key"),
        migrations.RemoveField(model_name="proberesult", name="rows"),
    ]
