"""Server-sent events, split as the SSE rules say: an event ends at a blank line, `data:` lines
join, `id:` and `retry:` are remembered across events (and across the streams of one call, which
is what resuming a stream needs). Bounded in events. No Django."""

from __future__ import annotations

from comparison.probes.transport.exchange import ExchangeFailure

#: The type of an event that names none.
MESSAGE = "message"
#: The first event of the deprecated HTTP+SSE transport: where the client is to POST.
ENDPOINT = "endpoint"
#: The longest `retry` a server may ask the probe to wait before resuming, in milliseconds.
MAX_RETRY_MS = 5000


class EventReader:
    def __init__(self, max_events: int):
        self.max_events = max_events
        self.events = 0
        self.last_id = ""
        self.retry_ms: int | None = None
        self._buffer = b""

    def feed(self, chunk: bytes) -> list[bytes]:
        """The data of each JSON-RPC event `chunk` completes: every event but the legacy
        transport's `endpoint` (events without data are kept for their id and retry only)."""
        return [data for event, data in self.feed_events(chunk) if event != ENDPOINT]

    def feed_events(self, chunk: bytes) -> list[tuple[str, bytes]]:
        """(event type, data) of each event with data that `chunk` completes."""
        self._buffer += chunk.replace(b"\r\n", b"\n")
        complete = []
        while b"\n\n" in self._buffer:
            raw, self._buffer = self._buffer.split(b"\n\n", 1)
            event, data = self._event(raw.split(b"\n"))
            if data:
                self.events += 1
                if self.events > self.max_events:
                    raise ExchangeFailure(f"more than {self.max_events} SSE events without the response")
                complete.append((event, data))
        return complete

    def _event(self, lines: list[bytes]) -> tuple[str, bytes]:
        data, event = [], MESSAGE
        for line in lines:
            field, _, value = line.partition(b":")
            value = value[1:] if value.startswith(b" ") else value
            if field == b"data":
                data.append(value)
            elif field == b"event":
                event = value.decode("utf-8", "replace").strip()[:64] or MESSAGE
            elif field == b"id" and b"\0" not in value:
                self.last_id = value.decode("utf-8", "replace")[:256]
            elif field == b"retry" and value.isdigit():
                self.retry_ms = min(int(value), MAX_RETRY_MS)
        return event, b"\n".join(data).strip()

    def retry_seconds(self, default: float) -> float:
        return default if self.retry_ms is None else self.retry_ms / 1000
