"""The names a proxy gives the upstream's tools and prompts. A gateway that lists every tool as
`fixture_text` must be called as `fixture_text`: the probe learns the names from the proxy's own
lists (matched back to the upstream's items by `item_names.renames`) and calls each item by the name
the proxy lists (a resource by the URI it lists), so a cell says what a host calling through it
gets. Pure, no Django."""

from __future__ import annotations

from typing import Any

from comparison.probes.assessment.item_names import renames

#: The call that names an item → (the list that names it, the param that names it).
NAMED_BY = {"tools/call": "tools/list", "prompts/get": "prompts/list", "resources/read": "resources/list"}
NAMING_PARAM = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}


class Aliases:
    def __init__(self, upstream_pages: dict[str, dict[str, Any]]):
        #: {list method: the upstream's first page, as an answer}
        self.upstream_pages = upstream_pages
        #: {list method: {upstream name: the proxy's name}}; a method is here once a list came.
        self.names: dict[str, dict[str, str]] = {}

    def learned(self, call_method: str) -> bool:
        return NAMED_BY.get(call_method) in self.names or call_method not in NAMED_BY

    def learn(self, list_method: str, params: Any, answer: Any) -> None:
        """Learn from a first page of a list the proxy answered (a page after a cursor names
        only the upstream's later items)."""
        if list_method not in self.upstream_pages or (isinstance(params, dict) and params.get("cursor")):
            return
        # Whatever came (an error too) is learned: the list is asked for once per session.
        self.names[list_method] = renames(list_method, self.upstream_pages[list_method], answer)

    def call_params(self, call_method: str, params: Any) -> Any:
        """The params with the item named as the proxy lists it."""
        renamed = self.names.get(NAMED_BY.get(call_method, ""), {})
        param = NAMING_PARAM.get(call_method, "name")
        if isinstance(params, dict) and params.get(param) in renamed:
            return {**params, param: renamed[params[param]]}
        return params
