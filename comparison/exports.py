"""Downloads of probe pages: the comparison of runs as Markdown, HTML (self-contained, charts
inline), JSON or CSV, from the same parameters as the page."""

from __future__ import annotations

from django.http import HttpResponse
from django.template.loader import render_to_string

from common.charts import Chart
from common.http import export_policy
from comparison.core import reports
from comparison.probes.assessment.multicompare import Comparison
from language import linking
from language.vocabulary import HOST_NAMES, PROBE_VERDICTS, SCORED_HOSTS

COMPARISON_FORMATS = {
    "md": "text/markdown; charset=utf-8",
    "html": "text/html; charset=utf-8",
    "json": "application/json",
    "csv": "text/csv; charset=utf-8",
}


def comparison_response(found: Comparison, fmt: str, charts: list[Chart], *, base_url: str = "") -> HttpResponse:
    data = found.as_dict()
    if fmt == "md":
        body = reports.comparison_markdown(data, {host: HOST_NAMES[host] for host in SCORED_HOSTS})
    elif fmt == "json":
        body = reports.comparison_json(data)
    elif fmt == "csv":
        body = "".join(reports.comparison_csv(data))
    else:
        context = {
            "comparison": found,
            "lines": found.lines,
            "charts": charts,
            "verdicts": PROBE_VERDICTS,
            "hosts": [(host, HOST_NAMES[host]) for host in SCORED_HOSTS],
        }
        # Absolute links: the results and runs it links to stay reachable from the downloaded file.
        body = linking.absolute_links(render_to_string("reports/comparison.html", context), base_url)
    response = HttpResponse(body, content_type=COMPARISON_FORMATS[fmt])
    runs = "-".join(str(column.run_id) for column in found.columns)
    response["Content-Disposition"] = f'attachment; filename="mcp-compare-runs-{runs}.{fmt}"'
    return export_policy(response)
