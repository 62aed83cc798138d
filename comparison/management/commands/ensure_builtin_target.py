"""manage.py ensure_builtin_target: the probe target that runs the fixture directly."""

from django.core.management.base import BaseCommand

from comparison.services.probing import ensure_builtin_target


class Command(BaseCommand):
    help = "Create the built-in probe target (the fixture upstream over stdio) if it does not exist."

    def handle(self, *args, **options):
        self.stdout.write(f"probe target: {ensure_builtin_target().name}")
