"""What a proxy's own CI takes from a probe: JUnit XML for its test view, and a baseline of
expected results that gates the build only on cells that got worse. Pure: results are the dicts
`ProbeOutcome.as_dict()` gives (and `probe --json` prints).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Any

from comparison.probes.assessment.compare import describe
from language.vocabulary import SCORED_HOSTS, ProbeVerdict

#: Worse to the right: a cell regresses when its verdict moves right of the baseline's.
#: "Not compared" (nothing to compare with) is no worse than as expected; "intermittent" is its own
#: verdict, worse than a change, better than a loss every time.
RANK = {
    ProbeVerdict.AS_EXPECTED: 0,
    ProbeVerdict.NOT_COMPARED: 0,
    ProbeVerdict.INVALID: 1,
    ProbeVerdict.CHANGED: 2,
    ProbeVerdict.INTERMITTENT: 3,
    ProbeVerdict.REFUSED: 4,
    ProbeVerdict.LOST: 4,
    ProbeVerdict.NOT_TESTABLE: 5,
    ProbeVerdict.FAILED: 6,
}
#: Verdicts that fail a test case: the proxy changed, refused or lost what the upstream sent (in
#: every try, or in some).
FAILING = (ProbeVerdict.CHANGED, ProbeVerdict.REFUSED, ProbeVerdict.LOST, ProbeVerdict.INTERMITTENT)
BASELINE_LINE = re.compile(
    r"^\s*(?P<scenario>[\w.-]+)@(?P<revision>\d{4}-\d{2}-\d{2}(?:/\d{4}-\d{2}-\d{2})?)\s*:\s*(?P<verdict>[a-z ]+?)\s*$"
)


def cell_revision(result: dict[str, Any]) -> str:
    """The revision a cell is keyed by: the client's, or "client/upstream" for a pair of the
    cross-era grid whose upstream spoke another revision."""
    client, upstream = str(result["requested_revision"]), str(result.get("upstream_revision") or "")
    return f"{client}/{upstream}" if upstream and upstream != client else client


def cell_key(result: dict[str, Any]) -> tuple[str, str]:
    return str(result["scenario"]), cell_revision(result)


def _detail(result: dict[str, Any]) -> str:
    if result.get("failure"):
        return str(result["failure"])
    diffs = describe(result.get("diff"))
    if diffs:
        return "; ".join(diffs)
    return "; ".join(str(f.get("message", "")) for f in result.get("findings") or [])


def junit_xml(
    target: str,
    results: list[dict[str, Any]],
    *,
    strict: bool = False,
    seconds: float = 0.0,
    baseline: dict[tuple[str, str], str] | None = None,
) -> str:
    """One test suite for the target, one test case per scenario × revision (class = scenario,
    name = revision). Changed, refused or lost by proxy is a failure, failed to probe or not testable
    an error, invalid for the
    revision a failure under `strict` (otherwise a note in the case's output). With a baseline, a
    cell no worse than its baseline verdict is skipped ("expected by the baseline"), so the test
    view fails exactly where the exit code does."""
    failing = errors = skipped = 0
    suite = ET.Element("testsuite", name=f"mcp-compare probe: {target}", tests=str(len(results)))
    properties = ET.SubElement(suite, "properties")
    ET.SubElement(properties, "property", name="target", value=target)
    for result in results:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=str(result["scenario"]),
            name=cell_revision(result),
            time=f"{float(result.get('duration_ms') or 0) / 1000:.3f}",
        )
        _case_properties(case, target, result)
        verdict, detail = result["verdict"], _detail(result)
        expected = (baseline or {}).get(cell_key(result))
        if expected and verdict != ProbeVerdict.AS_EXPECTED and RANK[verdict] <= RANK[expected]:
            skipped += 1
            ET.SubElement(case, "skipped", message=f"expected by the baseline: {expected}").text = detail
        elif verdict == ProbeVerdict.NOT_COMPARED:
            skipped += 1
            ET.SubElement(case, "skipped", message="not compared: nothing to compare the answer with").text = detail
        elif verdict in (ProbeVerdict.FAILED, ProbeVerdict.NOT_TESTABLE):
            errors += 1
            ET.SubElement(case, "error", message=detail[:1000], type=str(verdict)).text = detail
        elif verdict in FAILING or (verdict == ProbeVerdict.INVALID and strict):
            failing += 1
            ET.SubElement(case, "failure", message=detail[:1000], type=str(verdict)).text = detail
        elif verdict == ProbeVerdict.INVALID:
            ET.SubElement(case, "system-out").text = f"invalid for revision (not failing without --strict): {detail}"
    suite.set("failures", str(failing))
    suite.set("errors", str(errors))
    suite.set("skipped", str(skipped))
    suite.set("time", f"{seconds:.3f}")
    root = ET.Element("testsuites", name="mcp-compare", tests=str(len(results)), failures=str(failing))
    root.set("errors", str(errors))
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _case_properties(case: ET.Element, target: str, result: dict[str, Any]) -> None:
    """The cell's revisions, target, verdict and the hosts it affects, as the case's properties."""
    case_properties = ET.SubElement(case, "properties")
    ET.SubElement(
        case_properties, "property", name="negotiated_revision", value=result.get("negotiated_revision") or ""
    )
    if result.get("upstream_revision"):
        # A pair of the cross-era grid names the revision its upstream was pinned to.
        ET.SubElement(case_properties, "property", name="upstream_revision", value=str(result["upstream_revision"]))
    ET.SubElement(case_properties, "property", name="target", value=target)
    ET.SubElement(case_properties, "property", name="verdict", value=str(result["verdict"]))
    interop = result.get("interop") if isinstance(result.get("interop"), dict) else {}
    for name, same in (("hosts_affected", False), ("hosts_unaffected", True)):
        hosts = [host for host in SCORED_HOSTS if interop.get(host) is same]
        ET.SubElement(case_properties, "property", name=name, value=",".join(hosts))


class BaselineError(ValueError):
    """A baseline file that cannot be read; the message names the line."""


def read_baseline(text: str, name: str = "baseline") -> dict[tuple[str, str], str]:
    """{(scenario, revision): verdict} from `probe --json` output, or from lines
    `scenario@revision: verdict` (blank lines and `#` comments ignored)."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            data = json.loads(text)
            return {cell_key(r): _verdict(r["verdict"], name, 0) for r in data["results"]}
        except BaselineError:
            raise
        except (ValueError, KeyError, TypeError) as error:
            raise BaselineError(f"{name}: not a `probe --json` output ({error})") from None
    found: dict[tuple[str, str], str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = BASELINE_LINE.match(line)
        if not match:
            raise BaselineError(
                f"{name}, line {number}: expected `scenario@YYYY-MM-DD: verdict` (or `scenario@CLIENT/UPSTREAM: "
                f"verdict` for a grid pair), got {line.strip()!r}"
            )
        found[(match["scenario"], match["revision"])] = _verdict(match["verdict"], name, number)
    return found


def _verdict(text: str, name: str, line: int) -> str:
    if text not in RANK:
        where = f", line {line}" if line else ""
        raise BaselineError(f"{name}{where}: unknown verdict {text!r} (one of: {', '.join(RANK)})")
    return str(text)


def write_baseline(results: list[dict[str, Any]], target: str) -> str:
    lines = [f"# mcp-compare baseline for {target}: scenario@revision: verdict (the expected result of each cell)"]
    lines += [f"{r['scenario']}@{cell_revision(r)}: {r['verdict']}" for r in results]
    return "\n".join(lines) + "\n"


@dataclass
class BaselineCheck:
    regressions: list[tuple[str, str, str, str]] = field(default_factory=list)  # scenario, revision, was, now
    stale: list[tuple[str, str, str, str]] = field(default_factory=list)  # cells now better than the baseline
    unprobed: list[tuple[str, str]] = field(default_factory=list)  # baseline cells this probe did not run


def check_baseline(baseline: dict[tuple[str, str], str], results: list[dict[str, Any]]) -> BaselineCheck:
    """A cell not in the baseline is expected to be as expected."""
    found = BaselineCheck()
    seen = set()
    for result in results:
        key = cell_key(result)
        seen.add(key)
        was, now = baseline.get(key, str(ProbeVerdict.AS_EXPECTED)), str(result["verdict"])
        if RANK[now] > RANK[was]:
            found.regressions.append((*key, was, now))
        elif RANK[now] < RANK[was]:
            found.stale.append((*key, was, now))
    found.unprobed = [key for key in baseline if key not in seen]
    return found


LEGEND = (
    "Coordinates: D Detection (is it a failure?), P Policy (what to do next: retry, fix the argument, "
    "re-authenticate, give up), C Cause (which kind of failure), T Target (which argument or resource), "
    "E Executable repair (a change software can apply), R Replay constraints (whether and when the same request "
    "may be sent again)."
)


def aligned(rows: list[list[str]]) -> list[str]:
    """Lines of columns, each padded to its widest cell (the last left as is), so long scenario or
    verdict names never push the columns after them out of line."""
    widths = [
        max((len(row[index]) for row in rows if index < len(row)), default=0)
        for index in range(max(map(len, rows), default=0))
    ]
    return [
        " ".join(cell.ljust(widths[i]) if i < len(row) - 1 else cell for i, cell in enumerate(row)).rstrip()
        for row in rows
    ]
