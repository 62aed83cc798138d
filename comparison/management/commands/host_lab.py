"""manage.py host_lab: run the real hosts (Codex CLI, Claude Code, Gemini CLI, Qwen Code, opencode,
Cloudflare codemode) through the fixture's scenarios, or through your own stdio MCP server."""

from __future__ import annotations

import dataclasses
import json
import shlex
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from comparison import tasks
from comparison.hostlab import catalogue, through, version_cache, versions
from comparison.hostlab.adapters import ADAPTERS
from comparison.hostlab.lab import RunSetup
from comparison.probes.targets.secrets import Redactor
from comparison.selectors import lab as lab_selectors
from comparison.services import lab as lab_services
from comparison.services import lab_sweeps, lab_through
from comparison.services.own_secrets import own_secrets


class Command(BaseCommand):
    help = (
        "Run each installed host headless against a fake model on 127.0.0.1 and record what reached the model "
        "and what the host told the upstream. Without --server-command: the fixture's content and failure "
        "scenarios (observations already stored for the same host version, scenario and fixture are reused). "
        "With --server-command: your stdio MCP server, calling --tool once."
    )

    def add_arguments(self, parser):
        parser.add_argument("--host", action="append", choices=sorted(ADAPTERS), help="Only this host (repeatable).")
        parser.add_argument("--scenario", action="append", help="Only this fixture scenario (repeatable).")
        parser.add_argument("--server-command", help="A stdio MCP server's command line (quoted as for a shell).")
        parser.add_argument("--tool", help="The tool to call on --server-command.")
        parser.add_argument("--arguments", default="{}", help="The tool's arguments as a JSON object.")
        parser.add_argument("--refresh", action="store_true", help="Run again even where an observation is stored.")
        parser.add_argument("--workers", type=int, default=2, help="Hosts run at once (default 2).")
        parser.add_argument("--json", action="store_true", help="Print every observation as JSON.")
        parser.add_argument(
            "--versions",
            metavar="SPEC",
            help="Sweep versions of one --host: a range 1.14.0..1.18.33, a list a,b,c, or latest:N.",
        )
        parser.add_argument("--bisect", action="store_true", help="With --versions: narrow each change to its version.")
        parser.add_argument("--enqueue", action="store_true", help="With --versions: queue one task per version.")
        parser.add_argument(
            "--target", metavar="NAME", help="Run the hosts through this configured target (it fronts the fixture)."
        )
        parser.add_argument(
            "--claims",
            action="store_true",
            help="Check every loaded register's host claims against the ranges at the version each register pins.",
        )
        parser.add_argument("--export-snapshot", metavar="FILE", help="Write the stored observations to FILE.")
        parser.add_argument("--load-snapshot", metavar="FILE", help="Store the observations of FILE not stored yet.")
        parser.add_argument(
            "--conformance",
            action="store_true",
            help="Run the official conformance suite's client scenarios against each host instead.",
        )

    def handle(self, *args, **options):
        if options["export_snapshot"] or options["load_snapshot"]:
            return self._snapshot(options["export_snapshot"], options["load_snapshot"])
        workers = max(1, min(options["workers"], 8))
        if options["claims"]:
            return self._claims(options["json"])
        if options["versions"]:
            return self._sweep(options)
        if options["target"]:
            return self._target(options, workers)
        if options["conformance"]:
            outcome = lab_services.run_conformance(options["host"], options["scenario"], refresh=options["refresh"])
        elif options["server_command"]:
            outcome = self._server(options, workers)
        else:
            unknown = sorted(set(options["scenario"] or []) - set(catalogue.BY_TOOL))
            if unknown:
                raise CommandError(f"no such scenario: {', '.join(unknown)} (known: {', '.join(catalogue.BY_TOOL)})")
            outcome = lab_services.run_fixture(
                options["host"], options["scenario"], refresh=options["refresh"], workers=workers
            )
        if options["json"]:
            self.stdout.write(json.dumps(outcome.observations, indent=2))
            return
        for item in outcome.observations:
            cells = ", ".join(f"{cell['feature']} {cell['chip']}" for cell in item["cells"])
            parted = f"  [model parts: {len(item['partings'])}]" if item["partings"] else ""
            self.stdout.write(f"{item['host']}@{item['version']} {item['scenario']}: {cells}{parted}")
        self.stdout.write(f"{outcome.ran} run, {outcome.reused} reused from earlier runs")

    def _sweep(self, options) -> None:
        hosts = options["host"] or []
        if len(hosts) != 1:
            raise CommandError("--versions sweeps one host: give exactly one --host")
        try:
            if options["enqueue"]:
                outcome = tasks.queue_sweep(hosts[0], options["versions"])
            else:
                outcome = lab_sweeps.sweep(
                    hosts[0], options["versions"], bisect=options["bisect"], workers=max(1, min(options["workers"], 8))
                )
        except (versions.SpecError, version_cache.InstallError) as error:
            raise CommandError(f"--versions {options['versions']}: {error}") from None
        if options["json"]:
            data = dataclasses.asdict(outcome) | {"queued": bool(options["enqueue"])}
            if not options["enqueue"]:
                data["ranges"] = lab_selectors.host_ranges(hosts[0])
            self.stdout.write(json.dumps(data, indent=2, ensure_ascii=False))
            return
        if options["enqueue"]:
            self.stdout.write(f"{len(outcome.versions)} version task(s) queued: {', '.join(outcome.versions)}")
            return
        for version, seconds in outcome.install_seconds.items():
            self.stdout.write(f"{hosts[0]}@{version}: installed or found in {seconds:.1f} s")
        for version, error in outcome.errors.items():
            self.stdout.write(f"{hosts[0]}@{version}: not measured, the install failed: {error[-300:]}")
        if outcome.bisected:
            self.stdout.write(f"bisected: measured {', '.join(outcome.bisected)}")
        for feature, line in lab_selectors.range_lines(hosts[0]):
            self.stdout.write(f"{feature}: {line}")
        self.stdout.write(f"{outcome.ran} run, {outcome.reused} reused")

    def _claims(self, as_json: bool) -> None:
        # The one read of the register rows a probe-app command makes, through the evidence layer.
        from evidence.lab_findings import claim_checks_of_every_row

        checks = claim_checks_of_every_row()
        if as_json:
            self.stdout.write(json.dumps(checks, indent=2))
            return
        for c in checks:
            self.stdout.write(
                f"{c['register']} {c['row']}: {c['register_host']} {c['version']} {c['claim']} ({c['claim_source']}); "
                f"lab {c['feature']}: {c['chip']} ({c['how']}): {c['verdict']}"
            )
        contradicted = sum(1 for c in checks if c["verdict"] == "contradicts")
        self.stdout.write(f"{len(checks)} claim(s) checked, {contradicted} contradicted")

    def _target(self, options, workers) -> None:
        from comparison.models import ProbeTarget

        target = ProbeTarget.objects.filter(name=options["target"]).first()
        if target is None:
            raise CommandError(f"no target named {options['target']!r}")
        try:
            outcome = lab_through.run_through_target(
                target.pk, options["host"], options["scenario"], refresh=options["refresh"], workers=workers
            )
        except lab_through.TargetUnanswered as error:
            raise CommandError(target.redactor().text(str(error))) from None
        # Each host directly too, where no capture of it is stored: a pass is always a comparison.
        rows = lab_through.compare_with_direct(outcome.observations)
        if options["json"]:
            self.stdout.write(json.dumps(rows, indent=2, default=str))
            return
        for row in rows:
            changed = ", ".join(f"{c['feature']} {c['direct']} → {c['via']}" for c in row["changed"])
            self.stdout.write(f"{row['host']} {row['scenario']}: {row['verdict']}{': ' + changed if changed else ''}")
        found = through.affected_hosts([(row["host"], row) for row in rows])
        affected = ", ".join(f"{host} ({count})" for host, count in found.items()) or "none"
        self.stdout.write(f"affected hosts: {affected}; {outcome.ran} run, {outcome.reused} reused")

    def _snapshot(self, export: str | None, load: str | None) -> None:
        if export:
            items = lab_services.export_snapshot()
            # One observation a line: small, and a re-measure shows as a line-by-line diff.
            lines = ",\n".join(json.dumps(item, sort_keys=True, separators=(",", ":")) for item in items)
            Path(export).write_text(f"[\n{lines}\n]\n", encoding="utf-8")
            self.stdout.write(f"{len(items)} observations written to {export}")
            return
        try:
            items = json.loads(Path(load).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"{load}: {error}") from None
        if not isinstance(items, list):
            raise CommandError(f"{load}: expected a JSON list of observations")
        observations = sum(1 for item in items if isinstance(item, dict) and "key" in item)
        added = lab_services.load_snapshot(items)
        self.stdout.write(f"{added} of {observations} observations stored from {load} (with the hosts' release lists)")

    def _server(self, options, workers):
        if not options["tool"]:
            raise CommandError("--server-command needs --tool (the tool to call)")
        try:
            command = shlex.split(options["server_command"])
            arguments = json.loads(options["arguments"])
        except ValueError as error:
            raise CommandError(f"--server-command or --arguments: {error}") from None
        if not command or not isinstance(arguments, dict):
            raise CommandError("--server-command must name a program and --arguments must be a JSON object")
        return lab_services.run_server(
            RunSetup(server=command, arguments=arguments),
            options["tool"],
            hosts=options["host"],
            redactor=Redactor(own_secrets()),
            workers=workers,
        )
