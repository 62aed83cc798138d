"""The probe's own client under the official conformance suite's client scenarios (0.2.0-alpha.12,
on Node 22 from npm, installed with the host lab's packages): every scenario the probe can play
passes. The OAuth scenarios are not played: a probe sends the headers an admin configured."""

from __future__ import annotations

import pytest

from comparison.hostlab.conformance_client import SCENARIOS, SUITE_VERSION
from comparison.probes.conformance.conformance_run import CLIENT_SUITE_BIN, run_client_scenario

pytestmark = pytest.mark.peers


def test_the_suite_is_the_pinned_one():
    assert CLIENT_SUITE_BIN.exists(), "the conformance suite is not installed (scripts/test.sh installs it)"
    assert SUITE_VERSION == "0.2.0-alpha.12"


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_probe_client_passes_the_client_scenario(scenario):
    found = run_client_scenario(scenario, timeout=60)
    failed = [check for check in found["checks"] if check["status"] in ("FAILURE", "ERROR", "WARNING")]
    assert found["checks"], found["error"] or found["client"][-2000:]
    assert failed == [], found["client"][-2000:]
    assert found["outcome"] == "pass"
