"""Prompts: the list (titles, icons) and a prompt of every role and content type. One request each,
assessed as a result by the runner."""

from __future__ import annotations

from comparison.probes.families.base import Family, Scenario

NAME = "prompts"

FAMILY = Family(
    NAME,
    "Prompts",
    (
        Scenario(
            "prompts-list",
            "prompts/list (title, icons)",
            "prompts/list",
            {},
            ("type:Prompt", "field:Prompt.title", "field:Prompt.icons", "field:Prompt._meta", "type:PromptArgument"),
            family=NAME,
        ),
        Scenario(
            "prompt-multi",
            "prompts/get: roles and every content type",
            "prompts/get",
            {"name": "multi"},
            (
                "type:GetPromptResult",
                "type:PromptMessage",
                "field:PromptMessage.role",
                "field:PromptMessage.content",
                "type:TextContent",
                "type:ImageContent",
                "type:AudioContent",
                "type:EmbeddedResource",
                "type:ResourceLink",
            ),
            family=NAME,
        ),
    ),
)

#: What every scenario of the family exercises (comparison.anchors), beside its own.
ANCHORS: tuple[str, ...] = ("page:prompts",)
