"""Raw JSON-RPC to an MCP server over Streamable HTTP or stdio, every exchange captured and bounded.

Not the SDK's types: they reject or normalise exactly what a probe needs to see. Every read has a
connect timeout, a total deadline, a byte cap and (for SSE) an event cap; whatever a target does
(hang, drip, flood, garbage, disconnect) ends as a recorded failure on the Exchange, never as a
stuck caller. No Django here.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from . import http11, jsonsafe
from .secrets import Redactor, command_secrets, display_url, mask_headers, url_secrets

logger = logging.getLogger(__name__)

STATELESS_REVISION = "2026-07-28"
CLIENT_INFO = {"name": "mcp-compare-probe", "version": "1.0.0"}


@dataclass(frozen=True)
class Limits:
    connect_timeout: float = 5.0
    total_timeout: float = 15.0
    max_bytes: int = 8 * 1024 * 1024
    max_events: int = 500


@dataclass
class Exchange:
    method: str
    request: dict[str, Any]
    request_headers: dict[str, str] = field(default_factory=dict)
    status: int | None = None
    response_headers: dict[str, str] = field(default_factory=dict)
    response: dict[str, Any] | None = None
    notifications: list[dict[str, Any]] = field(default_factory=list)
    framing: str = ""  # "json", "sse", "stdio", "empty"
    bytes: int = 0
    duration_ms: float = 0.0
    failure: str = ""  # empty when the exchange completed; else what went wrong, bounded
    #: What had to be repaired in the answer to keep it (lone surrogates, NUL characters).
    repairs: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failure

    def as_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "request": self.request,
            "request_headers": self.request_headers,
            "status": self.status,
            "response_headers": self.response_headers,
            "response": self.response,
            "notifications": self.notifications,
            "framing": self.framing,
            "bytes": self.bytes,
            "duration_ms": round(self.duration_ms, 2),
            "failure": self.failure,
            "repairs": self.repairs,
        }

    def redact(self, redactor: Redactor) -> Exchange:
        """Mask every configured secret a target echoed back, wherever it sits."""
        if redactor:
            self.response_headers = redactor.data(self.response_headers)
            self.response = redactor.data(self.response)
            self.notifications = redactor.data(self.notifications)
            self.failure = redactor.text(self.failure)
        return self


class _Failure(Exception):
    pass


def decode(data: bytes, record: Exchange, what: str) -> Any:
    """JSON from the target, bounded and repaired (jsonsafe); a _Failure when it cannot be kept."""
    try:
        value, repairs = jsonsafe.loads(data)
    except jsonsafe.UnsafeJSON as error:
        raise _Failure(f"unusable JSON in {what}: {error}") from None
    except ValueError:
        raise _Failure(f"invalid JSON in {what}: {data[:120]!r}") from None
    record.repairs.extend(note for note in repairs.describe() if note not in record.repairs)
    return value


class HttpTransport:
    """Streamable HTTP: one POST per message; JSON or SSE answers; session and version headers.
    One HTTP/1.1 connection is kept alive across the exchanges of a session (comparison.probes.http11)."""

    def __init__(self, url: str, *, headers: dict[str, str] | None = None, limits: Limits | None = None):
        self.url = url
        self.limits = limits or Limits()
        self.base_headers = dict(headers or {})
        # Every configured header value is a secret, whatever the header is called.
        self.redactor = Redactor([*self.base_headers.values(), *url_secrets(url)])
        self.connection = http11.Connection(url, connect_timeout=self.limits.connect_timeout)
        self.session_headers: dict[str, str] = {}
        self.shown_url = display_url(url)

    def close(self) -> None:
        if "Mcp-Session-Id" in self.session_headers:
            headers = {**self.base_headers, **self.session_headers}
            deadline = time.monotonic() + 2.0
            try:
                response = self.connection.request("DELETE", list(headers.items()), b"", deadline)
                for _ in response.chunks(deadline):
                    pass
            except (http11.ConnectFailed, http11.TimedOut, http11.Broken, ValueError):
                pass
        self.connection.close()

    def exchange(self, message: dict[str, Any], extra_headers: dict[str, str] | None = None) -> Exchange:
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **self.base_headers,
            **self.session_headers,
            **(extra_headers or {}),
        }
        record = Exchange(message.get("method", ""), message, mask_headers(headers, self.base_headers))
        started = time.monotonic()
        deadline = started + self.limits.total_timeout
        body = json.dumps(message).encode()
        try:
            response = self.connection.request("POST", list(headers.items()), body, deadline)
            record.status = response.status
            record.response_headers = mask_headers(response.headers, self.base_headers)
            kind = response.header("content-type").split(";")[0].strip().lower()
            if response.status >= 500:
                raw = self._read_body(response, record, deadline)
                raise _Failure(f"HTTP {response.status}: {raw[:120]!r}")
            if kind == "text/event-stream":
                record.framing = "sse"
                self._read_sse(response, record, message.get("id"), deadline)
            else:
                raw = self._read_body(response, record, deadline)
                record.framing = "json" if raw else "empty"
                if raw and response.status >= 400 and not raw.lstrip().startswith(b"{"):
                    raise _Failure(f"HTTP {response.status}: {raw[:120]!r}")
                if raw:
                    self._parse_json(raw, record, message.get("id"))
        except _Failure as failure:
            record.failure = str(failure)
        except http11.ConnectFailed as error:
            record.failure = f"connection refused or unreachable: {error}"
        except http11.TimedOut as error:
            record.failure = f"timed out ({error})"
        except http11.Broken as error:
            record.failure = f"connection broke: {error}"
        except ValueError as error:
            record.failure = f"the request cannot be sent: {error}"
        finally:
            self.connection.release()
        record.duration_ms = (time.monotonic() - started) * 1000
        if not record.failure and "id" in message and record.response is None and record.status == 200:
            record.failure = "no response to the request"
        if not record.failure and record.status is not None and record.status >= 500:
            record.failure = f"HTTP {record.status}"
        record.failure = record.failure[:2000]
        record = record.redact(self.redactor)
        logger.debug(
            "%s to %s: %s in %.1f ms",
            record.method or "response",
            self.shown_url,
            record.failure or f"HTTP {record.status}",
            record.duration_ms,
        )
        return record

    def _chunks(self, response: http11.Response, record: Exchange, deadline: float):
        try:
            for chunk in response.chunks(deadline):
                record.bytes += len(chunk)
                if record.bytes > self.limits.max_bytes:
                    raise _Failure(f"response over the {self.limits.max_bytes:,}-byte cap")
                if time.monotonic() > deadline:
                    raise _Failure(f"response not complete within {self.limits.total_timeout:.0f} s")
                yield chunk
        except http11.TimedOut:
            # The head came in time; the body did not.
            raise _Failure(f"response not complete within {self.limits.total_timeout:.0f} s") from None

    def _read_body(self, response: http11.Response, record: Exchange, deadline: float) -> bytes:
        return b"".join(self._chunks(response, record, deadline))

    def _parse_json(self, body: bytes, record: Exchange, request_id: Any) -> None:
        value = decode(body, record, "the response")
        if not isinstance(value, dict):
            raise _Failure("the response is not a JSON-RPC object")
        if request_id is not None and value.get("id") != request_id and "error" not in value:
            raise _Failure(f"response id {value.get('id')!r} does not match request id {request_id!r}")
        record.response = value

    def _read_sse(self, response: http11.Response, record: Exchange, request_id: Any, deadline: float) -> None:
        buffer = b""
        events = 0
        for chunk in self._chunks(response, record, deadline):
            buffer += chunk.replace(b"\r\n", b"\n")
            while b"\n\n" in buffer:
                raw, buffer = buffer.split(b"\n\n", 1)
                data = b"\n".join(line[5:].lstrip() for line in raw.split(b"\n") if line.startswith(b"data:"))
                if not data:
                    continue
                events += 1
                if events > self.limits.max_events:
                    raise _Failure(f"more than {self.limits.max_events} SSE events without the response")
                message = decode(data, record, "an SSE event")
                if isinstance(message, dict) and "id" in message and ("result" in message or "error" in message):
                    if message["id"] != request_id:
                        raise _Failure(f"response id {message['id']!r} does not match request id {request_id!r}")
                    record.response = message
                    return
                record.notifications.append(message)
        if request_id is not None:
            raise _Failure("the SSE stream ended without a response")


class StdioTransport:
    """A child process speaking newline-delimited JSON-RPC; ended by its process group."""

    def __init__(
        self,
        command: list[str],
        *,
        env: dict[str, str] | None = None,
        limits: Limits | None = None,
        cwd: str | None = None,
    ):
        self.limits = limits or Limits()
        self.redactor = Redactor([*command_secrets(command), *(env or {}).values()])
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, **(env or {})},
            cwd=cwd,
            start_new_session=True,
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue(maxsize=10_000)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            try:
                line = stream.readline(self.limits.max_bytes + 1)
                if len(line) > self.limits.max_bytes and not line.endswith(b"\n"):
                    # An oversized message: what is left of it is skipped, so the next line read
                    # is the next message and not the tail of this one.
                    while (rest := stream.readline(self.limits.max_bytes + 1)) and not rest.endswith(b"\n"):
                        pass
            except (ValueError, OSError):  # the pipe was closed under us
                line = b""
            if not line:
                try:
                    self.lines.put(None, timeout=1)
                except queue.Full:
                    pass
                return
            try:
                self.lines.put(line, timeout=1)
            except queue.Full:  # nobody is reading any more: the exchange has already failed
                return

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=5)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.process.wait(timeout=5)
        # End of input first: a session the child handed on (a forked fixture) ends with it, and
        # with every writer gone the reader reaches end of file and ends by itself.
        if self.process.stdin:
            self.process.stdin.close()
        self.reader.join(timeout=2)
        if self.process.stdout:
            self.process.stdout.close()

    def exchange(self, message: dict[str, Any], extra_headers: dict[str, str] | None = None) -> Exchange:
        record = Exchange(message.get("method", ""), message, framing="stdio")
        started = time.monotonic()
        deadline = started + self.limits.total_timeout
        try:
            self.process.stdin.write((json.dumps(message) + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            record.failure = f"the process is gone: {error}"
            return record
        request_id = message.get("id")
        try:
            while request_id is not None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise _Failure(f"no response within {self.limits.total_timeout:.0f} s")
                try:
                    line = self.lines.get(timeout=remaining)
                except queue.Empty:
                    raise _Failure(f"no response within {self.limits.total_timeout:.0f} s") from None
                if line is None:
                    raise _Failure("the process closed its output")
                record.bytes += len(line)
                if len(line) > self.limits.max_bytes:
                    raise _Failure(f"a message over the {self.limits.max_bytes:,}-byte cap")
                value = decode(line, record, "a line on stdout")
                if isinstance(value, dict) and "method" in value:
                    # A notification or a request of the server's own (sampling, elicitation): not ours.
                    record.notifications.append(value)
                    if len(record.notifications) > self.limits.max_events:
                        raise _Failure(f"more than {self.limits.max_events} messages without the response")
                    continue
                if not isinstance(value, dict):
                    raise _Failure(f"the response is not a JSON-RPC object (got {type(value).__name__})")
                if value.get("id") != request_id:
                    # One request is in flight at a time, so any other id is a wrong answer.
                    raise _Failure(f"response id {value.get('id')!r} does not match request id {request_id!r}")
                record.response = value
                break
        except _Failure as failure:
            record.failure = str(failure)[:2000]
        record.duration_ms = (time.monotonic() - started) * 1000
        return record.redact(self.redactor)


@dataclass
class Session:
    requested: str
    negotiated: str = ""
    stateless: bool = False
    server_info: dict[str, Any] = field(default_factory=dict)
    capabilities: dict[str, Any] = field(default_factory=dict)
    exchanges: list[Exchange] = field(default_factory=list)
    failure: str = ""


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _header_safe(value: str) -> bool:
    """A value that can go back out as a header: printable ASCII, bounded."""
    return len(value) <= 512 and value.isascii() and value.isprintable()


def _brief(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)[:200]


class WireClient:
    """Opens a session at a chosen revision and sends requests in that revision's style."""

    def __init__(self, transport: HttpTransport | StdioTransport):
        self.transport = transport
        self.next_id = 0
        self.session: Session | None = None

    def _id(self) -> int:
        self.next_id += 1
        return self.next_id

    def _envelope(self) -> dict[str, Any]:
        return {
            "io.modelcontextprotocol/protocolVersion": STATELESS_REVISION,
            "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
            "io.modelcontextprotocol/clientCapabilities": {},
        }

    def open(self, revision: str) -> Session:
        """Open a session at `revision`; whatever the target answers, a Session comes back (with
        `failure` set when the opening did not succeed)."""
        session = Session(revision)
        self.session = session
        if revision == STATELESS_REVISION:
            discover = self._send("server/discover", {}, record=session)
            result = _object((discover.response or {}).get("result"))
            versions = result.get("supportedVersions")
            if discover.ok and isinstance(versions, list) and STATELESS_REVISION in versions:
                session.stateless, session.negotiated = True, STATELESS_REVISION
                session.server_info = _object(result.get("serverInfo"))
                session.capabilities = _object(result.get("capabilities"))
                return session
        init = self._send(
            "initialize", {"protocolVersion": revision, "capabilities": {}, "clientInfo": CLIENT_INFO}, record=session
        )
        result = (init.response or {}).get("result")
        if not init.ok or not isinstance(result, dict):
            session.failure = init.failure or f"initialize failed: {_brief(init.response)}"
            return session
        version = result.get("protocolVersion", "")
        if not isinstance(version, str) or not version:
            session.failure = f"initialize answered without a protocolVersion string: {_brief(version)}"
            return session
        session.negotiated = version[:20]
        session.server_info = _object(result.get("serverInfo"))
        session.capabilities = _object(result.get("capabilities"))
        if isinstance(self.transport, HttpTransport):
            session_id = next((v for k, v in init.response_headers.items() if k.lower() == "mcp-session-id"), None)
            for name, value in (("Mcp-Session-Id", session_id), ("MCP-Protocol-Version", session.negotiated)):
                if value and _header_safe(value):
                    self.transport.session_headers[name] = value
        self._send("notifications/initialized", None, record=session, notification=True)
        return session

    def _send(
        self, method: str, params: dict[str, Any] | None, *, record: Session | None = None, notification: bool = False
    ) -> Exchange:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if not notification:
            message["id"] = self._id()
        headers: dict[str, str] = {}
        stateless = method == "server/discover" or (self.session is not None and self.session.stateless)
        if stateless:
            params = dict(params or {})
            params["_meta"] = {**(params.get("_meta") or {}), **self._envelope()}
            headers = {"MCP-Protocol-Version": STATELESS_REVISION, "Mcp-Method": method}
            if params.get("name"):
                headers["Mcp-Name"] = str(params["name"])
        if params is not None:
            message["params"] = params
        exchange = self.transport.exchange(message, headers)
        (record or self.session).exchanges.append(exchange)
        return exchange

    def request(self, method: str, params: dict[str, Any] | None = None) -> Exchange:
        return self._send(method, params)

    def close(self) -> None:
        self.transport.close()
