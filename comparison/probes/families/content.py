"""Content results: every block type a tool result can carry, and the lists and reads beside them.
One request each; the runner assesses the answer as a result (host views, revision rules, the
proxy's diff against the fixture's known answer)."""

from __future__ import annotations

from comparison.probes.families.base import Family, Scenario, call_scenario

NAME = "content"
TOOL_FIELDS = (
    "type:Tool",
    "field:Tool.name",
    "field:Tool.title",
    "field:Tool.description",
    "field:Tool.inputSchema",
    "field:Tool.outputSchema",
    "field:Tool.annotations",
)
BLOCKS = ("type:TextContent", "type:ImageContent", "type:AudioContent", "type:EmbeddedResource", "type:ResourceLink")
ANNOTATED = (
    "type:Annotations",
    "field:TextContent.annotations",
    "field:TextContent._meta",
    "field:Annotations.audience",
    "field:Annotations.priority",
    "field:Annotations.lastModified",
)


def _call(key: str, title: str, anchors: tuple[str, ...]) -> Scenario:
    return call_scenario(NAME, key, key, title, anchors)


FAMILY = Family(
    NAME,
    "Content results",
    (
        Scenario("tools-list", "tools/list", "tools/list", {}, TOOL_FIELDS, family=NAME),
        _call("text", "text block", ("type:TextContent",)),
        _call("image", "image block", ("type:ImageContent",)),
        _call("audio", "audio block", ("type:AudioContent",)),
        _call("resource-text", "embedded text resource", ("type:EmbeddedResource", "type:TextResourceContents")),
        _call("resource-blob", "embedded blob resource", ("type:EmbeddedResource", "type:BlobResourceContents")),
        _call("resource-link", "resource_link", ("type:ResourceLink",)),
        _call("mixed", "every block type, result _meta", (*BLOCKS, "type:ContentBlock", "field:CallToolResult._meta")),
        _call(
            "structured",
            "structuredContent with outputSchema",
            ("field:CallToolResult.structuredContent", "field:Tool.outputSchema", "type:TextContent"),
        ),
        _call("structured-only", "structuredContent, empty content", ("field:CallToolResult.structuredContent",)),
        _call("annotations", "annotations and block _meta", ANNOTATED),
        _call("unknown-type", "unknown block type", ("type:ContentBlock",)),
        _call("large-image", "512 KiB image", ("type:ImageContent",)),
        Scenario(
            "resource-read",
            "resources/read: text",
            "resources/read",
            {"uri": "fixture://notes/readme.md"},
            ("field:ReadResourceResult.contents", "type:TextResourceContents", "page:resources"),
            family=NAME,
        ),
    ),
)

#: What every scenario of the family exercises (comparison.anchors), beside its own.
ANCHORS: tuple[str, ...] = ("field:CallToolResult.content", "page:tools")
