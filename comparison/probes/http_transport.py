"""Streamable HTTP transport of the wire client: every read bounded, every failure recorded on
the Exchange. No Django."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from . import http11
from .exchange import Exchange, ExchangeFailure, ExchangeTimeout, Limits, decode
from .secrets import Redactor, display_url, mask_headers, url_secrets

logger = logging.getLogger(__name__)


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

    def abort(self) -> None:
        """From another thread: the exchange in progress ends now, and no further one is sent."""
        self.connection.abort()

    def close(self) -> None:
        if "Mcp-Session-Id" in self.session_headers and not self.connection.aborted:
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
                raise ExchangeFailure(f"HTTP {response.status}: {raw[:120]!r}")
            if kind == "text/event-stream":
                record.framing = "sse"
                self._read_sse(response, record, message.get("id"), deadline)
            else:
                raw = self._read_body(response, record, deadline)
                record.framing = "json" if raw else "empty"
                if raw and response.status >= 400 and not raw.lstrip().startswith(b"{"):
                    raise ExchangeFailure(f"HTTP {response.status}: {raw[:120]!r}")
                if raw:
                    self._parse_json(raw, record, message.get("id"))
        except ExchangeFailure as failure:
            record.failure = str(failure)
            record.timed_out = isinstance(failure, ExchangeTimeout)
        except http11.ConnectFailed as error:
            record.failure = f"connection refused or unreachable: {error}"
        except http11.TimedOut as error:
            record.failure = f"timed out ({error})"
            record.timed_out = True
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
                    raise ExchangeFailure(f"response over the {self.limits.max_bytes:,}-byte cap")
                if time.monotonic() > deadline:
                    raise ExchangeTimeout(f"response not complete within {self.limits.total_timeout:.0f} s")
                yield chunk
        except http11.TimedOut:
            # The head came in time; the body did not.
            raise ExchangeTimeout(f"response not complete within {self.limits.total_timeout:.0f} s") from None

    def _read_body(self, response: http11.Response, record: Exchange, deadline: float) -> bytes:
        return b"".join(self._chunks(response, record, deadline))

    def _parse_json(self, body: bytes, record: Exchange, request_id: Any) -> None:
        value = decode(body, record, "the response")
        if not isinstance(value, dict):
            raise ExchangeFailure("the response is not a JSON-RPC object")
        if request_id is not None and value.get("id") != request_id and "error" not in value:
            raise ExchangeFailure(f"response id {value.get('id')!r} does not match request id {request_id!r}")
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
                    raise ExchangeFailure(f"more than {self.limits.max_events} SSE events without the response")
                message = decode(data, record, "an SSE event")
                if isinstance(message, dict) and "id" in message and ("result" in message or "error" in message):
                    if message["id"] != request_id:
                        raise ExchangeFailure(f"response id {message['id']!r} does not match request id {request_id!r}")
                    record.response = message
                    return
                record.notifications.append(message)
        if request_id is not None:
            raise ExchangeFailure("the SSE stream ended without a response")
