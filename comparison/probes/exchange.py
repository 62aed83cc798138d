"""One captured JSON-RPC exchange, the limits every read obeys, and the bounded decoding of what a
target sends. No Django."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import jsonsafe
from .secrets import Redactor


@dataclass(frozen=True)
class Limits:
    connect_timeout: float = 5.0
    total_timeout: float = 15.0
    max_bytes: int = 8 * 1024 * 1024
    max_events: int = 500
    #: Calls in a row that may use up `total_timeout` before the rest of a revision is given up:
    #: a target that holds every call open costs a bounded time, not the full limit per cell.
    stalled_cells: int = 2


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
    #: The exchange used up its whole time limit (a target that holds calls open); not stored.
    timed_out: bool = False

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


class ExchangeFailure(Exception):
    """What went wrong in one exchange, already bounded: recorded on the Exchange, never raised further."""


class ExchangeTimeout(ExchangeFailure):
    """The exchange used up its time limit: the target holds the call open, or drips its answer."""


def decode(data: bytes, record: Exchange, what: str) -> Any:
    """JSON from the target, bounded and repaired (jsonsafe); a ExchangeFailure when it cannot be kept."""
    try:
        value, repairs = jsonsafe.loads(data)
    except jsonsafe.UnsafeJSON as error:
        raise ExchangeFailure(f"unusable JSON in {what}: {error}") from None
    except ValueError:
        raise ExchangeFailure(f"invalid JSON in {what}: {data[:120]!r}") from None
    record.repairs.extend(note for note in repairs.describe() if note not in record.repairs)
    return value
