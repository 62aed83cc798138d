"""A stand-in host for the lab's restart test: asks the fake model once over Chat Completions,
offering the MCP tool `probe_text` only from its second start on (the first start "raced" its MCP
connect, as Cline does now and then), or `text` with BARE=1; when the model calls the tool, it hands back a text result."""

from __future__ import annotations

import json
import os
import sys
import urllib.request
from pathlib import Path


def ask(url: str, messages: list[dict], tools: list[str]) -> dict:
    body = {"model": "m", "messages": messages, "tools": [{"type": "function", "function": {"name": n}} for n in tools]}
    headers = {"Content-Type": "application/json"}
    request = urllib.request.Request(url, json.dumps(body).encode(), headers)  # noqa: S310 - the lab's loopback model
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - the lab's loopback model
        return json.loads(response.read())


def main() -> None:
    url, starts = sys.argv[1] + "/v1/chat/completions", Path(sys.argv[2])
    count = int(starts.read_text()) + 1 if starts.exists() else 1
    starts.write_text(str(count))
    # BARE=1: the tool offered under its own name, as Continue offers MCP tools.
    tool = "text" if os.environ.get("BARE") == "1" else "probe_text"
    tools = ["host_tool"] + ([tool] if count > 1 else [])
    messages = [{"role": "user", "content": os.environ.get("PROMPT", "")}]
    reply = ask(url, messages, tools)["choices"][0]["message"]
    for call in reply.get("tool_calls") or []:
        messages += [reply, {"role": "tool", "tool_call_id": call["id"], "content": "hello from the stand-in"}]
        ask(url, messages, tools)
        break


if __name__ == "__main__":
    main()
