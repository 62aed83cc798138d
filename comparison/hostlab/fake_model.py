"""One fake model on 127.0.0.1 for every host: it reads each request in the host's dialect, plays a
script (find the tool through the host's search tool if it hides it, call it with the given
arguments, then stop), and records every request and the one that carried the tool's result.

Bounded in requests, body size and lifetime; it answers only loopback clients.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from comparison.hostlab import dialects
from comparison.hostlab.dialects.shapes import Reply, Turn, json_reply

MAX_BODY = 32 * 1024 * 1024
MAX_RECORDED = 200
DONE_TEXT = "FAKE_DONE"
WAIT_TOOL = "lab_wait_for_tools"
#: Script.tool for "call every tool of the server once" (adapters.base.ANY_TOOL).
ANY_TOOL = "*"
MAX_EVERY = 20
SEARCHED_NAME = re.compile(r"mcp__probe__[A-Za-z0-9_-]+")
FUNCTION_BLOCK = re.compile(r"<function>(\{.*?\})</function>", re.DOTALL)
MAX_WAITS = 3


@dataclass(frozen=True)
class Script:
    """What the model does in one run: call `tool` (an MCP tool name) with `arguments`."""

    tool: str
    arguments: dict[str, Any] = field(default_factory=dict)
    #: Host tools that reveal deferred tools, and the argument that selects one (`{name}` filled in).
    search: dict[str, str] = field(
        default_factory=lambda: {"ToolSearch": "select:{name}", "tool_search": "select:{name}"}
    )
    #: Host tools that call another tool by name (Qwen Code's `tool_call`).
    bridges: tuple[str, ...] = ("tool_call",)
    #: The host offers MCP tools under their own names, with nothing of the server's (Continue).
    bare_names: bool = False
    #: With bare names, the host's own tools: every other tool offered is the server's.
    own_tools: tuple[str, ...] = ()


def _simple(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def find_tool(offered: tuple[str, ...], tool: str, server: str = "probe", *, bare: bool = False) -> str | None:
    """The offered name of an MCP tool of the `server`: namespaced by the host (`mcp__probe__x`,
    `mcp_probe_x`, `mcp__probe.x`, `probe_x`), compared with every run of punctuation as one
    underscore. A host's own tool of a name that ends the same way (Codex's `view_image`) never
    matches. With `bare`, for a host that offers MCP tools under their own names, the very name."""
    wanted = f"{_simple(server)}_{_simple(tool)}"
    qualified = [name for name in offered if _simple(name).endswith(wanted)]
    if qualified:
        return min(qualified, key=len)
    return tool if bare and tool in offered else None


SAMPLES = {"integer": 2, "number": 3, "string": "lab", "boolean": True, "array": [], "object": {}, "null": None}


def sample_arguments(schema: Any, depth: int = 0) -> dict[str, Any]:
    """Arguments a model would fill in from a tool's input schema: a default or the first enum
    value where there is one, else a plain value of the property's type (bounded in depth)."""
    if not isinstance(schema, dict) or depth > 4:
        return {}
    found = {}
    for name, prop in (schema.get("properties") or {}).items():
        if not isinstance(prop, dict):
            continue
        kind = prop.get("type")
        kind = kind[0] if isinstance(kind, list) and kind else kind
        if "default" in prop:
            found[name] = prop["default"]
        elif isinstance(prop.get("enum"), list) and prop["enum"]:
            found[name] = prop["enum"][0]
        elif kind == "object":
            found[name] = sample_arguments(prop, depth + 1)
        else:
            found[name] = SAMPLES.get(str(kind).lower(), "lab")
    return found


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    return []


def searched_tools(turn: Turn) -> dict[str, Any]:
    """Tools a host's search tool described in its output (Qwen Code: `<function>{json}</function>`),
    with their input schemas, or just their names where the output gives no schema."""
    found: dict[str, Any] = {}
    for output in turn.outputs:
        for text in _strings(output.raw):
            for block in FUNCTION_BLOCK.findall(text):
                try:
                    described = json.loads(block)
                except ValueError:
                    continue
                if isinstance(described, dict) and SEARCHED_NAME.fullmatch(str(described.get("name", ""))):
                    found[described["name"]] = described.get("parametersJsonSchema") or described.get("parameters")
            for name in SEARCHED_NAME.findall(text):
                found.setdefault(name, None)
    return found


@dataclass
class Recorded:
    path: str
    body: Any
    turn: Turn | None


class FakeModel:
    def __init__(self, script: Script, *, max_requests: int = 400, lifetime: float = 600.0):
        self.script = script
        self.max_requests = max_requests
        self.deadline = time.monotonic() + lifetime
        self.requests: list[Recorded] = []
        self.stage = "start"
        self.seen_outputs = 0
        self.capture: Recorded | None = None
        self.offered_at_call: tuple[str, ...] = ()
        self.called_as = ""
        self.waits = 0
        self.called: list[str] = []
        self.lock = threading.Lock()
        self.captured = threading.Event()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> FakeModel:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.thread.is_alive():
            self.server.shutdown()
            self.thread.join(timeout=10)
        self.server.server_close()

    def answer(self, path: str, body: Any) -> Reply:
        dialect = dialects.by_path(path)
        if dialect is None:
            return json_reply({"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
        if ":countTokens" in path:
            return dialect.count_tokens()
        turn = dialect.read(body if isinstance(body, dict) else {})
        stream = turn.streamed or "streamGenerateContent" in path
        with self.lock:
            if len(self.requests) < MAX_RECORDED:
                self.requests.append(Recorded(path, body, turn))
            action = self._next(turn)
        if action is None:
            return dialect.text(DONE_TEXT, stream)
        name, arguments, call_id = action
        return dialect.call(name, arguments, stream, call_id)

    def _next(self, turn: Turn) -> tuple[str, dict[str, Any], str] | None:
        """The script's next step for this request, or None to answer with text."""
        if self.script.tool == ANY_TOOL:
            return self._next_of_every(turn)
        if not turn.offered or self.stage == "done":
            return None
        fresh = len(turn.outputs) > self.seen_outputs
        if self.stage in ("searched", "called") and not fresh:
            return None  # a side request of the host (a title, a summary): not part of the turn
        self.seen_outputs = len(turn.outputs)
        if self.stage == "called":
            self.stage = "done"
            self.capture = self.requests[-1] if self.requests else Recorded("", None, turn)
            self.captured.set()
            return None
        target = find_tool(turn.offered, self.script.tool, bare=self.script.bare_names)
        if target is not None:
            self.stage, self.called_as, self.offered_at_call = "called", target, turn.offered
            return target, self.script.arguments, "call_target"
        if self.stage == "searched":
            bridge = next((b for b in self.script.bridges if b in turn.offered), None)
            if bridge is not None:
                self.stage, self.called_as, self.offered_at_call = "called", bridge, turn.offered
                return bridge, {"name": self._search_name(), "arguments": self.script.arguments}, "call_target"
            return None
        search = next((s for s in self.script.search if s in turn.offered), None)
        if search is None:
            return self._wait()
        self.stage = "searched"
        query = self.script.search[search].format(name=self._search_name())
        return search, {"query": query, "max_results": 5}, "call_search"

    def _next_of_every(self, turn: Turn) -> tuple[str, dict[str, Any], str] | None:
        """Every tool of the server once, in turn: those offered, then those a search tool names
        (called through the host's bridge tool). Bounded by MAX_EVERY calls."""
        if not turn.offered or len(self.called) >= MAX_EVERY:
            return None
        if self.script.bare_names:
            offered = [name for name in turn.offered if name not in self.script.own_tools]
        else:
            offered = [name for name in turn.offered if _simple(name).startswith(("mcp_probe_", "probe_"))]
        todo = [name for name in offered if name not in self.called]
        if todo:
            self.called.append(todo[0])
            schema = (turn.extra.get("schemas") or {}).get(todo[0])
            return todo[0], self.script.arguments or sample_arguments(schema), f"call_{len(self.called)}"
        search = next((s for s in self.script.search if s in turn.offered), None)
        if search is not None and self.stage != "searched":
            self.stage = "searched"
            return search, {"query": "mcp__probe", "max_results": MAX_EVERY}, "call_search"
        bridge = next((b for b in self.script.bridges if b in turn.offered), None)
        found = searched_tools(turn)
        todo = [name for name in sorted(found) if name not in self.called]
        if bridge is None or not todo:
            return None
        self.called.append(todo[0])
        arguments = self.script.arguments or sample_arguments(found[todo[0]])
        return bridge, {"name": todo[0], "arguments": arguments}, f"call_{len(self.called)}"

    def _wait(self) -> tuple[str, dict[str, Any], str] | None:
        """The tool is not offered yet: a host that asks the model before its MCP servers are up
        (Codex) is given a call to a tool nobody has, which costs a round trip and asks again."""
        if self.waits >= MAX_WAITS:
            return None
        self.waits += 1
        return WAIT_TOOL, {}, f"call_wait_{self.waits}"

    def _search_name(self) -> str:
        return f"mcp__probe__{self.script.tool}"

    def _handler(self):
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                pass

            def _send(self, reply: Reply) -> None:
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)

            def do_GET(self) -> None:
                self._send(json_reply({"object": "list", "data": [{"id": "fake-model", "object": "model"}]}))

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                if length > MAX_BODY or len(model.requests) >= model.max_requests or time.monotonic() > model.deadline:
                    self._send(json_reply({"error": {"message": "fake model exhausted"}}, 503))
                    return
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = None
                self._send(model.answer(self.path, body))

        return Handler
