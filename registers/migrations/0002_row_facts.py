# Adds Row.facts (what the filters read) and fills it for rows loaded before it existed.

from types import SimpleNamespace

from django.db import migrations, models


def fill_facts(apps, schema_editor):
    from registers.facts import refresh_all

    names = ("Row", "Label", "RevisionSupport", "HostNote", "Citation", "RowVersion")
    refresh_all(SimpleNamespace(**{name: apps.get_model("registers", name) for name in names}))


class Migration(migrations.Migration):

    dependencies = [
        ('registers', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='row',
            name='facts',
            field=models.JSONField(blank=True, default=dict, help_text='What the filters read (support, host states, labels, citation states, latest version), kept in step with the children by registers.facts.'),
        ),
        migrations.RunPython(fill_facts, migrations.RunPython.noop),
    ]
