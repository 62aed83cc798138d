"""stdio transport of the wire client: a child process in a process group of its own, every read
bounded, the process ended by its pid. No Django."""

from __future__ import annotations

import json
import logging
import os
import queue
import signal
import subprocess
import threading
import time
from typing import Any

from .exchange import Exchange, ExchangeFailure, Limits, decode
from .secrets import Redactor, command_secrets

logger = logging.getLogger(__name__)


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
                    raise ExchangeFailure(f"no response within {self.limits.total_timeout:.0f} s")
                try:
                    line = self.lines.get(timeout=remaining)
                except queue.Empty:
                    raise ExchangeFailure(f"no response within {self.limits.total_timeout:.0f} s") from None
                if line is None:
                    raise ExchangeFailure("the process closed its output")
                record.bytes += len(line)
                if len(line) > self.limits.max_bytes:
                    raise ExchangeFailure(f"a message over the {self.limits.max_bytes:,}-byte cap")
                value = decode(line, record, "a line on stdout")
                if isinstance(value, dict) and "method" in value:
                    # A notification or a request of the server's own (sampling, elicitation): not ours.
                    record.notifications.append(value)
                    if len(record.notifications) > self.limits.max_events:
                        raise ExchangeFailure(f"more than {self.limits.max_events} messages without the response")
                    continue
                if not isinstance(value, dict):
                    raise ExchangeFailure(f"the response is not a JSON-RPC object (got {type(value).__name__})")
                if value.get("id") != request_id:
                    # One request is in flight at a time, so any other id is a wrong answer.
                    raise ExchangeFailure(f"response id {value.get('id')!r} does not match request id {request_id!r}")
                record.response = value
                break
        except ExchangeFailure as failure:
            record.failure = str(failure)[:2000]
        record.duration_ms = (time.monotonic() - started) * 1000
        return record.redact(self.redactor)
