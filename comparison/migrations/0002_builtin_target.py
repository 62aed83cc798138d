"""The built-in probe target exists from the start, so a GET never has to create it."""

from django.db import migrations


def create_builtin_target(apps, schema_editor):
    ProbeTarget = apps.get_model("comparison", "ProbeTarget")
    if not ProbeTarget.objects.filter(builtin=True).exists():
        ProbeTarget.objects.create(
            name="built-in fixture (stdio)", transport="stdio", suite="fixture", upstream="fixture", builtin=True,
            upstream_description="The fixture upstream, run directly: every content type, prompt shape and failure, "
            "at every revision.",
        )


class Migration(migrations.Migration):
    dependencies = [("comparison", "0001_initial")]
    operations = [migrations.RunPython(create_builtin_target, migrations.RunPython.noop)]
