"""A configured probe target that is the built-in fixture behind tests/support/relay.py, losing one thing."""

from __future__ import annotations

import sys
from pathlib import Path

RELAY = Path(__file__).with_name("relay.py")


def relay_target(lose: str):
    from comparison.models import ProbeTarget

    fixture = [sys.executable, "-m", "comparison.probes.fixture.fixture_server", "--stdio"]
    return ProbeTarget.objects.create(
        name=f"relay losing {lose}",
        transport="stdio",
        command=[sys.executable, str(RELAY), "--lose", lose, "--", *fixture],
        upstream="fixture",
    )
