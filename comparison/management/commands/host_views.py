"""manage.py host_views: what every host path makes of one result, or a whole vectors file."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from comparison.hosts import PROVIDERS, TOOL_PATHS, result_views
from comparison.hosts.present import view_data
from comparison.hosts.vectors import differences, normal_form


class Command(BaseCommand):
    help = (
        "Print every host's view of a CallToolResult or GetPromptResult (RESULT.json), or with --vectors FILE "
        "check every vector of a vectors.json-format file: one line per vector and host path, exit 1 on any failure."
    )

    def add_arguments(self, parser):
        parser.add_argument("result", nargs="?", help="A JSON file holding one result (- for standard input).")
        parser.add_argument("--host", help="Only this host or host path key (e.g. opencode-v1, cloudflare).")
        parser.add_argument("--provider", default="openai-compatible", choices=PROVIDERS)
        parser.add_argument("--json", action="store_true", help="Print the views as JSON.")
        parser.add_argument("--full", action="store_true", help="Do not shorten long strings in the output.")
        parser.add_argument("--vectors", help="A vectors.json-format file to check.")

    def handle(self, *args, **options):
        if options["vectors"]:
            return self._vectors(Path(options["vectors"]), options["host"])
        if not options["result"]:
            raise CommandError("give RESULT.json, - for standard input, or --vectors FILE")
        result = self._load(options["result"])
        views = result_views(result, provider=options["provider"], only=options["host"])
        if not views:
            raise CommandError(f"no host path matches {options['host']!r}")
        data = [view_data(view, limit=None if options["full"] else 160) for view in views]
        if options["json"]:
            self.stdout.write(json.dumps(data, indent=2, ensure_ascii=False))
            return
        for item in data:
            self.stdout.write(f"== {item['label']}: {item['outcome']}")
            for name in ("error", "parts", "attachments", "output", "script_value", "host_text"):
                if item.get(name) not in (None, [], ""):
                    self.stdout.write(f"   {name}: {json.dumps(item[name], ensure_ascii=False)}")
            for change in item["changes"]:
                self.stdout.write(
                    f"   {change['action']}: {change['subject']} — {change['reason']} ({change['source']})"
                )

    def _load(self, name: str):
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
            return json.loads(text)
        except OSError as error:
            raise CommandError(f"{name}: {error.strerror}") from None
        except ValueError as error:
            raise CommandError(f"{name}: not JSON ({error})") from None

    def _vectors(self, path: Path, only: str | None) -> None:
        try:
            vectors = json.loads(path.read_text(encoding="utf-8"))["vectors"]
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise CommandError(f"{path}: not a vectors file ({error})") from None
        paths = {p.key: p for p in TOOL_PATHS}
        failures = total = 0
        for vector in vectors:
            for key, expected in vector.get("expect", {}).items():
                if key not in paths or (only and key != only and paths[key].host != only):
                    continue
                total += 1
                path_ = paths[key]
                view = path_.render(vector["input"])
                found = differences(expected, normal_form(key, view))
                status = "pass" if not found else "FAIL"
                failures += bool(found)
                detail = "" if not found else " — " + "; ".join(found)
                self.stdout.write(f"{status} {vector['name']:32} {key:22}{detail}")
        self.stdout.write(f"{total - failures} passed, {failures} failed")
        if failures:
            raise CommandError(f"{failures} vector check(s) failed", returncode=1)
