"""A fake OpenAI-compatible chat model on 127.0.0.1 for driving opencode headless.

It asks for exactly one tool call per turn (the tool named by `CASE=<name>` in the last user
message) and records the next request, the first one that carries the tool's result: that request
is what opencode hands the model. Bounded in requests and lifetime.
"""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from comparison.hostlab.dialects.openai_chat import _chunk

CASE = re.compile(r"CASE=([A-Za-z0-9_.-]+)")


class FakeModel:
    def __init__(
        self,
        *,
        tool_prefix: str = "probe_",
        max_requests: int = 2000,
        lifetime: float = 1800.0,
        code_mode: bool = False,
    ):
        self.tool_prefix = tool_prefix
        self.code_mode = code_mode
        self.max_requests = max_requests
        self.deadline = time.monotonic() + lifetime
        self.requests = 0
        self.captures: dict[str, dict[str, Any]] = {}
        self.captured = threading.Condition()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    def __enter__(self) -> FakeModel:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        # shutdown() waits for serve_forever to end, so it would wait for ever on a model never started.
        if self.thread.is_alive():
            self.server.shutdown()
            self.thread.join(timeout=10)
        self.server.server_close()

    def wait_for(self, case: str, timeout: float) -> dict[str, Any] | None:
        with self.captured:
            self.captured.wait_for(lambda: case in self.captures, timeout=timeout)
            return self.captures.get(case)

    def _handler(self):
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                model.requests += 1
                length = min(int(self.headers.get("Content-Length", 0)), 64 * 1024 * 1024)
                body = json.loads(self.rfile.read(length) or b"{}")
                if model.requests > model.max_requests or time.monotonic() > model.deadline:
                    self.send_error(503, "fake model exhausted")
                    return
                self._reply(model.answer(body))

            def _reply(self, chunks: list[dict]) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                for chunk in chunks:
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")

        return Handler

    def answer(self, body: dict) -> list[dict]:
        messages = body.get("messages", [])
        if any(message.get("role") == "tool" for message in messages):
            case = self._case(messages)
            with self.captured:
                self.captures.setdefault(case or "?", body)
                self.captured.notify_all()
            return _text_chunks("FAKE_DONE")
        case = self._case(messages)
        if case and body.get("tools"):
            if self.code_mode:
                # Code mode offers one `execute` tool whose script calls the MCP tool.
                code = f"return await tools.{self.tool_prefix.rstrip('_')}.{case}({{}})"
                return _tool_call_chunks("execute", json.dumps({"code": code}))
            return _tool_call_chunks(self.tool_prefix + case)
        return _text_chunks("title")

    @staticmethod
    def _case(messages: list[dict]) -> str | None:
        for message in reversed(messages):
            if message.get("role") != "user":
                continue
            content = message.get("content")
            text = (
                content
                if isinstance(content, str)
                else " ".join(part.get("text", "") for part in content or [] if isinstance(part, dict))
            )
            match = CASE.search(text)
            if match:
                return match.group(1)
        return None


def _text_chunks(text: str) -> list[dict]:
    return [_chunk({"role": "assistant", "content": text}, None), _chunk({}, "stop")]


def _tool_call_chunks(name: str, arguments: str = "{}") -> list[dict]:
    call = {"index": 0, "id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}}
    return [_chunk({"role": "assistant", "tool_calls": [call]}, None), _chunk({}, "tool_calls")]
