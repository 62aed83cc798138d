"""Content results: every block type a tool result can carry, and the lists and reads beside them.
One request each; the runner assesses the answer as a result (host views, revision rules, the
proxy's diff against the fixture's known answer)."""

from __future__ import annotations

from .base import Family, Scenario, call_scenario

NAME = "content"


def _call(key: str, title: str, rows: tuple[str, ...]) -> Scenario:
    return call_scenario(NAME, key, key, title, rows)


FAMILY = Family(
    NAME,
    "Content results",
    (
        Scenario("tools-list", "tools/list", "tools/list", {}, ("CT-11",), family=NAME),
        _call("text", "text block", ("CT-01",)),
        _call("image", "image block", ("CT-02",)),
        _call("audio", "audio block", ("CT-03",)),
        _call("resource-text", "embedded text resource", ("CT-04",)),
        _call("resource-blob", "embedded blob resource", ("CT-04",)),
        _call("resource-link", "resource_link", ("CT-05", "CT-06")),
        _call("mixed", "every block type, result _meta", ("CT-07", "CT-09", "CT-10", "CT-13")),
        _call("structured", "structuredContent with outputSchema", ("CT-11", "CT-13", "CT-15")),
        _call("structured-only", "structuredContent, empty content", ("CT-13", "CT-15")),
        _call("annotations", "annotations and block _meta", ("CT-09", "CT-10")),
        _call("unknown-type", "unknown block type", ("CT-14",)),
        _call("large-image", "512 KiB image", ("CT-02", "CT-13")),
        Scenario(
            "resource-read",
            "resources/read: text",
            "resources/read",
            {"uri": "fixture://notes/readme.md"},
            (),
            family=NAME,
        ),
    ),
)
