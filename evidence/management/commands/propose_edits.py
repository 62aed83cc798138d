"""manage.py propose_edits --register SLUG [--kinds …] [--json]: the edits a loaded register's
evidence decides, as a unified diff of its text as loaded (`patch -p1` applies it at the
register's path), or as JSON; the rows whose evidence is mixed are named on standard error."""

from __future__ import annotations

import json
import os

from django.core.management.base import BaseCommand, CommandError

from evidence.proposals import NoSource, register_proposals
from registers.core.proposals.edits import KINDS
from registers.core.proposals.text_edits import EditConflict
from registers.models import Register


def _patch_path(loaded: str) -> str:
    """The register's path relative to the current folder when it lies under it: `patch -p1` run
    here applies the patch."""
    if not loaded:
        return ""
    relative = os.path.relpath(os.path.abspath(loaded))
    return relative if not relative.startswith("..") else loaded.lstrip("/")


class Command(BaseCommand):
    help = "Print the register edits its evidence decides, as a patch of the register's text as loaded."

    def add_arguments(self, parser):
        parser.add_argument("--register", required=True, metavar="SLUG")
        parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
        parser.add_argument("--json", action="store_true", help="The edits and the rows needing a person, as JSON.")

    def handle(self, *args, **options):
        register = Register.objects.filter(slug=options["register"]).first()
        if register is None:
            known = ", ".join(Register.objects.order_by("slug").values_list("slug", flat=True)) or "none loaded"
            raise CommandError(f"no register {options['register']!r} (loaded: {known})")
        try:
            found = register_proposals(register, tuple(options["kinds"]))
            if options["json"]:
                self.stdout.write(json.dumps(found.as_dict(), indent=2, ensure_ascii=False))
            else:
                self.stdout.write(found.patch(_patch_path(register.source_path)), ending="")
        except (NoSource, EditConflict) as error:
            raise CommandError(str(error)) from None
        for item in found.people:
            self.stderr.write(f"needs a person: {item.row_id} ({item.kind}): {item.why}")
        counts = ", ".join(f"{n} {kind}" for kind, n in found.counts().items())
        self.stderr.write(f"{register.slug}: {len(found.edits)} edit(s) ({counts}), {len(found.people)} need a person")
