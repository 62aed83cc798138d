"""The methods and notifications that travelled in a probed cell: every JSON-RPC message in its
exchanges, however they nest, as anchors. Pure. What a cell saw, beside what its scenario
declares, lets the fixture's direct probe say at which revisions a method was used."""

from __future__ import annotations

from typing import Any

from language.anchors import kinds

#: Deeper than any exchange nests; a hostile answer nested deeper is not read further.
MAX_DEPTH = 12
MAX_NODES = 20_000


def travelled(exchanges: Any) -> list[str]:
    """Sorted anchors of every `method` of a JSON-RPC message found in `exchanges`."""
    found: set[str] = set()
    stack: list[tuple[Any, int]] = [(exchanges, 0)]
    visited = 0
    while stack and visited < MAX_NODES:
        node, depth = stack.pop()
        visited += 1
        if isinstance(node, dict):
            method = node.get("method")
            if isinstance(method, str) and node.get("jsonrpc") == "2.0" and 0 < len(method) <= 100:
                kind = kinds.NOTIFICATION if method.startswith("notifications/") else kinds.METHOD
                found.add(kinds.anchor(kind, method))
            children = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth < MAX_DEPTH:
            stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return sorted(found)
