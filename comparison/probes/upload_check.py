"""A run made elsewhere (the JSON `manage.py probe --json` prints), checked before it is stored:
every result has the fields a stored result needs, of the right types, with a known revision and
verdict, within bounds. Pure, no Django: a problem is a message naming the result and the field.
"""

from __future__ import annotations

from typing import Any

from registers.core.vocabulary import PROBE_VERDICTS, REVISIONS

MAX_RESULTS = 5000
#: field → the types it may have (None allowed where listed).
FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "scenario": (str,),
    "anchors": (list,),
    "seen": (list,),
    "method": (str,),
    "requested_revision": (str,),
    "negotiated_revision": (str,),
    "verdict": (str,),
    "failure": (str,),
    "response": (dict, list, str, int, float, bool, type(None)),
    "findings": (list,),
    "diff": (list,),
    "diff_against": (str,),
    "host_views": (list,),
    "dpcter": (list,),
    "interop": (dict, type(None)),
    "exchanges": (list,),
    "duration_ms": (int, float),
}
OPTIONAL = {"family": (str,), "tries": (list,)}
MAX_TEXT = {"scenario": 100, "method": 100, "negotiated_revision": 20, "diff_against": 100, "family": 40}


class UploadError(ValueError):
    """What is wrong with an uploaded run, naming where."""


def checked_results(report: Any) -> list[dict[str, Any]]:
    """The results of a `probe --json` report, each ready to store; UploadError otherwise."""
    if not isinstance(report, dict):
        raise UploadError("expected the JSON object `manage.py probe --json` prints")
    results = report.get("results")
    if not isinstance(results, list) or not results:
        raise UploadError("`results`: expected a non-empty list of results")
    if len(results) > MAX_RESULTS:
        raise UploadError(f"`results`: {len(results)} results, over the {MAX_RESULTS} a run may hold")
    checked = []
    for index, result in enumerate(results):
        # Conformance rows (`conformance.<scenario>`) are the suite's, not cells: kept out.
        if isinstance(result, dict) and str(result.get("scenario", "")).startswith("conformance."):
            continue
        checked.append(_result(index, result))
    if not checked:
        raise UploadError("`results`: no probe cell among them (only conformance rows)")
    return checked


def _result(index: int, result: Any) -> dict[str, Any]:
    where = f"results[{index}]"
    if not isinstance(result, dict):
        raise UploadError(f"{where}: expected an object")
    for name, types in FIELD_TYPES.items():
        if name not in result:
            raise UploadError(f"{where}.{name}: missing")
        if not isinstance(result[name], types) or (isinstance(result[name], bool) and bool not in types):
            raise UploadError(f"{where}.{name}: expected {' or '.join(t.__name__ for t in types)}")
    for name, types in OPTIONAL.items():
        if name in result and not isinstance(result[name], types):
            raise UploadError(f"{where}.{name}: expected {types[0].__name__}")
    for name, limit in MAX_TEXT.items():
        if len(result.get(name, "")) > limit:
            raise UploadError(f"{where}.{name}: longer than {limit} characters")
    if result["requested_revision"] not in REVISIONS:
        raise UploadError(f"{where}.requested_revision: {result['requested_revision']!r} is not a revision")
    if result["verdict"] not in PROBE_VERDICTS:
        raise UploadError(f"{where}.verdict: {result['verdict']!r} is not a verdict")
    return {name: result[name] for name in (*FIELD_TYPES, *(n for n in OPTIONAL if n in result))}
