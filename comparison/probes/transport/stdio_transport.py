"""stdio transport of the wire client: a child process in a session of its own, every read and
write bounded, and at the end every process it started ended (comparison.probes.processes.process_tree).
No Django.

Reads go through `select` and `os.read` on the raw descriptor, never a buffered reader's
`readline`: a thread blocked in `readline` holds the reader's lock, so closing the pipe under it
blocked the worker for good when a child that left the process group kept the pipe open.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import select
import subprocess
import threading
import time
from typing import Any

from comparison.probes.processes import process_tree
from comparison.probes.processes.child_env import child_environment
from comparison.probes.targets.secrets import Redactor, command_secrets
from comparison.probes.transport.exchange import Call, Exchange, ExchangeFailure, ExchangeTimeout, Limits, decode

logger = logging.getLogger(__name__)

#: How often a blocked read or write looks up to see whether the transport was closed.
POLL_SECONDS = 0.2
CHUNK = 65536


class StdioTransport:
    """A child process speaking newline-delimited JSON-RPC; its whole tree is ended on close."""

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
        self.mark = process_tree.new_mark()
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=child_environment(env, extra=self.mark),
            cwd=cwd,
            start_new_session=True,
        )
        os.set_blocking(self.process.stdin.fileno(), False)
        self.closing = threading.Event()
        self._close_lock = threading.Lock()
        self._write_lock = threading.Lock()
        #: Ids of calls made with a short wait that went unanswered: their late answers are skipped.
        self.unanswered: set[Any] = set()
        self._closed = False
        self.lines: queue.Queue[bytes | None] = queue.Queue(maxsize=10_000)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _put(self, item: bytes | None) -> bool:
        try:
            self.lines.put(item, timeout=1)
            return True
        except queue.Full:  # nobody is reading any more: the exchange has already failed
            return False

    def _read(self) -> None:
        fd = self.process.stdout.fileno()
        cap = self.limits.max_bytes
        buffer = bytearray()
        skipping = False  # the rest of an oversized message, up to its newline
        try:
            while not self.closing.is_set():
                ready, _, _ = select.select([fd], [], [], POLL_SECONDS)
                if not ready:
                    continue
                chunk = os.read(fd, CHUNK)
                if not chunk:
                    break
                buffer += chunk
                while buffer:
                    newline = buffer.find(b"\n")
                    if skipping:
                        if newline < 0:
                            buffer.clear()
                            break
                        del buffer[: newline + 1]
                        skipping = False
                        continue
                    if newline < 0:
                        if len(buffer) > cap:
                            # Handed on over the cap, so the exchange reports the oversized message.
                            if not self._put(bytes(buffer[: cap + 1])):
                                return
                            buffer.clear()
                            skipping = True
                        break
                    line = bytes(buffer[: newline + 1])
                    del buffer[: newline + 1]
                    if not self._put(line):
                        return
        except (OSError, ValueError):  # the descriptor was closed under us
            pass
        self._put(None)

    def _write(self, data: bytes, deadline: float) -> None:
        fd = self.process.stdin.fileno()
        view = memoryview(data)
        while view:
            if self.closing.is_set():
                raise ExchangeFailure("the transport was closed")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ExchangeTimeout(f"the process did not read its input within {self.limits.total_timeout:.0f} s")
            _, ready, _ = select.select([], [fd], [], min(remaining, POLL_SECONDS))
            if ready:
                try:
                    view = view[os.write(fd, view) :]
                except BlockingIOError:
                    continue

    def close(self, *, grace: float = 2.0) -> None:
        """End every process of the target (SIGTERM, `grace` seconds, SIGKILL), then the pipes.
        Safe from any thread, any number of times; bounded in time whatever the processes do."""
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
            self.closing.set()
            killed = process_tree.end_tree(self.process, self.mark, grace=grace)
            if killed:
                logger.info("stdio target %s: %d process(es) had to be killed", self.process.pid, killed)
            self.reader.join(timeout=POLL_SECONDS * 5)
            for stream in (self.process.stdin, self.process.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            self._put_nowait_end()

    def _put_nowait_end(self) -> None:
        # A caller still waiting in exchange() learns at once that nothing more comes.
        try:
            self.lines.put_nowait(None)
        except queue.Full:
            pass

    def abort(self) -> None:
        """The run stopped (Cancel, its deadline): no grace, the processes are killed now."""
        self.close(grace=0.0)

    def send(self, message: dict[str, Any], extra_headers: dict[str, str] | None = None) -> str:
        """A message that is not a request (a notification, a reply): written, not awaited. Returns
        why it could not be sent, or ""."""
        try:
            with self._write_lock:
                self._write((json.dumps(message) + "\n").encode(), time.monotonic() + self.limits.connect_timeout)
        except (ExchangeFailure, OSError, ValueError) as error:
            return str(error)[:200] or type(error).__name__
        return ""

    def exchange(
        self, message: dict[str, Any], extra_headers: dict[str, str] | None = None, call: Call | None = None
    ) -> Exchange:
        call = call or Call()
        record = Exchange(message.get("method", ""), message, framing="stdio")
        started = time.monotonic()
        deadline = started + (call.wait if call.wait is not None else self.limits.total_timeout)
        timers = [threading.Timer(delay, self._later, (later, record, headers)) for delay, later, headers in call.later]
        try:
            try:
                with self._write_lock:
                    self._write((json.dumps(message) + "\n").encode(), deadline)
            except (BrokenPipeError, OSError, ValueError) as error:
                raise ExchangeFailure(f"the process is gone: {error}") from None
            record.saw("sent", "request", message, self.limits.max_events)
            for timer in timers:
                timer.daemon = True
                timer.start()
            if message.get("id") is not None:
                self._await_response(record, message["id"], deadline, call)
            if record.response is not None and call.settle > 0:
                self._settle(record, call)
        except ExchangeFailure as failure:
            record.timed_out = isinstance(failure, ExchangeTimeout)
            record.failure = str(failure)[:2000]
        finally:
            for timer in timers:
                timer.cancel()
        record.duration_ms = (time.monotonic() - started) * 1000
        return record.redact(self.redactor)

    def _await_response(self, record: Exchange, request_id: Any, deadline: float, call: Call) -> None:
        """Lines read until the response to `request_id`, by `deadline`; a call with its own `wait`
        is left unanswered then (its late answer is recognised), any other fails."""
        strays: list[Any] = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                if call.wait is not None:
                    record.unanswered = True
                    self.unanswered.add(request_id)
                    return
                if strays:
                    raise ExchangeFailure(
                        f"response id {strays[0]!r} does not match request id {request_id!r}, and no response "
                        f"with id {request_id!r} came within {self.limits.total_timeout:.0f} s"
                    )
                raise ExchangeTimeout(f"no response within {self.limits.total_timeout:.0f} s")
            try:
                line = self.lines.get(timeout=min(remaining, POLL_SECONDS))
            except queue.Empty:
                if self.closing.is_set():
                    raise ExchangeFailure("the transport was closed") from None
                continue
            if line is None:
                raise ExchangeFailure("the process closed its output")
            record.bytes += len(line)
            if len(line) > self.limits.max_bytes:
                raise ExchangeFailure(f"a message over the {self.limits.max_bytes:,}-byte cap")
            if self._is_the_response(decode(line, record, "a line on stdout"), record, request_id, call, strays):
                return

    def _is_the_response(self, value: Any, record: Exchange, request_id: Any, call: Call, strays: list[Any]) -> bool:
        """One message read while awaiting `request_id`: the response (kept on the record), or a
        message kept for what it is (the server's own, a late answer, a stray)."""
        limit = self.limits.max_events
        if isinstance(value, dict) and "method" in value:
            # A notification or a request of the server's own (sampling, elicitation): not ours.
            if not self._take_server_message(value, record, call):
                raise ExchangeFailure(f"more than {limit} messages without the response")
            return False
        if not isinstance(value, dict):
            raise ExchangeFailure(f"the response is not a JSON-RPC object (got {type(value).__name__})")
        late = value.get("id")
        if isinstance(late, (str, int)) and late in self.unanswered:
            # The late answer of a call given up on (a cancelled call the target finished).
            self.unanswered.discard(late)
            record.saw("received", "late", value, limit)
            return False
        if value.get("id") != request_id and _answers_another(value):
            # A conformant client drops an answer to no request of its own and waits on (the
            # SDKs report it and keep the session): kept as a stray, and the cell says so.
            strays.append(value["id"])
            record.saw("received", "stray", value, limit)
            if len(strays) > limit:
                raise ExchangeFailure(f"more than {limit} responses to other requests without the response")
            return False
        if value.get("id") != request_id:
            raise ExchangeFailure(f"response id {value.get('id')!r} does not match request id {request_id!r}")
        record.response = value
        record.saw("received", "request", value, limit)
        return True

    def _settle(self, record: Exchange, call: Call) -> None:
        """What the target writes in the call's `settle` seconds after its answer, read as the
        HTTP transport reads its GET stream for as long: a relay that forwards each direction on
        its own passes a call's notifications on 1–5 ms after the answer, and they are the call's."""
        limit = self.limits.max_events
        until = time.monotonic() + call.settle
        while (left := until - time.monotonic()) > 0:
            if call.settled(record.response, record.notifications):
                return
            try:
                line = self.lines.get(timeout=min(left, POLL_SECONDS))
            except queue.Empty:
                continue
            if line is None:  # the process closed its output: the next call must learn it too
                self._put_nowait_end()
                return
            if len(line) > self.limits.max_bytes:
                return
            record.bytes += len(line)
            try:
                value = decode(line, record, "a line on stdout")
            except ExchangeFailure:
                return
            if not (isinstance(value, dict) and "method" in value):
                record.saw("received", "late", value, limit)
            elif not self._take_server_message(value, record, call):
                return

    def _take_server_message(self, value: dict[str, Any], record: Exchange, call: Call) -> bool:
        """Keep a notification or request the server sent during the call, answering a request
        with the call's recorded answer; False once there are more than the limit allows."""
        limit = self.limits.max_events
        record.notifications.append(value)
        record.saw("received", "request", value, limit)
        if len(record.notifications) > limit:
            return False
        if "id" in value and call.answer is not None:
            reply = call.answer(value)
            record.sent_beside("reply", reply, self.send(reply), limit)
        return True

    def _later(self, message: dict[str, Any], record: Exchange, headers: dict[str, str]) -> None:
        record.sent_beside("later", message, self.send(message, headers), self.limits.max_events)


def _answers_another(value: dict[str, Any]) -> bool:
    """A response (a result or an error, no method) that names a request by a usable id: an answer
    to some other request. An error with a null id answers the line the server could not read."""
    named = value.get("id")
    return isinstance(named, (str, int)) and not isinstance(named, bool) and ("result" in value or "error" in value)
