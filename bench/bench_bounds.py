"""How long each misbehaving target takes to become a recorded failure (the wire client's bounds).

    .venv/bin/python bench/bench_bounds.py

Uses the misbehaving servers of tests/probes/test_wire.py (loopback only) with the tests' limits
(connect 1 s, total 2 s, 1 MiB, 50 events); prints seconds per case. The tests assert the
failure; this prints the time it took, which tests must not assert.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from comparison.probes.transport.http_transport import HttpTransport
from comparison.probes.transport.stdio_transport import StdioTransport
from tests.probes import test_wire


def main() -> None:
    cases = [
        ("hang", test_wire.hang),
        ("slow-drip", test_wire.slow_drip),
        ("500", test_wire.server_error),
        ("invalid-json", test_wire.invalid_json),
        ("wrong-id", test_wire.wrong_id),
        ("50MB-body", test_wire.huge_body),
        ("endless-sse", test_wire.endless_sse),
        ("reset", test_wire.reset),
    ]
    print(f"bounds: connect {test_wire.LIMITS.connect_timeout} s, total {test_wire.LIMITS.total_timeout} s")
    for name, behave in cases:
        with test_wire.Misbehaving(behave) as server:
            transport = HttpTransport(server.url, limits=test_wire.LIMITS)
            started = time.monotonic()
            exchange = transport.exchange(test_wire.REQUEST)
            elapsed = time.monotonic() - started
            transport.close()
        print(f"http  {name:14} {elapsed:5.2f} s  {exchange.failure[:70]}")
    for name, program in test_wire.STDIO_PROGRAMS.items():
        transport = StdioTransport([sys.executable, "-c", program], limits=test_wire.LIMITS)
        started = time.monotonic()
        exchange = transport.exchange(test_wire.REQUEST)
        elapsed = time.monotonic() - started
        transport.close()
        print(f"stdio {name:14} {elapsed:5.2f} s  {exchange.failure[:70]}")


if __name__ == "__main__":
    main()
