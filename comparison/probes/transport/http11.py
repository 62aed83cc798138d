"""A small HTTP/1.1 client for probing: h11 over a socket, one connection kept alive, every read
bounded by a deadline. No Django.

It replaces httpx in the wire client because a probe pays per exchange: httpx's layers cost
about a millisecond a request on loopback, more than the server's own answer, and its
connection was dropped after every Server-Sent-Events answer we stopped reading. Here a response
read to its end leaves the connection open for the next exchange; one we stop reading early is
drained briefly or the connection is closed.
"""

from __future__ import annotations

import socket
import ssl
import time
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

import h11

#: After the answer a probe needs, the rest of a stream is read for at most this long (a server
#: ends a POST's event stream right after the response) before the connection is given up.
DRAIN_SECONDS = 0.2
DRAIN_BYTES = 256 * 1024


class ConnectFailed(Exception):
    """The server could not be reached (refused, unreachable, no such host, TLS failed)."""


class TimedOut(Exception):
    """A read or write passed its deadline."""


class Broken(Exception):
    """The connection broke, or the server spoke something that is not HTTP/1.1."""


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    _connection: Connection

    def header(self, name: str) -> str:
        return self.headers.get(name.lower(), "")

    def chunks(self, deadline: float, *, keep_open: bool = False) -> Iterator[bytes]:
        """The body as it arrives; raises TimedOut past the deadline (with `keep_open`, the
        connection stays usable, so a long-lived stream can be read in slices)."""
        return self._connection.body(deadline, keep_open=keep_open)


class Connection:
    """One HTTP/1.1 connection to the URL's host, opened on demand and reused while it can be."""

    def __init__(self, url: str, *, connect_timeout: float):
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {url[:200]!r}")
        self.tls = parts.scheme == "https"
        self.host = parts.hostname
        self.port = parts.port or (443 if self.tls else 80)
        self.target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        default_port = 443 if self.tls else 80
        self.host_header = self.host if self.port == default_port else f"{self.host}:{self.port}"
        if ":" in self.host:  # an IPv6 literal
            self.host_header = f"[{self.host}]" + ("" if self.port == default_port else f":{self.port}")
        self.connect_timeout = connect_timeout
        self.sock: socket.socket | None = None
        self.h11: h11.Connection | None = None
        #: Set by abort(): no new connection is opened, and a read in progress ends at once.
        self.aborted = False

    def abort(self) -> None:
        """From another thread: end a read or write in progress now (the run was cancelled or
        ran out of time) and refuse any further request."""
        self.aborted = True
        sock = self.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        if self.sock is not None:
            try:
                self.sock.close()
            except OSError:
                pass
        self.sock, self.h11 = None, None

    def request(self, method: str, headers: list[tuple[str, str]], body: bytes, deadline: float) -> Response:
        """Send a request and read the response head; the body is read through the Response."""
        self._ready(deadline)
        all_headers = [("Host", self.host_header), ("Content-Length", str(len(body))), *headers]
        try:
            data = self.h11.send(h11.Request(method=method, target=self.target, headers=all_headers))
            data += self.h11.send(h11.Data(data=body)) if body else b""
            data += self.h11.send(h11.EndOfMessage())
        except h11.LocalProtocolError as error:
            self.close()
            raise ValueError(f"the request cannot be sent: {error}") from None
        self._send(data, deadline)
        while True:
            event = self._next_event(deadline)
            if isinstance(event, h11.InformationalResponse):
                continue
            if isinstance(event, h11.Response):
                headers_out = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in event.headers}
                return Response(event.status_code, headers_out, self)
            self.close()
            raise Broken(f"unexpected {type(event).__name__} before the response")

    def body(self, deadline: float, *, keep_open: bool = False) -> Iterator[bytes]:
        while True:
            event = self._next_event(deadline, keep_open=keep_open)
            if isinstance(event, h11.Data):
                yield bytes(event.data)
            elif isinstance(event, h11.EndOfMessage):
                self._finish()
                return
            else:
                self.close()
                raise Broken(f"unexpected {type(event).__name__} in the body")

    def release(self) -> None:
        """After an exchange: a body the caller stopped reading is drained a little, else the
        connection is closed; a finished one leaves the connection ready for the next."""
        if self.h11 is None:
            return
        if self.h11.their_state is h11.DONE:
            self._finish()
            return
        if self.h11.their_state is not h11.SEND_BODY:
            if self.h11.our_state is not h11.IDLE:  # a request sent, its response never read
                self.close()
            return
        deadline = time.monotonic() + DRAIN_SECONDS
        drained = 0
        try:
            for chunk in self.body(deadline):
                drained += len(chunk)
                if drained > DRAIN_BYTES:
                    self.close()
                    return
        except (TimedOut, Broken, OSError):
            self.close()

    def _finish(self) -> None:
        if self.h11 is None:
            return
        if self.h11.our_state is h11.DONE and self.h11.their_state is h11.DONE:
            self.h11.start_next_cycle()
        else:
            self.close()

    def _ready(self, deadline: float) -> None:
        if self.aborted:
            raise Broken("the probe stopped this connection")
        if self.sock is not None and self.h11 is not None and self.h11.our_state is h11.IDLE:
            return
        self.close()
        timeout = max(0.001, min(self.connect_timeout, deadline - time.monotonic()))
        try:
            sock = socket.create_connection((self.host, self.port), timeout=timeout)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if self.tls:
                sock = ssl.create_default_context().wrap_socket(sock, server_hostname=self.host)
        except TimeoutError as error:
            raise ConnectFailed(f"connect timed out ({error})") from None
        except (OSError, ssl.SSLError) as error:
            raise ConnectFailed(str(error)) from None
        self.sock, self.h11 = sock, h11.Connection(h11.CLIENT)

    def _send(self, data: bytes, deadline: float) -> None:
        try:
            self.sock.settimeout(max(0.001, deadline - time.monotonic()))
            self.sock.sendall(data)
        except TimeoutError:
            self.close()
            raise TimedOut("sending the request timed out") from None
        except OSError as error:
            self.close()
            raise Broken(str(error)) from None

    def _next_event(self, deadline: float, *, keep_open: bool = False):
        while True:
            try:
                event = self.h11.next_event()
            except h11.RemoteProtocolError as error:
                self.close()
                raise Broken(f"not HTTP/1.1: {error}") from None
            if event is not h11.NEED_DATA:
                if isinstance(event, h11.ConnectionClosed):
                    self.close()
                    raise Broken("the server closed the connection")
                return event
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                if not keep_open:
                    self.close()
                raise TimedOut("no data before the deadline")
            try:
                self.sock.settimeout(remaining)
                data = self.sock.recv(65536)
            except TimeoutError:
                if not keep_open:
                    self.close()
                raise TimedOut("no data before the deadline") from None
            except OSError as error:
                self.close()
                raise Broken(str(error)) from None
            try:
                self.h11.receive_data(data)
            except h11.RemoteProtocolError as error:
                self.close()
                raise Broken(f"not HTTP/1.1: {error}") from None
