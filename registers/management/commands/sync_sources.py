"""manage.py sync_sources [KEY ...]: bring each configured source repository into the cache."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from registers.core.sources import sync_root
from registers.verification import cache_dir, effective_roots


class Command(BaseCommand):
    help = (
        "Clone (bare) or fetch the git repository of each citation source root into the cache "
        "(MCP_COMPARE_SOURCE_CACHE). A root whose repository is a local git directory is read in place. "
        "Exits non-zero when a repository could not be reached; an existing cache is never deleted."
    )

    def add_arguments(self, parser):
        parser.add_argument("keys", nargs="*", help="Only these source roots (default: all).")

    def handle(self, *args, **options):
        roots = [root for root in effective_roots() if not options["keys"] or root.key in options["keys"]]
        unknown = set(options["keys"]) - {root.key for root in roots}
        if unknown:
            raise CommandError(f"no source root named {', '.join(sorted(unknown))}")
        failed = []
        for root in roots:
            result = sync_root(root, cache_dir())
            line = f"{result.key:14} {result.status:8} {result.detail}"
            self.stdout.write(self.style.ERROR(line) if result.status == "failed" else line)
            if result.status == "failed":
                failed.append(result.key)
        if failed:
            raise CommandError(f"could not reach: {', '.join(failed)}")
