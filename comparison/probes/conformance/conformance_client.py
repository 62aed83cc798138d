"""The probe's own client under the official conformance suite's client scenarios.

The suite (`conformance client --command …`) starts a scenario server and runs this module with
its URL; the scenario's name, revision and context come in `MCP_CONFORMANCE_*` variables. Each
scenario is played with the probe's real transport and wire client (the code every probe run
uses), doing what a host does: open the session, list, call, answer what the server asks. The
suite, not this module, judges what it saw. No Django.

    python -m comparison.probes.conformance.conformance_client URL
"""

from __future__ import annotations

import copy
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from comparison.probes.transport.exchange import Call, Exchange, Limits
from comparison.probes.transport.http_transport import HttpTransport
from comparison.probes.transport.param_headers import header_problem
from comparison.probes.transport.wire import WireClient
from language.vocabulary import Revision

#: What the probe declares when a scenario may ask it for something.
CAPABILITIES = {"sampling": {}, "roots": {"listChanged": True}, "elicitation": {"form": {}}}
SAMPLED = {
    "role": "assistant",
    "content": {"type": "text", "text": "hello from the probe"},
    "model": "mcp-compare-probe",
    "stopReason": "endTurn",
}
ROOTS = {"roots": [{"uri": "file:///probe/workspace", "name": "probe workspace"}]}


def form_defaults(schema: Any) -> dict[str, Any]:
    """An accepted form's content: every field the requested schema gives a default."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return {}
    return {
        name: copy.deepcopy(field["default"])
        for name, field in properties.items()
        if isinstance(field, dict) and "default" in field
    }


def answer_input(method: Any, params: Any) -> dict[str, Any] | None:
    """The probe's answer to a server's request (sampling, elicitation, roots), or None."""
    params = params if isinstance(params, dict) else {}
    if method == "sampling/createMessage":
        return copy.deepcopy(SAMPLED)
    if method == "elicitation/create":
        return {"action": "accept", "content": form_defaults(params.get("requestedSchema"))}
    if method == "roots/list":
        return copy.deepcopy(ROOTS)
    return None


def reply(request: dict[str, Any]) -> dict[str, Any]:
    answer = answer_input(request.get("method"), request.get("params"))
    if answer is None:
        return {"jsonrpc": "2.0", "id": request.get("id"), "error": {"code": -32601, "message": "Method not found"}}
    return {"jsonrpc": "2.0", "id": request.get("id"), "result": answer}


def result_of(exchange: Exchange) -> dict[str, Any]:
    result = (exchange.response or {}).get("result")
    return result if isinstance(result, dict) else {}


def call_tool(client: WireClient, name: str, arguments: dict[str, Any], *, rounds: int = 3) -> Exchange:
    """`tools/call` as a host makes it: server requests answered on any stream, and (2026-07-28)
    an `input_required` result answered and retried with its `requestState` echoed untouched."""
    params: dict[str, Any] = {"name": name, "arguments": arguments}
    exchange = client.request("tools/call", params, Call(answer=reply))
    for _ in range(rounds):
        result = result_of(exchange)
        if result.get("resultType") != "input_required" or not isinstance(result.get("inputRequests"), dict):
            break
        responses = {
            key: answer_input(asked.get("method"), asked.get("params"))
            for key, asked in result["inputRequests"].items()
            if isinstance(asked, dict)
        }
        params = {"name": name, "arguments": arguments, "inputResponses": responses}
        if "requestState" in result:
            params["requestState"] = result["requestState"]
        exchange = client.request("tools/call", params, Call(answer=reply))
    return exchange


def listed_tools(client: WireClient) -> list[dict[str, Any]]:
    """The tools a host may call: those listed, less any whose `x-mcp-header` is invalid."""
    tools = result_of(client.request("tools/list")).get("tools")
    listed = [tool for tool in tools if isinstance(tool, dict)] if isinstance(tools, list) else []
    for tool in listed:
        if header_problem(tool):
            print(f"left out tool {tool.get('name')!r}: {header_problem(tool)}", file=sys.stderr)
    return [tool for tool in listed if not header_problem(tool)]


def sample_arguments(schema: Any) -> dict[str, Any]:
    """Arguments a tool's input schema accepts: a plain value of each required property's type."""
    plain = {"number": 1, "integer": 1, "string": "probe", "boolean": True, "array": [], "object": {}}
    if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return {}
    required = schema.get("required") if isinstance(schema.get("required"), list) else []
    return {
        name: plain.get(field.get("type"), "probe")
        for name, field in schema["properties"].items()
        if name in required and isinstance(field, dict)
    }


def call_every_tool(client: WireClient, context: dict[str, Any]) -> None:
    for tool in listed_tools(client):
        call_tool(client, str(tool.get("name")), sample_arguments(tool.get("inputSchema")))


def echo_schema(client: WireClient, context: dict[str, Any]) -> None:
    """Give the focal tool's schema back, verbatim, through the scenario's echo tool."""
    tools = listed_tools(client)
    focal = next((tool for tool in tools if "schema" not in (tool.get("inputSchema") or {}).get("properties", {})), {})
    echo = next((tool for tool in tools if tool is not focal), {})
    if focal and echo:
        call_tool(client, str(echo["name"]), {"schema": focal.get("inputSchema")})


def list_only(client: WireClient, context: dict[str, Any]) -> None:
    listed_tools(client)


def context_calls(client: WireClient, context: dict[str, Any]) -> None:
    listed_tools(client)
    for made in context.get("toolCalls") or []:
        call_tool(client, str(made.get("name")), dict(made.get("arguments") or {}))


#: Scenario → what the client does once the session is open. The suite's auth scenarios are not
#: here: the probe sends the headers an admin configured and never runs an OAuth flow.
PLAYS: dict[str, Callable[[WireClient, dict[str, Any]], None]] = {
    "initialize": list_only,
    "tools_call": call_every_tool,
    "sse-retry": call_every_tool,
    "elicitation-sep1034-client-defaults": call_every_tool,
    "request-metadata": call_every_tool,
    "sep-2322-client-request-state": call_every_tool,
    "http-standard-headers": call_every_tool,
    "http-custom-headers": context_calls,
    "http-invalid-tool-headers": call_every_tool,
    "json-schema-ref-no-deref": list_only,
    "json-schema-2020-12-preservation": echo_schema,
}


def play(url: str, scenario: str, revision: str, context: dict[str, Any]) -> int:
    transport = HttpTransport(url, limits=Limits(total_timeout=10.0))
    client = WireClient(transport, CAPABILITIES)
    try:
        session = client.open(revision)
        if session.failure:
            print(f"opening failed: {session.failure}", file=sys.stderr)
            return 1
        client.listen()  # as an SDK client does: the server may ask on the session's own stream
        PLAYS.get(scenario, list_only)(client, context)
        for exchange in session.exchanges:
            print(json.dumps({"method": exchange.method, "failure": exchange.failure}), file=sys.stderr)
        return 0
    finally:
        client.close()


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m comparison.probes.conformance.conformance_client URL", file=sys.stderr)
        return 2
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    # The suite's own default when a scenario names no revision.
    revision = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION", Revision.V2025_11_25)
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    return play(argv[1], scenario, revision, context if isinstance(context, dict) else {})


if __name__ == "__main__":
    sys.exit(main(sys.argv))
