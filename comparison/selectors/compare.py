"""Reads for the comparison of two or more probe runs: the runs' results side by side with their
interop scores, DPCTER profiles and charts. Views call these and render; nothing here writes."""

from __future__ import annotations

from django.http import Http404

from common import charts
from comparison.core import failures
from comparison.models import ProbeResult, ProbeRun
from comparison.probes.assessment import multicompare
from comparison.probes.assessment.result_shape import repaired
from comparison.probes.run.scenarios import SUITES, suite
from language.vocabulary import HOST_NAMES, HOST_PATH_LABELS, PROBE_VERDICTS, SCORED_HOSTS

MAX_COMPARED_RUNS = 8
#: Each scenario's title by key, across every suite: the cells are named as the run page names them.
SCENARIO_TITLES = {scenario.key: scenario.title for name in SUITES for scenario in suite(name)}
RESULT_COLUMNS = ("id", "run_id", "scenario", "requested_revision", "verdict", "failure", "diff", "interop", "dpcter")


def dpcter_profile(results: list[dict]) -> list[dict]:
    """Per coordinate: the published figures and each consumer's typed / with-text counts."""
    table = failures.audit([{"profiles": r["dpcter"]} for r in results if r["dpcter"]])
    consumers = [c for c in failures.CONSUMERS if table[c]["D"].total]
    return [
        {
            "coordinate": key,
            "name": failures.NAMES[key],
            "published": {"typed": failures.PUBLISHED[key][0], "with_text": failures.PUBLISHED[key][1]},
            "published_total": failures.PUBLISHED_TOTAL,
            "consumers": {
                HOST_PATH_LABELS.get(c, c): {
                    "typed": table[c][key].typed,
                    "with_text": table[c][key].with_text,
                    "total": table[c][key].total,
                }
                for c in consumers
            },
        }
        for key in failures.COORDINATES
    ]


def runs_compared(run_ids: list[int]) -> multicompare.Comparison:
    """The chosen runs (in the order given) side by side; two queries. A run that does not exist
    is a 404 that names it, never a column silently left out."""
    runs = ProbeRun.objects.select_related("target").in_bulk(run_ids[:MAX_COMPARED_RUNS])
    if missing := [pk for pk in run_ids[:MAX_COMPARED_RUNS] if pk not in runs]:
        raise Http404(f"No probe run #{missing[0]}.")
    ordered = [runs[pk] for pk in dict.fromkeys(run_ids) if pk in runs]
    results: dict[int, list[dict]] = {run.pk: [] for run in ordered}
    for values in (
        ProbeResult.objects.filter(run_id__in=list(results)).diagonal().order_by("id").values(*RESULT_COLUMNS)
    ):
        # Read as values, not models: repaired here as ProbeResult.from_db repairs a model.
        values = {**values, **repaired({name: values[name] for name in ("diff", "interop", "dpcter")})[0]}
        values["revision"] = values.pop("requested_revision")
        results[values["run_id"]].append(values)
    return multicompare.compare_runs(
        [
            {
                "id": run.pk,
                "target": run.target.name,
                "status": run.status,
                "created": run.created.isoformat(timespec="seconds"),
                "results": results[run.pk],
                "dpcter": dpcter_profile(results[run.pk]),
                "conformance": run.conformance_results if run.conformance else None,
                "identity": run.server_identity,
            }
            for run in ordered
        ]
    )


def _host_differs(line) -> bool:
    return any(cell and cell.differs_for for cell in line.cells)


def _differs(line) -> bool:
    return line.verdicts_differ or _host_differs(line)


#: Which cells the page lists (`?only=`), worded and tested: by default only those where the runs
#: part, every cell on demand.
ONLY_CHOICES = {
    "": ("the cells that differ (a verdict, or what a host gets)", _differs),
    "all": ("every cell", lambda line: True),
    "differ": ("the cells whose verdicts differ", lambda line: line.verdicts_differ),
    "host-differs": ("the cells where a host gets something else", _host_differs),
}


def many_compare_page(run_ids: list[int], only: str) -> dict:
    found = runs_compared(run_ids)
    only = only if only in ONLY_CHOICES else ""
    text, keep = ONLY_CHOICES[only]
    return {
        "comparison": found,
        "lines": [line for line in found.lines if keep(line)],
        "only": only,
        "only_choices": [(value, wording) for value, (wording, _) in ONLY_CHOICES.items()],
        "only_text": text,
        "titles": SCENARIO_TITLES,
        "max_runs": MAX_COMPARED_RUNS,
        "runs": ProbeRun.objects.select_related("target").order_by("-pk")[:200],
        "chosen": [column.run_id for column in found.columns],
        "hosts": [(host, HOST_NAMES[host]) for host in SCORED_HOSTS],
        "verdicts": PROBE_VERDICTS,
        "export_formats": [("md", "Markdown"), ("html", "HTML report"), ("json", "JSON"), ("csv", "CSV")],
        "charts": comparison_charts(found),
    }


PROXY_OUTPUT = failures.CONSUMERS[0]


def comparison_charts(found: multicompare.Comparison) -> list[charts.Chart]:
    """Interop per target and per host, and each target's DPCTER profile beside the published one."""
    columns = found.columns
    named = [(f"#{c.run_id} {c.target}", c) for c in columns]
    interop = charts.chart(
        "Interop: cells where every host gets what the upstream sends",
        [charts.share_bar(name, c.score.overall.same, c.score.overall.scored) for name, c in named],
    )
    per_host = charts.chart(
        "Interop per host",
        [
            charts.share_bar(f"{HOST_NAMES[host]} · #{c.run_id}", c.score.hosts[host].same, c.score.hosts[host].scored)
            for host in SCORED_HOSTS
            for c in columns
        ],
    )
    coordinates = []
    for index, key in enumerate(failures.COORDINATES):
        typed, _ = failures.PUBLISHED[key]
        outputs = [
            (name, cell["typed"], cell["total"])
            for name, c in named
            if c.dpcter and (cell := c.dpcter[index]["consumers"].get(PROXY_OUTPUT))
        ]
        coordinates.append((failures.NAMES[key], (typed, failures.PUBLISHED_TOTAL), outputs))
    dpcter = charts.dpcter_bars("DPCTER: typed fields in the proxy's output, published vs each target", coordinates)
    return [interop, per_host, dpcter]
