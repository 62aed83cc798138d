"""A run made elsewhere (the JSON `manage.py probe --json` prints), checked before it is stored
against the schema the API publishes for it (probes.result_shape), all the way down. Pure, no
Django: a problem is a message naming the result and the field."""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from comparison.probes.assessment.result_shape import MAX_RESULTS, Result, where


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
    if "target" in report and not isinstance(report["target"], str):
        raise UploadError("`target`: expected a string")
    found = []
    for index, result in enumerate(results):
        # Conformance rows (`conformance.<scenario>`) are the suite's, not cells: kept out.
        if isinstance(result, dict) and str(result.get("scenario", "")).startswith("conformance."):
            continue
        try:
            found.append(Result.model_validate(result).model_dump(mode="json"))
        except ValidationError as error:
            raise UploadError(where(error, f"results[{index}]")) from None
    if not found:
        raise UploadError("`results`: no probe cell among them (only conformance rows)")
    return found


def strict_json(raw: bytes) -> Any:
    """A request body as JSON that every database stores: no NaN or Infinity, no lone surrogate,
    no NUL character; UploadError says where otherwise."""

    def constant(name: str) -> Any:
        raise UploadError(f"the body holds {name}, which is not JSON")

    try:
        text = raw.decode("utf-8")
        value = json.loads(text, parse_constant=constant)
    except UnicodeDecodeError as error:
        raise UploadError(f"the body is not UTF-8 (byte {error.start})") from None
    except json.JSONDecodeError as error:
        raise UploadError(f"the body is not JSON: {error.msg} (line {error.lineno}, column {error.colno})") from None
    _storable(value, "body")
    return value


def _storable(value: Any, path: str, depth: int = 0) -> None:
    if depth > 64:
        raise UploadError(f"{path}: nested deeper than 64 levels")
    if isinstance(value, str):
        _text(value, path)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _storable(item, f"{path}[{index}]", depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            _text(key, f"{path} key {key[:40]!r}")
            _storable(item, f"{path}.{key[:40]}", depth + 1)


def _text(text: str, path: str) -> None:
    if "\x00" in text:
        raise UploadError(f"{path}: holds a NUL character, which no database stores")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise UploadError(f"{path}: holds a lone surrogate (\\ud800–\\udfff), which is not text") from None
