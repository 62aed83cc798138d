"""The GET stream of a Streamable HTTP session: what the server sends that is tied to no request
(list changes, resource updates, and what a proxy routes there by mistake). Read by a thread of
its own, bounded in bytes, events and time; a server that answers 405 has none. No Django.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from comparison.probes.targets.secrets import Redactor
from comparison.probes.transport import http11, sse
from comparison.probes.transport.exchange import Exchange, ExchangeFailure, Limits, decode

#: How long one read waits before looking whether the stream was stopped.
READ_SLICE = 0.25
#: How long the server may take to answer the stream's request (its headers).
ANSWER_SECONDS = 5.0
#: How often a settle wait looks whether all a call expects has arrived.
SETTLE_POLL = 0.01


class GetStream:
    """A long-lived server stream read in the background: the session's GET stream, or (with a
    method and body) a request whose answer is a stream, as `subscriptions/listen` is."""

    def __init__(
        self,
        url: str,
        headers: dict[str, str],
        limits: Limits,
        redactor: Redactor,
        *,
        method: str = "GET",
        body: bytes = b"",
    ):
        self.connection = http11.Connection(url, connect_timeout=limits.connect_timeout)
        accept = "text/event-stream" if method == "GET" else "application/json, text/event-stream"
        self.headers = {"Accept": accept, **headers}
        if body:
            self.headers["Content-Type"] = "application/json"
        self.method, self.body = method, body
        self.limits = limits
        self.redactor = redactor
        self.messages: list[dict[str, Any]] = []
        self.status: int | None = None
        #: Why the stream is not (or no longer) open: "HTTP 405", "closed by the server", …
        self.ended = ""
        self.opened = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._mark = 0
        #: Set by the call in progress: answers a server request that arrives on this stream, as a
        #: conformant client does on whichever stream a request comes (a proxy may route it here).
        self.responder: Callable[[dict[str, Any]], None] | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        #: Where to POST, when the stream is the deprecated HTTP+SSE transport's (its first event).
        self.endpoint = ""
        self.endpoint_given = threading.Event()

    def start(self, wait: float | None = None) -> None:
        """Open the stream; returns once the server answered (or `wait` passed, by default the
        connect timeout: a proxy that starts a process per session, on a busy machine, took over
        the 2 s this once waited, and a slow answer read as a stream that never opened)."""
        self._thread.start()
        self.opened.wait(self.limits.connect_timeout if wait is None else wait)

    def stop(self) -> None:
        self._stop.set()
        self.connection.abort()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout=1.0)
        self.connection.close()

    @property
    def open(self) -> bool:
        return self.status == 200 and not self.ended

    def mark(self) -> None:
        """Messages from here on belong to the call that is starting."""
        with self._lock:
            self._mark = len(self.messages)

    def since_mark(self, settle: float = 0.0, done: Callable[[list[Any]], bool] | None = None) -> list[dict[str, Any]]:
        """What arrived since `mark`, after waiting up to `settle` seconds for stragglers (a server may
        write a call's notifications to this stream after the call's own answer); `done` (what
        arrived so far → enough) ends the wait early."""
        until = time.monotonic() + settle
        while settle > 0 and self.open and time.monotonic() < until:
            with self._lock:
                so_far = self.messages[self._mark :]
            if done is not None and done(so_far):
                break
            time.sleep(min(SETTLE_POLL, max(0.0, until - time.monotonic())))
        with self._lock:
            found = self.messages[self._mark :]
            self._mark = len(self.messages)
        return found

    def response_to(self, request_id: Any, deadline: float) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        """The deprecated HTTP+SSE transport's answer: (the response to `request_id` once it came on
        this stream, or None by `deadline` or when the stream ended; what else came since `mark`)."""
        while True:
            with self._lock:
                since = self.messages[self._mark :]
                response = next((m for m in since if _answers(m, request_id)), None)
                if response is not None or not self.open or time.monotonic() >= deadline:
                    self._mark = len(self.messages)
                    return response, [m for m in since if m is not response]
            time.sleep(SETTLE_POLL)

    def _run(self) -> None:
        record = Exchange("GET", {})
        try:
            response = self.connection.request(
                self.method, list(self.headers.items()), self.body, time.monotonic() + ANSWER_SECONDS
            )
            self.status = response.status
            if response.status != 200 or "event-stream" not in response.header("content-type"):
                self.ended = f"HTTP {response.status}"
                return
            self.opened.set()
            events = sse.EventReader(self.limits.max_events + 1)
            received = 0
            while not self._stop.is_set():
                try:
                    for chunk in response.chunks(time.monotonic() + READ_SLICE, keep_open=True):
                        received += len(chunk)
                        if received > self.limits.max_bytes:
                            self.ended = f"over the {self.limits.max_bytes:,}-byte cap"
                            return
                        self._events(events.feed_events(chunk), record)
                        if self._stop.is_set() or self.ended:
                            return
                    self.ended = "closed by the server"
                    return
                except http11.TimedOut:
                    continue  # nothing in this slice: look whether we were stopped, read on
        except http11.TimedOut:
            # The request's own deadline: the server took the connection and never answered.
            if not self._stop.is_set():
                self.ended = f"no answer to the {self.method} within {ANSWER_SECONDS:.0f} s"
        except (http11.ConnectFailed, http11.Broken, ValueError) as error:
            if not self._stop.is_set():
                self.ended = self.redactor.text(f"{type(error).__name__}: {error}")[:200]
        except ExchangeFailure as error:
            self.ended = str(error)[:200]
        # Anything else a hostile server provokes becomes the stream's finding, never a traceback.
        except Exception as error:
            self.ended = self.redactor.text(f"the stream failed: {type(error).__name__}: {error}")[:200]
        finally:
            self.opened.set()

    def _events(self, complete: list[tuple[str, bytes]], record: Exchange) -> None:
        for event, data in complete:
            if event == sse.ENDPOINT:
                self.endpoint = data.decode("utf-8", "replace")[:2000]
                self.endpoint_given.set()
                continue
            message = decode(data, record, "a GET stream event")
            with self._lock:
                if len(self.messages) >= self.limits.max_events:
                    self.ended = f"more than {self.limits.max_events} events"
                    return
                kept = self.redactor.data(message)
                self.messages.append(kept)
            responder = self.responder
            if responder is not None and is_request(kept):
                responder(kept)


def _answers(message: Any, request_id: Any) -> bool:
    return isinstance(message, dict) and message.get("id") == request_id and ("result" in message or "error" in message)


def is_request(message: Any) -> bool:
    """A server→client request: a method and an id, no result or error."""
    return (
        isinstance(message, dict)
        and "method" in message
        and "id" in message
        and "result" not in message
        and "error" not in message
    )
