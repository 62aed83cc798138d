"""What the fixture lists on the first page of its tools and prompts: the items themselves (the
fixture serves them from here) and, for the probe, what a proxy's list is matched against when it
renames the upstream's items. Pure, no Django."""

from __future__ import annotations

from typing import Any

from comparison.probes import fixture_conformance
from comparison.probes.families import fixture_tools
from comparison.probes.fixture_content import PROMPTS, RESOURCES, TOOLS

INPUT_SCHEMA = {"type": "object", "properties": {"count": {"type": "integer"}}}
#: The scenario families' tools, then the conformance suite's (kept apart in their own module).
FAMILY_TOOLS = {**fixture_tools(), **fixture_conformance.BY_NAME}


def tool_entries() -> list[dict[str, Any]]:
    tools = []
    for name, (description, _, output_schema) in TOOLS.items():
        tool: dict[str, Any] = {"name": name, "description": description, "inputSchema": INPUT_SCHEMA}
        if output_schema:
            tool["outputSchema"] = output_schema
        tools.append(tool)
    for tool in FAMILY_TOOLS.values():
        tools.append({"name": tool.name, "description": tool.description, "inputSchema": tool.input_schema})
    return tools


def prompt_entries() -> list[dict[str, Any]]:
    prompts = []
    for name, prompt in PROMPTS.items():
        data: dict[str, Any] = {"name": name, "description": prompt["description"]}
        for field in ("title", "icons", "arguments"):
            if prompt.get(field):
                data[field] = prompt[field]
        prompts.append(data)
    return prompts


def first_pages() -> dict[str, dict[str, Any]]:
    """{list method: the fixture's first page as a list answer}."""
    return {
        "tools/list": {"result": {"tools": tool_entries()}},
        "prompts/list": {"result": {"prompts": prompt_entries()}},
        "resources/list": {"result": {"resources": resource_entries()}},
    }


def resource_entries() -> list[dict[str, Any]]:
    return [{"uri": uri, "name": item["name"], "mimeType": item["mimeType"]} for uri, item in RESOURCES.items()]
