"""What a result's page shows: its exchanges highlighted, the host views, one line per host of
its interop, and for a family cell what each host would see."""

from __future__ import annotations

import json

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import JsonLexer

from comparison.hosts import change_kinds, protocol
from comparison.hosts.present import PresentedView
from comparison.models import ProbeResult
from comparison.probes import families
from comparison.probes.assessment import diffing, sequence
from language.vocabulary import HOST_NAMES, PROBE_VERDICTS, SCORED_HOSTS, ProbeVerdict

#: JSON shown on a result page is cut at this many characters: a page never carries megabytes.
MAX_JSON_SHOWN = 200_000


def json_html(value) -> str:
    text = json.dumps(value, indent=2, ensure_ascii=False)[:MAX_JSON_SHOWN]
    # Focusable, so a keyboard can scroll a long document (it scrolls inside its own box).
    html = highlight(text, JsonLexer(), HtmlFormatter(cssclass="highlight json"))
    return html.replace("<pre>", '<pre tabindex="0">', 1)


def result_page(result: ProbeResult) -> dict:
    return {
        "result": result,
        "run": result.run,
        "exchanges": [
            {"exchange": e, "request_html": json_html(e.get("request")), "response_html": json_html(e.get("response"))}
            for e in result.exchanges
        ],
        "views": [PresentedView.from_json(view) for view in result.host_views],
        **diff_parts(result.diff),
        "host_lines": host_lines(result.interop),
        "predictions": [p for p in result.predictions or [] if isinstance(p, dict)],
        "played": bool(families.BY_NAME.get(result.family) and families.BY_NAME[result.family].play),
        "host_outcomes": host_outcomes(result),
        "host_aspect": protocol.aspect(result.scenario),
        "sequence": sequence.lines(result.exchanges),
        "upstream_report": json_html(report) if (report := sequence.upstream_report(result.exchanges)) else "",
        "proxy_findings": [_with_kind(f) for f in result.findings if isinstance(f, dict) and "verdict" in f],
        "revision_findings": [f for f in result.findings if isinstance(f, dict) and "verdict" not in f],
        "tries": [
            {
                **attempt,
                "findings": [_with_kind(f) for f in attempt.get("findings") or [] if isinstance(f, dict)],
                "sequence": sequence.lines(attempt.get("exchanges") or []),
            }
            for attempt in result.tries
            if isinstance(attempt, dict)
        ],
    }


def diff_parts(diff: list | None) -> dict:
    """A result's differences cut for its page: the groups first, the first rows shown, the rest
    folded, and whether the probe stopped counting (diffing.MAX_DIFFS)."""
    entries = [entry for entry in diff or [] if isinstance(entry, dict)]
    return {
        "diff_groups": diffing.groups(entries),
        "diff_shown": entries[: diffing.SHOWN_DIFFS],
        "diff_folded": entries[diffing.SHOWN_DIFFS :],
        "diff_capped": len(entries) >= diffing.MAX_DIFFS,
    }


def _with_kind(finding: dict) -> dict:
    """A finding with the title of the kind of change it names (change_kinds), when it names one."""
    return {**finding, "kind_title": change_kinds.title(finding["kind"])} if finding.get("kind") else finding


def host_lines(scored: dict | None) -> list[dict]:
    """One line per host of a result's interop: whether it gets what the upstream sends (none when
    the cell was not scored: `interop` is null)."""
    scored = scored or {}
    return [
        {"host": host, "label": HOST_NAMES[host], "affected": not scored[host]}
        for host in SCORED_HOSTS
        if host in scored
    ]


def host_outcomes(result: ProbeResult) -> list:
    """What each host would see of a family cell (comparison.hosts.protocol); none for the cells
    the host models read as results."""
    family = families.BY_NAME.get(result.family)
    if not (family and family.play):
        return []
    return protocol.outcomes(
        protocol.Cell(
            result.scenario,
            result.negotiated_revision or result.requested_revision,
            result.verdict,
            expected=PROBE_VERDICTS[0],
            testable=result.verdict not in (ProbeVerdict.NOT_TESTABLE, ProbeVerdict.NOT_COMPARED),
            failed=result.verdict == ProbeVerdict.FAILED,
            kinds=protocol.finding_kinds(result.findings),
        )
    )
