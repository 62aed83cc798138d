"""manage.py probe: run a probe without the web UI and print every result."""

from __future__ import annotations

import json
import os
import shlex
import time
from collections import Counter

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from comparison.core import failures, pipeline
from comparison.core.era_grid import grid_of, grid_text, no_common_era
from comparison.hostlab import through
from comparison.management import probe_arguments
from comparison.models import ProbeTarget
from comparison.probes.assessment.compare import describe
from comparison.probes.conformance import conformance, conformance_run
from comparison.probes.run.play import RunPlan, play
from comparison.probes.run.runner import AS_EXPECTED, CHANGED, FAILED, INVALID, TargetSpec, builtin_fixture
from comparison.probes.run.scenarios import suite
from comparison.probes.targets.pinning import pinnable
from comparison.probes.targets.secrets import Redactor, command_secrets, display_command, display_url, url_userinfo
from comparison.selectors.lab import measured_for_probes, measured_hosts_of, shipped_observations
from comparison.services import lab_through
from language.vocabulary import PROBE_VERDICTS, ProbeVerdict


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as error:
        raise CommandError(f"cannot write {path}: {error}") from None


class Command(BaseCommand):
    help = (
        "Probe a target (a configured target's name, --url, --command, or --builtin) at each revision and print "
        "the results. Exits 1 when a result was changed by the proxy or could not be probed (with --strict, also "
        "when a result is invalid for its revision); with --baseline, exits 1 only for cells worse than the "
        "baseline."
    )

    def add_arguments(self, parser):
        probe_arguments.target_arguments(parser)
        probe_arguments.cell_and_output_arguments(parser)
        probe_arguments.pass_and_gate_arguments(parser)

    def handle(self, *args, **options):
        spec, upstream = self._spec(options)
        wanted = options["scenarios"]
        scenarios = [s for s in suite(spec.suite) if not wanted or s.key in wanted]
        if not scenarios:
            raise CommandError(f"no scenario of the {spec.suite} suite matches {wanted}")
        redactor = Redactor([*spec.headers.values(), *command_secrets(spec.command)])
        # A baseline that cannot be read fails before any probing.
        baseline = self._read_baseline(options["baseline"]) if options["baseline"] else None
        started = time.monotonic()
        suite_pass: dict = {}

        def conformance_pass() -> None:
            suite_pass["rows"], suite_pass["status"] = conformance_run.compare_target(spec.url, spec.transport)

        pins = options["upstream_revisions"] or []
        if pins and (why := pinnable(spec)):
            raise CommandError(redactor.text(why))
        try:
            plan = _plan(spec, upstream, scenarios, options)
            outcomes = play(plan, plan.control(), while_served=conformance_pass if options["conformance"] else None)
        except Exception as error:  # whatever a target does ends as a message, never a traceback
            message = f"the probe could not complete: {type(error).__name__}: {error}"
            raise CommandError(redactor.text(message)) from None
        results = [redactor.data(o.as_dict()) for o in outcomes]
        real_hosts = self._real_hosts(spec, options, redactor) if options["real_hosts"] else None
        if options["conformance"]:
            results += redactor.data(conformance.as_results(suite_pass.get("rows", []), suite_pass.get("status", "")))
        counts = Counter(result["verdict"] for result in results)
        if options["audit"]:
            scored = [{"profiles": o.dpcter} for o in outcomes if o.dpcter]
            self.stdout.write(failures.audit_text(failures.audit(scored)))
            self.stdout.write(pipeline.LEGEND)
        if options["json"]:
            report = {"target": spec.name, "counts": counts, "results": results}
            if real_hosts is not None:
                report["real_hosts"] = real_hosts
            self.stdout.write(json.dumps(report, indent=2, ensure_ascii=False))
        else:
            self._print_text(outcomes, counts, redactor, suite_pass if options["conformance"] else None, real_hosts)
        if options["junit"]:
            seconds = time.monotonic() - started
            _write(
                options["junit"],
                pipeline.junit_xml(spec.name, results, strict=options["strict"], seconds=seconds, baseline=baseline),
            )
        if options["update_baseline"]:
            _write(options["update_baseline"], pipeline.write_baseline(results, spec.name))
            if baseline is None:
                # Writing the first baseline records what is: it breaks no expectation.
                self.stdout.write(f"baseline written to {options['update_baseline']}: {len(results)} cell(s)")
                return
        if baseline is not None:
            self._gate_on_baseline(options, baseline, results)
            return
        failing = _failing(results, counts, strict=options["strict"], grid=bool(pins), direct=self._direct)
        # A real host that saw something else through the target is a change the proxy made.
        failing += sum(host["differs"] for host in (real_hosts or {}).get("hosts", {}).values())
        if failing:
            raise CommandError(f"{failing} result(s) broke an expectation", returncode=1)

    def _print_text(self, outcomes, counts, redactor: Redactor, suite_pass: dict | None, real_hosts: dict | None):
        """The cells as aligned lines, then the conformance pass's losses and sentence, then the real hosts."""
        self._print_lines(outcomes, counts, redactor)
        if suite_pass is not None:
            rows, status = suite_pass.get("rows", []), suite_pass.get("status", "")
            lost = [
                ["conformance", row["scenario"], row["verdict"], row["message"][:150]]
                for row in rows
                if row["verdict"] != AS_EXPECTED
            ]
            for line in pipeline.aligned(lost):
                self.stdout.write(redactor.text(line))
            self.stdout.write(redactor.text(conformance.summary(rows, status).sentence()))
        if real_hosts is not None:
            self._print_real_hosts(real_hosts, redactor)

    target: ProbeTarget | None = None
    #: The target is the fixture itself (no proxy between): a grid's counter-offers are its own.
    _direct = False

    def _real_hosts(self, spec: TargetSpec, options, redactor: Redactor) -> dict:
        """A configured target's pass is stored (and reused next time); an ad-hoc one is not."""
        if self.target is not None:
            return lab_through.real_hosts_pass(self.target.pk, scenarios=options["scenarios"])
        try:
            asked = lab_through.ThroughPass(
                "cli",
                redactor,
                scenarios=lab_through.lab_scenarios_of(options["scenarios"]),
                builtin=options["builtin"],
            )
            found, todo, identity = lab_through.through_spec(spec, asked)
            rows = lab_through.compare_with_direct([item for _, item in found.values()])
        except Exception as error:  # a host or target failing is reported, never a traceback
            return {"status": "failed", "error": redactor.text(f"{type(error).__name__}: {error}")[:2000]}
        return through.summary(rows, len(todo), 0, identity)

    def _print_real_hosts(self, summary: dict, redactor: Redactor) -> None:
        if summary["status"] != "done":
            self.stdout.write(redactor.text(f"real hosts: not run: {summary.get('error', '')}"))
            return
        for host in summary["hosts"].values():
            self.stdout.write(redactor.text(f"real host {through.words(host)}"))
        self.stdout.write(f"real hosts: {summary['ran']} run(s), {summary['reused']} reused")

    def _print_lines(self, outcomes, counts, redactor) -> None:
        rows = []
        for o in outcomes:
            detail = o.failure or "; ".join(describe(o.diff[:3])) or "; ".join(f["message"] for f in o.findings[:2])
            upstream = f" ⇢ upstream {o.upstream_revision}" if o.upstream_revision else ""
            revisions = f"{o.requested}→{o.negotiated or '?'}{upstream}"
            rows.append([revisions, o.scenario.key, str(o.verdict), detail[:150]])
        for line in pipeline.aligned(rows):
            self.stdout.write(redactor.text(line))
        if any(o.upstream_revision for o in outcomes):
            direct = self._direct
            self.stdout.write(grid_text(grid_of([o.as_dict() for o in outcomes], direct=direct)))
        shown = [v for v in PROBE_VERDICTS if v in (AS_EXPECTED, CHANGED, INVALID, FAILED) or counts.get(v)]
        self.stdout.write(", ".join(f"{counts.get(v, 0)} {v}" for v in shown))

    @staticmethod
    def _read_baseline(path: str) -> dict:
        try:
            with open(path, encoding="utf-8") as file:
                return pipeline.read_baseline(file.read(), path)
        except (OSError, UnicodeDecodeError, pipeline.BaselineError) as error:
            raise CommandError(f"cannot use the baseline: {error}") from None

    def _gate_on_baseline(self, options, baseline: dict, results) -> None:
        path = options["baseline"]
        found = pipeline.check_baseline(baseline, results)
        for scenario, revision, was, now in found.regressions:
            self.stderr.write(f"regression: {scenario}@{revision}: {was} → {now}")
        for scenario, revision, was, now in found.stale:
            self.stderr.write(f"stale baseline entry: {scenario}@{revision}: {was}, now {now}")
        for scenario, revision in found.unprobed:
            self.stderr.write(f"not probed: {scenario}@{revision} (in the baseline)")
        failing = len(found.regressions) + (len(found.stale) if options["strict_baseline"] else 0)
        summary = f"baseline {path}: {len(found.regressions)} regression(s), {len(found.stale)} stale entr(ies)"
        if failing:
            raise CommandError(summary, returncode=1)
        self.stdout.write(summary)

    def _spec(self, options) -> tuple[TargetSpec, TargetSpec | None]:
        chosen = [bool(options["target"]), options["builtin"], bool(options["url"]), bool(options["command"])]
        if sum(chosen) != 1:
            raise CommandError("give exactly one of TARGET, --builtin, --url or --command")
        if options["builtin"]:
            spec = builtin_fixture()
            self._direct = True
        elif options["target"]:
            try:
                target = ProbeTarget.objects.get(name=options["target"])
            except ProbeTarget.DoesNotExist:
                raise CommandError(f"no configured target named {options['target']!r}") from None
            self.target = target
            self._direct = target.builtin
            return target.spec(), target.upstream_spec()
        elif options["url"]:
            _refuse_userinfo("--url", options["url"])
            spec = TargetSpec(
                display_url(options["url"]),
                "http",
                url=options["url"],
                headers=_headers(options["header"], options["header_env"]),
                suite=options["suite"],
            )
        else:
            command = shlex.split(options["command"])
            spec = TargetSpec(" ".join(display_command(command)), "stdio", command=command, suite=options["suite"])
        if options["upstream_fixture"]:
            spec.upstream = "fixture"
        upstream = None
        if options["upstream_url"]:
            _refuse_userinfo("--upstream-url", options["upstream_url"])
            upstream = TargetSpec("upstream", "http", url=options["upstream_url"], suite=spec.suite)
        return spec, upstream


def _refuse_userinfo(option: str, url: str) -> None:
    if url_userinfo(url):
        raise CommandError(
            f"{option}: credentials in the URL (user:password@…) would be printed with it; "
            "pass them as a header instead (--header 'Authorization: Basic …' or --header-env NAME=VARIABLE)"
        )


def _headers(pairs: list[str], from_env: list[str]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for pair in pairs:
        name, colon, value = pair.partition(":")
        if not colon or not name.strip():
            raise CommandError(f"--header expects 'NAME: VALUE', got {name.strip()[:40]!r}…")
        headers[name.strip()] = value.strip()
    for pair in from_env:
        name, equals, variable = pair.partition("=")
        if not equals or not name.strip() or not variable.strip():
            raise CommandError(f"--header-env expects NAME=VARIABLE, got {pair[:60]!r}")
        if variable.strip() not in os.environ:
            raise CommandError(f"--header-env {name.strip()}: the environment has no variable {variable.strip()!r}")
        headers[name.strip()] = os.environ[variable.strip()]
    return headers


def _measured_hosts() -> dict:
    """The lab's chips for the predictions: this database's, or, where the command runs with no
    usable database (a proxy's own CI), the shipped snapshot's."""
    try:
        return measured_for_probes()
    except Exception:  # no database, or not migrated: the predictions still have the shipped chips
        return measured_hosts_of(shipped_observations())


def _failing(results: list[dict], counts: Counter, *, strict: bool, grid: bool, direct: bool) -> int:
    """The cells that break an expectation: changed, lost or refused by the proxy, failed to probe or
    not testable (and, strict, invalid for the revision); not a grid pair with no common era that
    fails as the revisions' rules say it must."""
    failing = sum(counts.get(v, 0) for v in (*pipeline.FAILING, FAILED, ProbeVerdict.NOT_TESTABLE))
    expected_failures = no_common_era(grid_of(results, direct=direct)) if grid else set()
    failing -= sum(
        1
        for r in results
        if r["verdict"] == FAILED and (r["requested_revision"], r.get("upstream_revision")) in expected_failures
    )
    return failing + (counts.get(INVALID, 0) if strict else 0)


def _plan(spec: TargetSpec, upstream: TargetSpec | None, scenarios: list, options: dict) -> RunPlan:
    """The run the options ask for: its cells, tries, deadline and upstream revisions."""
    return RunPlan(
        target=spec,
        scenarios=scenarios,
        revisions=options["revisions"],
        upstream=upstream,
        tries=options["tries"] or settings.PROBE_TRIES,
        deadline_seconds=settings.RUN_DEADLINE_SECONDS if options["deadline"] is None else options["deadline"],
        upstream_revisions=options["upstream_revisions"] or [],
        lab=_measured_hosts(),
    )
