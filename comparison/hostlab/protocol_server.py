"""A stdio MCP server for measuring what a real host does with the protocol beyond results: tools
over two pages, a tool that changes the list and announces it, server→client requests during a
call (roots, and form elicitation with one schema kind per tool), and a report of what the host
told it. Every tool answers with one text block holding JSON, so the capture shows it verbatim.

Raw JSON-RPC on purpose: what is measured is the host's side of each message, so nothing in
between may answer for it. Usage: python protocol_server.py  (no arguments; stdin/stdout)
"""

from __future__ import annotations

import json
import sys
from typing import Any

MAX_MESSAGES = 10_000
FIRST_PAGE = ("report", "mutate", "roots")
SECOND_PAGE = ("second_page",)
ADDED = "added_after_list_changed"
#: One flat form schema per kind a form elicitation may carry, and one nested (not allowed).
ELICIT_SCHEMAS: dict[str, dict[str, Any]] = {
    "boolean": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
    "string": {"type": "object", "properties": {"name": {"type": "string"}}},
    "number": {"type": "object", "properties": {"count": {"type": "integer", "minimum": 0}}},
    "enum": {"type": "object", "properties": {"colour": {"type": "string", "enum": ["red", "blue"]}}},
    "nested": {"type": "object", "properties": {"who": {"type": "object", "properties": {}}}},
}


class Server:
    def __init__(self) -> None:
        self.seen: dict[str, Any] = {"calls": {}}
        self.added = False
        self.next_id = 0
        self.held: list[dict[str, Any]] = []

    def write(self, message: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    def read(self) -> dict[str, Any] | None:
        for _ in range(MAX_MESSAGES):
            line = sys.stdin.readline()
            if not line:
                return None
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict):
                return message
        return None

    def ask(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send the host a request and wait for its answer (other messages wait their turn)."""
        self.next_id += 1
        request_id = f"server-{self.next_id}"
        self.write({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        for _ in range(MAX_MESSAGES):
            message = self.read()
            if message is None:
                return {"error": "stdin closed"}
            if message.get("id") == request_id and "method" not in message:
                return {key: message[key] for key in ("result", "error") if key in message}
            self.held.append(message)
        return {"error": "no answer"}

    def tools(self) -> list[dict[str, Any]]:
        names = list(FIRST_PAGE) + [f"elicit_{kind}" for kind in ELICIT_SCHEMAS] + list(SECOND_PAGE)
        if self.added:
            names.append(ADDED)
        return [{"name": name, "description": f"the {name} case", "inputSchema": {"type": "object"}} for name in names]

    def list_tools(self, params: dict[str, Any]) -> dict[str, Any]:
        self.seen.setdefault("list_cursors", []).append(params.get("cursor"))
        everything = self.tools()
        split = len(everything) - len(SECOND_PAGE) - (1 if self.added else 0)
        if params.get("cursor") == "page-2":
            return {"tools": everything[split:]}
        return {"tools": everything[:split], "nextCursor": "page-2"}

    def call(self, name: str, params: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
        self.seen["calls"][name] = {"progressToken": "progressToken" in meta}
        after: list[dict[str, Any]] = []
        if name == "report":
            body: Any = self.seen
        elif name == "mutate":
            self.added = True
            body = {"added": ADDED}
            after.append({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        elif name == "roots":
            body = self.ask("roots/list", {})
        elif name.startswith("elicit_") and name[len("elicit_") :] in ELICIT_SCHEMAS:
            schema = ELICIT_SCHEMAS[name[len("elicit_") :]]
            body = self.ask("elicitation/create", {"message": "measuring", "requestedSchema": schema})
        else:
            body = {"tool": name}
        return {"content": [{"type": "text", "text": json.dumps(body, sort_keys=True)}]}, after

    def handle(self, message: dict[str, Any]) -> None:
        if "id" not in message or "method" not in message:
            return
        method, params = message["method"], message.get("params") or {}
        after: list[dict[str, Any]] = []
        if method == "initialize":
            self.seen["capabilities"] = params.get("capabilities")
            self.seen["clientInfo"] = params.get("clientInfo")
            self.seen["protocolVersion"] = params.get("protocolVersion")
            result: dict[str, Any] = {
                "protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {"listChanged": True}},
                "serverInfo": {"name": "protocol-server", "version": "1.0.0"},
            }
        elif method == "tools/list":
            result = self.list_tools(params)
        elif method == "tools/call":
            result, after = self.call(str(params.get("name")), params)
        elif method == "ping":
            result = {}
        else:
            self.write({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "not found"}})
            return
        self.write({"jsonrpc": "2.0", "id": message["id"], "result": result})
        for notification in after:
            self.write(notification)

    def serve(self) -> None:
        for _ in range(MAX_MESSAGES):
            message = self.held.pop(0) if self.held else self.read()
            if message is None:
                return
            self.handle(message)


if __name__ == "__main__":
    Server().serve()
