"""An HTTP(S) proxy on 127.0.0.1 that refuses everything and records where each request wanted to
go. Hosts run with HTTPS_PROXY / HTTP_PROXY pointing here (and NO_PROXY for loopback), so a host
that tries to reach the internet is refused at once and the attempt is on record."""

from __future__ import annotations

import socket
import threading
import time

MAX_RECORDED = 500
READ_LIMIT = 8192


class EgressTrap:
    def __init__(self, lifetime: float = 900.0):
        self.attempts: list[str] = []
        self.deadline = time.monotonic() + lifetime
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.5)
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def __enter__(self) -> EgressTrap:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)
        self.sock.close()

    def _serve(self) -> None:
        while not self.stopping.is_set() and time.monotonic() < self.deadline:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(2)
                try:
                    head = conn.recv(READ_LIMIT).decode("latin-1")
                except OSError:
                    head = ""
                first = head.split("\r\n", 1)[0]
                if len(self.attempts) < MAX_RECORDED:
                    self.attempts.append(first[:300] or "(no request line)")
                try:
                    conn.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                except OSError:
                    pass


def proxy_environment(trap_url: str) -> dict[str, str]:
    loopback = "127.0.0.1,localhost,::1"
    return {
        "HTTPS_PROXY": trap_url,
        "HTTP_PROXY": trap_url,
        "https_proxy": trap_url,
        "http_proxy": trap_url,
        "ALL_PROXY": trap_url,
        "NO_PROXY": loopback,
        "no_proxy": loopback,
    }
