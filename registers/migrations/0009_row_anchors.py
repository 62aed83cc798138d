"""Each row says what it is about (its spec anchors, comparison.anchors), computed from what is
stored of it: the rows already loaded get theirs here, without a reload."""

from django.db import migrations, models


def fill_anchors(apps, schema_editor):
    from language.anchors.row_anchors import CELL, TITLE, CitedLine, row_anchors
    from registers.core.anchoring import READ_FIELDS

    Row = apps.get_model("registers", "Row")
    Citation = apps.get_model("registers", "Citation")
    cited: dict[int, list] = {}
    for row_id, path, line in Citation.objects.exclude(path="").order_by("row_id", "order").values_list(
        "row_id", "path", "line_start"
    ):
        cited.setdefault(row_id, []).append(CitedLine(path, line))
    changed = []
    for row in Row.objects.only("pk", "title", "difference", "where_cell", "fields").iterator(chunk_size=500):
        fields = {item.get("key"): item.get("text", "") for item in row.fields or () if isinstance(item, dict)}
        texts = {TITLE: row.difference or row.title, CELL: row.where_cell}
        texts.update({key: fields.get(key, "") for key in READ_FIELDS})
        row.anchors = [found.as_dict() for found in row_anchors(texts, cited.get(row.pk, []))]
        changed.append(row)
    Row.objects.bulk_update(changed, ["anchors"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("registers", "0008_register_text_unbounded")]

    operations = [
        migrations.AddField(
            model_name="row",
            name="anchors",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="What the row is about (comparison.anchors): [{anchor, how, where}], the title's first.",
            ),
        ),
        migrations.RunPython(fill_anchors, migrations.RunPython.noop),
    ]
