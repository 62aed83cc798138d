"""The official conformance suite (@modelcontextprotocol/conformance) as a part of a run: its
results read from the folder it writes, Direct (against the fixture) beside Via (through the
target), each suite scenario mapped to our scenario families and register rows, and where the two
opinions about the same target part. Pure, no Django; conformance_run.py runs the suite.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from comparison.probes.families import fixture_scenarios
from language.anchors.vocabulary import page_topic, vocabulary
from language.vocabulary import ProbeVerdict as V
from language.vocabulary import Revision

SUITE = "@modelcontextprotocol/conformance"
SUITE_VERSION = "0.1.16"
#: The revision the suite's client negotiates (SDK latest at 0.1.16); its checks cite 2025-06-18.
SUITE_REVISION = Revision.V2025_11_25
NOT_HTTP = "not testable by the conformance suite: it speaks HTTP only"
MAX_MESSAGE = 500
MAX_CHECKS = 50
_FOLDER = re.compile(r"^server-(?P<name>[a-z0-9-]+?)-\d{4}-\d{2}-\d{2}T")

FIXTURE_SCENARIOS = fixture_scenarios()
#: Suite scenario -> (our scenarios that exercise the same thing, anchors beyond theirs). The
#: suite's checks cite spec sections; a suite row's anchors are its own and those of our scenarios.
MAP: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "server-initialize": (("told-version",), ()),
    "ping": ((), ("method:ping",)),
    "logging-set-level": (("logging",), ()),
    "completion-complete": ((), ("method:completion/complete", "page:completion")),
    "tools-list": (("tools-list",), ()),
    "tools-call-simple-text": (("text",), ()),
    "tools-call-image": (("image",), ()),
    "tools-call-audio": (("audio",), ()),
    "tools-call-embedded-resource": (("resource-text",), ()),
    "tools-call-mixed-content": (("mixed",), ()),
    "tools-call-with-logging": (("logging",), ()),
    "tools-call-error": (("is-error",), ()),
    "tools-call-with-progress": (("progress",), ()),
    "tools-call-sampling": (("ask-sampling",), ()),
    "tools-call-elicitation": (("ask-elicit-form",), ()),
    "elicitation-sep1034-defaults": (("ask-elicit-form",), ()),
    "elicitation-sep1330-enums": (("ask-elicit-form",), ()),
    "server-sse-multiple-streams": (("session-get",), ()),
    "resources-list": (("pages-resources",), ()),
    "resources-read-text": (("resource-read",), ()),
    "resources-read-binary": ((), ("method:resources/read", "type:BlobResourceContents")),
    "resources-templates-read": ((), ("method:resources/templates/list", "type:ResourceTemplate")),
    "resources-subscribe": (("resource-updated",), ()),
    "resources-unsubscribe": (("resource-updated",), ()),
    "prompts-list": (("prompts-list",), ()),
    "prompts-get-simple": (("prompt-multi",), ()),
    "prompts-get-with-args": (("prompt-multi",), ()),
    "prompts-get-embedded-resource": (("prompt-multi",), ()),
    "prompts-get-with-image": (("prompt-multi",), ()),
    "dns-rebinding-protection": ((), ("page:transports", "page:streamable-http")),
}


@dataclass(frozen=True)
class Check:
    id: str
    status: str  # SUCCESS, FAILURE, WARNING, INFO
    message: str = ""
    #: The spec pages the check cites (its `specReferences`), as anchors.
    references: tuple[str, ...] = ()


@dataclass
class Pass:
    """One side of the comparison: the suite's checks per scenario, or why it did not run."""

    scenarios: dict[str, list[Check]] = field(default_factory=dict)
    error: str = ""

    def passed(self, name: str) -> bool:
        checks = self.scenarios.get(name, [])
        return any(c.status == "SUCCESS" for c in checks) and not any(c.status == "FAILURE" for c in checks)


def _text(value: Any) -> str:
    return value[:MAX_MESSAGE] if isinstance(value, str) else ""


def read_checks(text: str) -> list[Check]:
    """One scenario's checks.json; anything malformed is a FAILURE saying so, never an error."""
    try:
        data = json.loads(text)
    except ValueError:
        return [Check("checks.json", "FAILURE", "the suite wrote checks that are not JSON")]
    if not isinstance(data, list):
        return [Check("checks.json", "FAILURE", "the suite wrote checks that are not a list")]
    checks = []
    for item in data[:MAX_CHECKS]:
        if isinstance(item, dict):
            checks.append(
                Check(
                    _text(item.get("id")) or "?",
                    _text(item.get("status")),
                    _text(item.get("errorMessage")),
                    _references(item.get("specReferences")),
                )
            )
    return checks


_SPEC_URL = re.compile(r"/specification/(?:\d{4}-\d{2}-\d{2}|draft|latest)/([\w/-]+?)/?(?:#([\w-]+))?$")


def _references(value: Any) -> tuple[str, ...]:
    """Page anchors of a check's `specReferences` ([{id, url}]): the spec page (and section) each
    URL points at; anything else is left out."""
    found: list[str] = []
    for item in value[:10] if isinstance(value, list) else ():
        url = item.get("url") if isinstance(item, dict) else None
        match = _SPEC_URL.search(url) if isinstance(url, str) and len(url) < 500 else None
        topic = page_topic(match.group(1)) if match else ""
        if topic in vocabulary().pages and topic not in ("index", "basic", "changelog"):
            found.append(f"page:{topic}")
            if match.group(2):
                found.append(f"page:{topic}#{match.group(2)}")
    return tuple(dict.fromkeys(found))


def read_folder(folder: Path) -> dict[str, list[Check]]:
    """{scenario: checks} from the folder `conformance server -o FOLDER` wrote."""
    found: dict[str, list[Check]] = {}
    for entry in sorted(folder.iterdir()) if folder.is_dir() else ():
        match = _FOLDER.match(entry.name)
        checks_file = entry / "checks.json"
        if match and checks_file.is_file():
            found[match["name"]] = read_checks(checks_file.read_text(encoding="utf-8", errors="replace")[:1_000_000])
    return found


def suite_anchors(ours: tuple[str, ...], own: tuple[str, ...]) -> tuple[str, ...]:
    """What a suite scenario exercises: its own anchors and those of our scenarios that match it."""
    declared = {scenario.key: scenario.anchors for scenario in FIXTURE_SCENARIOS}
    return tuple(dict.fromkeys([*own, *(anchor for key in ours for anchor in declared.get(key, ()))]))


@dataclass(frozen=True)
class Row:
    scenario: str
    direct: tuple[int, int]  # (checks passed, checks failed)
    via: tuple[int, int]
    verdict: str
    message: str
    ours: tuple[str, ...]  # our scenarios that exercise the same thing
    anchors: tuple[str, ...]
    direct_checks: tuple[Check, ...] = ()
    via_checks: tuple[Check, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "direct": {"passed": self.direct[0], "failed": self.direct[1], "checks": _checks(self.direct_checks)},
            "via": {"passed": self.via[0], "failed": self.via[1], "checks": _checks(self.via_checks)},
            "verdict": self.verdict,
            "message": self.message,
            "ours": list(self.ours),
            "anchors": list(self.anchors),
        }


def _checks(checks: tuple[Check, ...]) -> list[dict[str, str]]:
    """Each check the suite made, with its message (INFO lines are the suite's own trace: left out)."""
    return [{"id": c.id, "status": c.status, "message": c.message} for c in checks if c.status != "INFO"]


def _counts(checks: list[Check]) -> tuple[int, int]:
    return sum(c.status == "SUCCESS" for c in checks), sum(c.status == "FAILURE" for c in checks)


def _first_failure(checks: list[Check]) -> str:
    return next((f"{c.id}: {c.message}" for c in checks if c.status == "FAILURE"), "")


def compare(direct: Pass, via: Pass) -> list[Row]:
    """A row per suite scenario: as expected where the target passes what the fixture passes
    directly, lost by proxy where it fails what passes directly, not testable where the fixture
    itself does not pass it (so the scenario says nothing about the target)."""
    found = []
    for name in sorted(set(direct.scenarios) | set(via.scenarios)):
        ours, anchors = MAP.get(name, ((), ()))
        through = via.scenarios.get(name, [])
        if not direct.passed(name):
            verdict, message = V.NOT_TESTABLE, "the fixture does not pass it directly"
        elif via.error or not through:
            verdict, message = V.FAILED, via.error or "the suite reported nothing for it through the target"
        elif via.passed(name):
            verdict, message = V.AS_EXPECTED, ""
        else:
            verdict, message = V.LOST, _first_failure(through) or "no check passed through the target"
        reference = direct.scenarios.get(name, [])
        row = Row(
            name,
            _counts(reference),
            _counts(through),
            verdict,
            message,
            ours,
            suite_anchors(ours, (*anchors, *(value for check in reference for value in check.references))),
            tuple(reference),
            tuple(through),
        )
        found.append(row)
    return found


@dataclass(frozen=True)
class Summary:
    through: int
    directly: int
    total: int
    status: str = ""  # "" when the suite ran; else why not (NOT_HTTP, a failure)

    def sentence(self) -> str:
        if self.status:
            return self.status
        return f"conformance: {self.through} of {self.total} through this target ({self.directly} directly)"


def stored(value: Any) -> tuple[list[dict[str, Any]], str]:
    """(rows, status) of a run's stored pass (`ProbeRun.conformance_results`), whatever it holds."""
    found = value if isinstance(value, dict) else {}
    rows = [row for row in found.get("rows") or [] if isinstance(row, dict)]
    return rows, str(found.get("status") or "")


def summary(rows: list[dict[str, Any]], status: str = "") -> Summary:
    """From stored rows (Row.as_dict)."""
    through = sum(1 for r in rows if r["via"]["passed"] and not r["via"]["failed"])
    directly = sum(1 for r in rows if r["direct"]["passed"] and not r["direct"]["failed"])
    return Summary(through, directly, len(rows), status)


#: Our verdicts that say the proxy lost, refused or changed something: the suite's "lost".
_OURS_LOST = {V.LOST, V.REFUSED, V.CHANGED, V.INTERMITTENT}
#: Our verdicts that say nothing about the proxy.
_OURS_SILENT = {V.NOT_TESTABLE, V.FAILED, V.NOT_COMPARED}


def disagreements(rows: list[dict[str, Any]], ours: dict[str, str]) -> list[str]:
    """Where the suite and our own cells for the same target part: the suite lost a scenario that
    our cells of the same thing passed, or passed one whose cells say lost. `ours` is {our
    scenario: its verdict at SUITE_REVISION in the run}; scenarios the run did not probe, or could
    not test, say nothing."""
    notes = []
    for row in rows:
        said = {key: ours[key] for key in row["ours"] if ours.get(key) and ours[key] not in _OURS_SILENT}
        if not said or row["verdict"] not in (V.AS_EXPECTED, V.LOST):
            continue
        lost = sorted(key for key, verdict in said.items() if verdict in _OURS_LOST)
        if row["verdict"] == V.LOST and not lost:
            notes.append(f"{row['scenario']}: the suite says lost, our {', '.join(sorted(said))} passed")
        elif row["verdict"] == V.AS_EXPECTED and lost:
            verdicts = ", ".join(f"{key} {said[key]}" for key in lost)
            notes.append(f"{row['scenario']}: the suite passes, our {verdicts}")
    return notes


def as_results(rows: list[dict[str, Any]], status: str = "") -> list[dict[str, Any]]:
    """The pass as probe results (what JUnit, baselines and `probe --json` read): one per suite
    scenario, named `conformance.<scenario>` at the suite's revision; a pass that did not run is
    one result, not testable, saying why, so it never reads as passing."""
    if status:
        return [_result("conformance", V.NOT_TESTABLE, status)]
    return [_result(f"conformance.{row['scenario']}", row["verdict"], row["message"]) for row in rows]


def _result(scenario: str, verdict: str, message: str) -> dict[str, Any]:
    findings = [{"verdict": verdict, "path": scenario, "message": message}] if message else []
    failure = message if verdict in (V.FAILED, V.NOT_TESTABLE) else ""
    return {
        "scenario": scenario,
        "family": "conformance",
        "requested_revision": SUITE_REVISION,
        "negotiated_revision": "",
        "verdict": verdict,
        "failure": failure,
        "findings": findings,
        "diff": None,
        "duration_ms": 0,
    }
