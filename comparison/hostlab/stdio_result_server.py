"""A minimal MCP server over stdio that answers `tools/call` with canned results, verbatim.

Raw JSON-RPC on purpose: an SDK server would validate or normalise the very results (unknown block
types, null structuredContent) whose handling by the host is being measured.
Usage: python stdio_result_server.py CASES.json  (a JSON object: tool name -> CallToolResult)
"""

from __future__ import annotations

import json
import sys

MAX_MESSAGES = 10_000


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as handle:
        cases = json.load(handle)
    tools = [
        {"name": name, "description": f"returns the {name} case", "inputSchema": {"type": "object"}} for name in cases
    ]
    for _ in range(MAX_MESSAGES):
        line = sys.stdin.readline()
        if not line:
            return
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if "id" not in message:
            continue
        method = message.get("method")
        if method == "initialize":
            version = message.get("params", {}).get("protocolVersion", "2025-06-18")
            result = {
                "protocolVersion": version,
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "result-server", "version": "1.0.0"},
            }
        elif method == "tools/list":
            result = {"tools": tools}
        elif method == "tools/call":
            name = message.get("params", {}).get("name")
            if name not in cases:
                reply = {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32602, "message": f"no tool {name}"}}
                sys.stdout.write(json.dumps(reply) + "\n")
                sys.stdout.flush()
                continue
            result = cases[name]
        elif method == "ping":
            result = {}
        else:
            reply = {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "method not found"}}
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
            continue
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
