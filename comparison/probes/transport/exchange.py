"""One captured JSON-RPC exchange, the limits every read obeys, and the bounded decoding of what a
target sends. No Django."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from comparison.probes.targets.secrets import Redactor
from comparison.probes.transport import http11, jsonsafe


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
    #: Every message of the exchange in the order the probe saw it: {"direction": "sent" or
    #: "received", "channel": "request", "get", "reply" or "later", "message": …}. Holds the
    #: server's requests and the probe's answers, notifications sent mid-call, and what arrived on
    #: the session's GET stream meanwhile; bounded by `Limits.max_events`.
    sequence: list[dict[str, Any]] = field(default_factory=list)
    #: A call made with a short `wait` that got no response in it (expected after a cancel).
    unanswered: bool = False

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
            "sequence": self.sequence,
            "unanswered": self.unanswered,
        }

    def saw(self, direction: str, channel: str, message: Any, limit: int) -> None:
        if len(self.sequence) < limit:
            self.sequence.append({"direction": direction, "channel": channel, "message": message})

    def sent_beside(self, channel: str, message: dict[str, Any], failure: str, limit: int) -> None:
        """A message the probe sent beside the call (a reply, a cancel), and why it was refused."""
        self.saw("sent", channel, {**message, "not sent": failure} if failure else message, limit)

    def redact(self, redactor: Redactor) -> Exchange:
        """Mask every configured secret a target echoed back, wherever it sits."""
        if redactor:
            self.response_headers = redactor.data(self.response_headers)
            self.response = redactor.data(self.response)
            self.notifications = redactor.data(self.notifications)
            self.sequence = redactor.data(self.sequence)
            self.failure = redactor.text(self.failure)
        return self


#: Answers a server→client request (sampling, elicitation, roots) with the JSON-RPC reply to send.
Answer = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Call:
    """How one request is made beyond sending it: who answers the server's requests, what is sent
    while it runs (seconds after it went out), how long to wait for its answer (None: the limit;
    a shorter wait with no answer is `unanswered`, not a failure), and how long to keep listening
    on the GET stream after the answer."""

    answer: Answer | None = None
    #: (seconds after the request, message, extra HTTP headers) of what is sent mid-call.
    later: tuple[tuple[float, dict[str, Any], dict[str, str]], ...] = ()
    wait: float | None = None
    settle: float = 0.0
    #: (the answer, every message of the call so far) → whether all that the call expects has
    #: arrived: the settle time ends early then (a faithful proxy costs no settle time); None
    #: waits the whole settle time.
    until: Callable[[dict[str, Any] | None, list[dict[str, Any]]], bool] | None = None

    def settled(self, response: dict[str, Any] | None, messages: list[Any]) -> bool:
        if self.until is None:
            return False
        try:
            return bool(self.until(response, [m for m in messages if isinstance(m, dict)]))
        except Exception:  # an answer of an odd shape: wait the whole settle time
            return False


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


def record_failure(
    record: Exchange,
    error: ExchangeFailure | http11.ConnectFailed | http11.TimedOut | http11.Broken | ValueError,
    *,
    waits: bool,
) -> None:
    """What an HTTP exchange that raised `error` says; a call with a wait of its own is left
    unanswered when its time is up, not failed."""
    if waits and isinstance(error, (ExchangeTimeout, http11.TimedOut)):
        record.unanswered = True
    elif isinstance(error, ExchangeTimeout):
        record.failure, record.timed_out = str(error), True
    elif isinstance(error, ExchangeFailure):
        record.failure = str(error)
    elif isinstance(error, http11.ConnectFailed):
        record.failure = f"connection refused or unreachable: {error}"
    elif isinstance(error, http11.TimedOut):
        record.failure, record.timed_out = f"timed out ({error})", True
    elif isinstance(error, http11.Broken):
        record.failure = f"connection broke: {error}"
    else:
        record.failure = f"the request cannot be sent: {error}"
