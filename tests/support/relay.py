"""A stdio relay for the tests: sits between the probe and an upstream command, forwarding
newline-delimited JSON-RPC both ways, and loses one thing on purpose (or nothing), the way real
proxies are reported to lose it (../shared/research/proxy-directions.md §1).

    python tests/support/relay.py --lose cursor -- python -m comparison.probes.fixture.fixture_server --stdio

Losses: none, notifications (server→client notifications have no path back), server-requests
(the relay answers the server's requests itself: Method not found), cursor (list requests lose
`params.cursor`), next-cursor (list results lose `nextCursor`), progress-token (requests lose
`_meta.progressToken`), cancel (`notifications/cancelled` is not forwarded), told (the upstream is
told 2024-11-05 and capabilities the client never offered, as supergateway's stateless mode
does), meta (requests lose their own `_meta` keys), input-responses (a retry loses
`inputResponses`); and hostile: flood (thousands of notifications before every call's answer),
malformed (notifications whose params are not an object), swallow-replies (the client's answers
to the server's requests are dropped, so the upstream waits); and caching: hints (results lose
`ttlMs` and `cacheScope`), shared-cache (resources/read answered from one cache for every caller,
whatever the upstream's `cacheScope`); and a rewrite of content: is-error (tool results lose
`isError: true` and gain `isError: false` where they had none, as a relay that passes results
through a type with a default does), images (tool results lose their image blocks); and timing: late-notifications (a notification the upstream
sends during a call is passed on LATE_SECONDS after the call's answer, as relays that forward each
direction on its own task were measured to do, 1–5 ms late), every-second-progress (the progress
of every second call that asks for it is dropped: deterministic, so a test sees "intermittent");
and what proxies do that is no loss: merge-pages (the relay walks the upstream's pages itself and
answers a list with one page of everything, without a cursor), decorate-lists (a title invented
for every tool, a vendor `_meta` on every tool and prompt, `arguments: []` on prompts),
inject-progress-token (a call without a progress token reaches the upstream with one, and the
progress it brings is kept from the client), server-info (every 2026-07-28 result gets the
`io.modelcontextprotocol/serverInfo` `_meta` that revision asks servers to send).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading

LOSSES = (
    "none",
    "notifications",
    "server-requests",
    "cursor",
    "next-cursor",
    "progress-token",
    "cancel",
    "told",
    "meta",
    "input-responses",
    "flood",
    "malformed",
    "swallow-replies",
    "hints",
    "shared-cache",
    "is-error",
    "images",
    "late-notifications",
    "every-second-progress",
    "merge-pages",
    "decorate-lists",
    "inject-progress-token",
    "server-info",
)
SERVER_INFO = {"name": "relay", "version": "0.0.1"}
STATELESS = "2026-07-28"
VENDOR_META = {"relay.example/seen": True}
#: How long after a call's answer late-notifications passes on what arrived during the call.
LATE_SECONDS = 0.005
#: Notifications the flood sends ahead of every call's answer: over the probe's per-call cap.
FLOOD = 2000
LIST_METHODS = ("tools/list", "prompts/list", "resources/list", "resources/templates/list")
TOLD_VERSION = "2024-11-05"
TOLD_CAPABILITIES = {"roots": {"listChanged": True}, "sampling": {}}


class Relay:
    def __init__(self, lose: str, upstream: subprocess.Popen):
        self.lose = lose
        self.upstream = upstream
        self.lock = threading.Lock()
        self.requested: dict[object, str] = {}  # client request id → method
        self.client_version: dict[object, str] = {}
        self.read_uri: dict[object, str] = {}  # client request id → the URI it reads
        self.cache: dict[str, dict] = {}
        self.held: list[dict] = []  # late-notifications: what arrived while a call was open
        self.calls_with_progress = 0
        self.dropped_tokens: set[str] = set()  # every-second-progress, inject-progress-token
        self.walks: dict[str, dict] = {}  # merge-pages: the relay's own page request id → the walk
        self.stateless_ids: set = set()  # server-info: requests made at 2026-07-28

    def to_client(self, message: dict) -> None:
        with self.lock:
            sys.stdout.write(json.dumps(message) + "\n")
            sys.stdout.flush()

    def to_upstream(self, message: dict) -> None:
        self.upstream.stdin.write((json.dumps(message) + "\n").encode())
        self.upstream.stdin.flush()

    def from_client(self, message: dict) -> None:
        method = message.get("method")
        params = message.get("params") if isinstance(message.get("params"), dict) else None
        if "id" in message and method:
            self.requested[message["id"]] = method
        if method == "resources/read" and self.lose == "shared-cache" and params is not None:
            cached = self.cache.get(str(params.get("uri")))
            if cached is not None:
                self.to_client({"jsonrpc": "2.0", "id": message["id"], "result": cached})
                return
            self.read_uri[message["id"]] = str(params.get("uri"))
        if method == "notifications/cancelled" and self.lose == "cancel":
            return
        if not method and "id" in message and self.lose == "swallow-replies":
            return
        if method == "tools/call" and self.lose == "flood":
            for step in range(FLOOD):
                self.to_client(
                    {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": step}}
                )
        if self.lose == "server-info" and params is not None and "id" in message:
            if (params.get("_meta") or {}).get("io.modelcontextprotocol/protocolVersion") == STATELESS:
                self.stateless_ids.add(message["id"])
        if method in LIST_METHODS and self.lose == "merge-pages" and "id" in message:
            self.requested.pop(message["id"], None)
            walk = {"client_id": message["id"], "method": method, "items": [], "first": None, "params": params or {}}
            self._walk(walk, None)
            return
        if method == "tools/call" and params is not None:
            token = (params.get("_meta") or {}).get("progressToken") if isinstance(params.get("_meta"), dict) else None
            if token is not None and self.lose == "every-second-progress":
                self.calls_with_progress += 1
                if self.calls_with_progress % 2 == 0:
                    self.dropped_tokens.add(str(token))
            if token is None and self.lose == "inject-progress-token":
                injected = f"relay-{message.get('id')}"
                params.setdefault("_meta", {})["progressToken"] = injected
                self.dropped_tokens.add(injected)
        if params is not None:
            meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else None
            if self.lose == "cursor" and method in LIST_METHODS:
                params.pop("cursor", None)
            if self.lose == "progress-token" and meta is not None:
                meta.pop("progressToken", None)
            if self.lose == "meta" and meta is not None:
                for key in [k for k in meta if not k.startswith("io.modelcontextprotocol/")]:
                    del meta[key]
            if self.lose == "input-responses":
                params.pop("inputResponses", None)
            if self.lose == "told" and method == "initialize":
                self.client_version[message["id"]] = params.get("protocolVersion")
                params["protocolVersion"] = TOLD_VERSION
                params["capabilities"] = TOLD_CAPABILITIES
        self.to_upstream(message)

    def _walk(self, walk: dict, cursor: str | None) -> None:
        """merge-pages: ask the upstream for the next page under an id of the relay's own."""
        own_id = f"relay-walk-{len(self.walks) + 1}"
        self.walks[own_id] = walk
        params = {**walk["params"], "cursor": cursor} if cursor else dict(walk["params"])
        self.to_upstream({"jsonrpc": "2.0", "id": own_id, "method": walk["method"], "params": params})

    def _walked(self, walk: dict, message: dict) -> None:
        result = message.get("result") if isinstance(message.get("result"), dict) else None
        if result is None:  # an error on some page: the client gets it as it came
            self.to_client({**message, "id": walk["client_id"]})
            return
        key = next((k for k, v in result.items() if isinstance(v, list)), None)
        walk["first"] = walk["first"] or result
        walk["items"] += result.get(key, []) if key else []
        if result.get("nextCursor") and len(walk["items"]) < 10_000:
            self._walk(walk, result["nextCursor"])
            return
        merged = {k: v for k, v in walk["first"].items() if k != "nextCursor"}
        if key:
            merged[key] = walk["items"]
        self.to_client({"jsonrpc": "2.0", "id": walk["client_id"], "result": merged})

    def from_upstream(self, message: dict) -> None:
        method = message.get("method")
        if "id" in message and not method and message["id"] in self.walks:
            self._walked(self.walks.pop(message["id"]), message)
            return
        if method == "notifications/progress" and isinstance(message.get("params"), dict):
            if str(message["params"].get("progressToken")) in self.dropped_tokens:
                return
        if method and "id" not in message and self.lose == "notifications":
            return
        if method and "id" not in message and self.lose == "late-notifications" and self.requested:
            self.held.append(message)
            return
        if method and "id" not in message and self.lose == "malformed":
            message["params"] = "garbage"
        if method and "id" in message and self.lose == "server-requests":
            self.to_upstream(
                {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "Method not found"}}
            )
            return
        result = message.get("result") if isinstance(message.get("result"), dict) else None
        if result is not None and "id" in message:
            asked = self.requested.pop(message["id"], "")
            if self.lose == "next-cursor" and asked in LIST_METHODS:
                result.pop("nextCursor", None)
            if message["id"] in self.stateless_ids:
                self.stateless_ids.discard(message["id"])
                result.setdefault("_meta", {}).setdefault("io.modelcontextprotocol/serverInfo", SERVER_INFO)
            if self.lose == "is-error" and asked == "tools/call":
                result["isError"] = False
            if self.lose == "images" and asked == "tools/call" and isinstance(result.get("content"), list):
                result["content"] = [
                    b for b in result["content"] if not (isinstance(b, dict) and b.get("type") == "image")
                ]
            if self.lose == "decorate-lists" and asked in ("tools/list", "prompts/list"):
                for item in result.get("tools") or result.get("prompts") or []:
                    if isinstance(item, dict):
                        item["_meta"] = {**(item.get("_meta") or {}), **VENDOR_META}
                        if asked == "tools/list":
                            item.setdefault("title", str(item.get("name", "")).replace("-", " ").title())
                        else:
                            item.setdefault("arguments", [])
            if self.lose == "hints":
                result.pop("ttlMs", None)
                result.pop("cacheScope", None)
            if message["id"] in self.read_uri:
                self.cache[self.read_uri.pop(message["id"])] = result
            if self.lose == "told" and message["id"] in self.client_version:
                result["protocolVersion"] = self.client_version.pop(message["id"])
        if "id" in message and not method:
            self.requested.pop(message["id"], None)
        self.to_client(message)
        if self.held and not self.requested:
            held, self.held = self.held, []
            timer = threading.Timer(LATE_SECONDS, lambda: [self.to_client(item) for item in held])
            timer.daemon = True
            timer.start()


def pump(source, handle) -> None:
    for line in source:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict):
            handle(message)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lose", choices=LOSSES, default="none")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    upstream = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    relay = Relay(args.lose, upstream)
    threading.Thread(target=pump, args=(upstream.stdout, relay.from_upstream), daemon=True).start()
    try:
        pump(sys.stdin.buffer, relay.from_client)
    finally:
        upstream.terminate()
        try:
            upstream.wait(timeout=5)
        except subprocess.TimeoutExpired:
            upstream.kill()


if __name__ == "__main__":
    main()
