"""Streamable HTTP transport of the wire client: every read bounded, every failure recorded on
the Exchange. No Django."""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any
from urllib.parse import urljoin

from comparison.probes.targets.secrets import Redactor, display_url, mask_headers, same_origin, url_secrets
from comparison.probes.transport import http11, sse
from comparison.probes.transport.exchange import (
    Call,
    Exchange,
    ExchangeFailure,
    ExchangeTimeout,
    Limits,
    decode,
    record_failure,
)
from comparison.probes.transport.get_stream import GetStream

logger = logging.getLogger(__name__)

#: How often a call's stream that ended early is resumed, and the wait when the server set none.
RESUME_TRIES = 3
RESUME_WAIT_DEFAULT = 1.0
ENDED_EARLY = "the SSE stream ended without a response"


def redirect_failure(status: int, location: str) -> str:
    """What a cell says of a redirect: where it pointed (credentials masked, bounded), and that the
    probe does not follow it (a proxy's MCP endpoint should answer, not send the client on)."""
    printable = "".join(char for char in location if char.isprintable())[:300]
    where = f" to {display_url(printable)}" if printable else " without a Location"
    return (
        f"the target answered {status}{where}; redirects are not followed: "
        "point the target's URL at the address that answers"
    )


class HttpTransport:
    """Streamable HTTP: one POST per message; JSON or SSE answers; session and version headers.
    One HTTP/1.1 connection is kept alive across the exchanges of a session (comparison.probes.transport.http11)."""

    def __init__(self, url: str, *, headers: dict[str, str] | None = None, limits: Limits | None = None):
        self.url = url
        self.limits = limits or Limits()
        self.base_headers = dict(headers or {})
        # Every configured header value is a secret, whatever the header is called.
        self.redactor = Redactor([*self.base_headers.values(), *url_secrets(url)])
        self.connection = http11.Connection(url, connect_timeout=self.limits.connect_timeout)
        self.session_headers: dict[str, str] = {}
        self.shown_url = display_url(url)
        #: A second connection for what the probe sends while a call's answer is still streaming
        #: (replies to the server's requests, a cancel); one message at a time.
        self.side = http11.Connection(url, connect_timeout=self.limits.connect_timeout)
        self._side_lock = threading.Lock()
        #: The session's GET stream, once opened (`listen`).
        self.stream: GetStream | None = None
        #: Where messages are POSTed when the URL serves only the deprecated HTTP+SSE transport.
        self.legacy_endpoint = ""

    def fall_back_to_sse(self) -> str:
        """Speak the deprecated HTTP+SSE transport (2024-11-05's) where the URL serves only that,
        as the transports page's backwards-compatibility section tells a client: GET the URL, whose
        first event names where to POST; every answer then comes on that stream. Returns why the
        URL does not serve it, or ""."""
        stream = GetStream(self.url, dict(self.base_headers), self.limits, self.redactor)
        stream.start()
        if not stream.endpoint_given.wait(self.limits.connect_timeout):
            stream.stop()
            return stream.ended or f"HTTP {stream.status}: no endpoint event"
        endpoint = urljoin(self.url, stream.endpoint)
        if not same_origin(endpoint, self.url):
            stream.stop()
            # Probes go only where an admin pointed them: the target's own origin.
            return f"its endpoint event names another origin ({display_url(endpoint)}), which the probe does not follow"
        self.stream, self.legacy_endpoint = stream, endpoint
        for connection in (self.connection, self.side):
            connection.close()
        self.connection = http11.Connection(endpoint, connect_timeout=self.limits.connect_timeout)
        self.side = http11.Connection(endpoint, connect_timeout=self.limits.connect_timeout)
        return ""

    def listen(self) -> GetStream:
        """Open the session's GET stream (server messages not tied to a request); the deprecated
        HTTP+SSE transport's one stream is that already."""
        if self.legacy_endpoint and self.stream is not None:
            return self.stream
        self.stream = GetStream(self.url, {**self.base_headers, **self.session_headers}, self.limits, self.redactor)
        self.stream.start()
        return self.stream

    def open_stream(self, message: dict[str, Any], headers: dict[str, str]) -> GetStream:
        """A request whose answer is a long-lived stream (`subscriptions/listen`), read in the
        background on a connection of its own; `stop()` closes it, which cancels it over HTTP."""
        sent = {**self.base_headers, **self.session_headers, **headers}
        stream = GetStream(self.url, sent, self.limits, self.redactor, method="POST", body=json.dumps(message).encode())
        stream.start()
        return stream

    def _headers(self, extra: dict[str, str] | None = None, *, session: bool = True) -> dict[str, str]:
        """A POST's headers: JSON in, JSON or events out, the configured ones, the session's, `extra`."""
        return {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **self.base_headers,
            **(self.session_headers if session else {}),
            **(extra or {}),
        }

    def plain(self, method: str, message: dict[str, Any] | None, headers: dict[str, str]) -> tuple[int | None, str]:
        """One HTTP request outside the session's flow (a DELETE, a request with another session
        id), on a connection of its own: its status, or None and why it got none. Bounded."""
        connection = http11.Connection(self.url, connect_timeout=self.limits.connect_timeout)
        body = json.dumps(message).encode() if message is not None else b""
        deadline = time.monotonic() + self.limits.connect_timeout
        try:
            sent = self._headers(headers, session=False)
            response = connection.request(method, list(sent.items()), body, deadline)
            return response.status, ""
        except (http11.ConnectFailed, http11.TimedOut, http11.Broken, ValueError) as error:
            return None, self.redactor.text(f"{type(error).__name__}: {error}")[:200]
        finally:
            connection.close()

    def send(self, message: dict[str, Any], extra_headers: dict[str, str] | None = None) -> str:
        """POST a message that is not a request (a notification, a reply) on the side connection;
        returns why it was not accepted, or ""."""
        headers = self._headers(extra_headers)
        deadline = time.monotonic() + self.limits.connect_timeout
        with self._side_lock:
            try:
                response = self.side.request("POST", list(headers.items()), json.dumps(message).encode(), deadline)
                for _ in response.chunks(deadline):
                    pass
            except (http11.ConnectFailed, http11.TimedOut, http11.Broken, ValueError) as error:
                self.side.close()
                return self.redactor.text(f"{type(error).__name__}: {error}")[:200]
            finally:
                self.side.release()
        return "" if response.status < 300 else f"HTTP {response.status}"

    def abort(self) -> None:
        """From another thread: the exchange in progress ends now, and no further one is sent."""
        self.connection.abort()
        self.side.abort()
        if self.stream is not None:
            self.stream.stop()

    def close(self) -> None:
        if self.stream is not None:
            self.stream.stop()
        self.side.close()
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

    def exchange(
        self, message: dict[str, Any], extra_headers: dict[str, str] | None = None, call: Call | None = None
    ) -> Exchange:
        call = call or Call()
        headers = self._headers(extra_headers)
        record = Exchange(message.get("method", ""), message, mask_headers(headers, self.base_headers))
        started = time.monotonic()
        deadline = started + (call.wait if call.wait is not None else self.limits.total_timeout)
        limit = self.limits.max_events
        answered_on_get: list[dict[str, Any]] = []
        if self.stream is not None:
            self.stream.mark()
            if call.answer is not None:
                self.stream.responder = lambda request: self._answer_on_get(request, call, record, answered_on_get)
        timers = [threading.Timer(delay, self._later, (later, record, headers)) for delay, later, headers in call.later]
        record.saw("sent", "request", message, limit)
        try:
            for timer in timers:
                timer.daemon = True
                timer.start()
            self._post(message, headers, record, deadline, call, answered_on_get)
        except (ExchangeFailure, http11.ConnectFailed, http11.TimedOut, http11.Broken, ValueError) as error:
            record_failure(record, error, waits=call.wait is not None)
        finally:
            for timer in timers:
                timer.cancel()
            self.connection.release()
            if self.stream is not None:
                self.stream.responder = None
        if record.response is not None:
            record.saw("received", "request", record.response, limit)
        if self.stream is not None:
            arrived = record.notifications
            done = (lambda got: call.settled(record.response, arrived + got)) if call.until else None
            for item in self.stream.since_mark(call.settle, done):
                if not any(item is answered for answered in answered_on_get):  # recorded when answered
                    record.saw("received", self._stream_channel, item, limit)
        record.duration_ms = (time.monotonic() - started) * 1000
        return self._concluded(record, "id" in message)

    def _post(
        self,
        message: dict[str, Any],
        headers: dict[str, str],
        record: Exchange,
        deadline: float,
        call: Call,
        answered_on_get: list[dict[str, Any]],
    ) -> None:
        """The message POSTed and its answer read as it comes: a JSON body, an SSE stream, or (on
        the deprecated HTTP+SSE transport) on the GET stream. Raises what went wrong."""
        response = self.connection.request("POST", list(headers.items()), json.dumps(message).encode(), deadline)
        record.status = response.status
        record.response_headers = mask_headers(response.headers, self.base_headers)
        kind = response.header("content-type").split(";")[0].strip().lower()
        if response.status >= 500:
            raw = self._read_body(response, record, deadline)
            raise ExchangeFailure(f"HTTP {response.status}: {raw[:120]!r}")
        if 300 <= response.status < 400:
            self._read_body(response, record, deadline)
            raise ExchangeFailure(redirect_failure(response.status, response.header("location")))
        if self.legacy_endpoint:
            self._read_body(response, record, deadline)
            if response.status >= 400:
                raise ExchangeFailure(f"HTTP {response.status}")
            self._await_on_stream(record, message.get("id"), deadline, answered_on_get)
        elif kind == "text/event-stream":
            record.framing = "sse"
            self._read_sse(response, record, message.get("id"), deadline, call)
        else:
            raw = self._read_body(response, record, deadline)
            record.framing = "json" if raw else "empty"
            if raw and response.status >= 400 and not raw.lstrip().startswith(b"{"):
                raise ExchangeFailure(f"HTTP {response.status}: {raw[:120]!r}")
            if raw:
                self._parse_json(raw, record, message.get("id"))

    def _concluded(self, record: Exchange, is_request: bool) -> Exchange:
        """The record's last word (a request a 200 left unanswered, a 5xx), capped, redacted, logged."""
        if (
            not record.failure
            and not record.unanswered
            and is_request
            and record.response is None
            and record.status == 200
        ):
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

    @property
    def _stream_channel(self) -> str:
        """Where a message on the session's stream travelled: the GET stream, or (the deprecated
        HTTP+SSE transport's one stream) the same way as the call's own answer."""
        return "request" if self.legacy_endpoint else "get"

    def _await_on_stream(
        self, record: Exchange, request_id: Any, deadline: float, answered: list[dict[str, Any]]
    ) -> None:
        """The deprecated HTTP+SSE transport: the POST is only accepted; the answer, and what the
        server sends while it works on it, come on the session's one stream."""
        record.framing = "legacy sse"
        if request_id is None or self.stream is None:
            return
        response, meanwhile = self.stream.response_to(request_id, deadline)
        for message in meanwhile:
            if not any(message is request for request in answered):  # recorded when answered
                record.notifications.append(message)
                record.saw("received", "request", message, self.limits.max_events)
        if response is not None:
            record.response = response
        elif time.monotonic() >= deadline:
            raise ExchangeTimeout(f"no response on the SSE stream within {self.limits.total_timeout:.0f} s")
        else:
            raise ExchangeFailure(f"the SSE stream ended without a response ({self.stream.ended or 'closed'})")

    def _answer_on_get(
        self, request: dict[str, Any], call: Call, record: Exchange, answered: list[dict[str, Any]]
    ) -> None:
        """A server request that came on the GET stream during the call, answered on the side
        connection as one on the call's own stream is: a conformant client keeps both streams."""
        answered.append(request)
        record.saw("received", self._stream_channel, request, self.limits.max_events)
        try:
            reply = call.answer(request)
        except Exception:  # a request of an odd shape: left unanswered, as recorded, never a failed stream
            return
        record.sent_beside("reply", reply, self.send(reply), self.limits.max_events)

    def _later(self, message: dict[str, Any], record: Exchange, headers: dict[str, str]) -> None:
        record.sent_beside("later", message, self.send(message, headers), self.limits.max_events)

    def _read_sse(
        self, response: http11.Response, record: Exchange, request_id: Any, deadline: float, call: Call
    ) -> None:
        stream = sse.EventReader(self.limits.max_events)
        if self._read_events(response, record, request_id, deadline, call, stream):
            return
        # A server may end the call's stream early and let the client resume it (2025-11-25 on):
        # a conformant client waits the `retry` it was given and asks again with Last-Event-ID.
        for _ in range(RESUME_TRIES):
            if request_id is None or not stream.last_id or time.monotonic() >= deadline:
                break
            time.sleep(min(stream.retry_seconds(RESUME_WAIT_DEFAULT), max(0.0, deadline - time.monotonic())))
            resume = {"GET": "resume the call's stream", "Last-Event-ID": stream.last_id}
            record.saw("sent", "resume", resume, self.limits.max_events)
            resumed = http11.Connection(self.url, connect_timeout=self.limits.connect_timeout)
            try:
                headers = {"Accept": "text/event-stream", **self.base_headers, **self.session_headers}
                headers["Last-Event-ID"] = stream.last_id
                answer = resumed.request("GET", list(headers.items()), b"", deadline)
                if answer.status != 200 or "event-stream" not in answer.header("content-type"):
                    raise ExchangeFailure(f"{ENDED_EARLY}; resuming it got HTTP {answer.status}")
                record.framing = "sse, resumed"
                if self._read_events(answer, record, request_id, deadline, call, stream):
                    return
            except (http11.ConnectFailed, http11.Broken, ValueError) as error:
                raise ExchangeFailure(f"{ENDED_EARLY}; resuming it failed: {error}") from None
            finally:
                resumed.close()
        if request_id is not None:
            raise ExchangeFailure(ENDED_EARLY)

    def _read_events(
        self,
        response: http11.Response,
        record: Exchange,
        request_id: Any,
        deadline: float,
        call: Call,
        stream: sse.EventReader,
    ) -> bool:
        """Read one SSE body; True once the call's response came (it is on `record`)."""
        for chunk in self._chunks(response, record, deadline):
            for data in stream.feed(chunk):
                message = decode(data, record, "an SSE event")
                if isinstance(message, dict) and "id" in message and ("result" in message or "error" in message):
                    if message["id"] != request_id:
                        raise ExchangeFailure(f"response id {message['id']!r} does not match request id {request_id!r}")
                    record.response = message
                    return True
                record.notifications.append(message)
                record.saw("received", "request", message, self.limits.max_events)
                if isinstance(message, dict) and "method" in message and "id" in message and call.answer:
                    reply = call.answer(message)
                    record.sent_beside("reply", reply, self.send(reply), self.limits.max_events)
        return False
