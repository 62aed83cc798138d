"""A slow MCP server over stdio for tests that must act while a run is still going: the built-in
fixture behind a relay that holds each answer line for SLOW_STDIO_DELAY seconds (0.25 by
default), so a full run takes seconds rather than the half second the fixture needs.

    python tests/support/slow_stdio.py        (run from the project folder)
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

DELAY = float(os.environ.get("SLOW_STDIO_DELAY", "0.25"))


def main() -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "comparison.probes.fixture.fixture_server", "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )

    def forward_requests() -> None:
        for line in sys.stdin.buffer:
            server.stdin.write(line)
            server.stdin.flush()
        server.stdin.close()

    threading.Thread(target=forward_requests, daemon=True).start()
    try:
        for line in server.stdout:
            time.sleep(DELAY)
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
    finally:
        server.kill()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
