"""The proxy CI recipe (docs/proxy-ci.md): the baseline gate's order of verdicts and the command's
columns."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.support.processes import PROJECT, free_port, server


def test_cli_columns_stay_aligned_whatever_the_names():
    """Issue 26, a first-time user's row 15."""
    from comparison.core.pipeline import aligned

    lines = aligned(
        [["a→b", "text", "as expected", "x"], ["a→b", "fail-argument-value-envelope", "lost by proxy", "y"]]
    )
    assert lines[0].index("as expected") == lines[1].index("lost by proxy")
    assert lines[0].endswith(" x")
    assert lines[1].index(" y") == lines[0].index(" x")


@pytest.mark.django_db
def test_a_cell_that_moves_from_invalid_to_changed_is_a_baseline_regression(tmp_path):
    """Issue 22: Outside the peer lane: the order of verdicts the baseline gate reads (invalid for revision is
    better than changed by proxy)."""
    baseline = tmp_path / "proxy.baseline"
    baseline.write_text("unknown-type@2025-06-18: invalid for revision\n")
    port = free_port()
    with server([sys.executable, "-m", "tests.support.stubborn", "--port", str(port)], port):
        # The stubborn target answers "fine" where the fixture sends an unknown block type.
        probe = subprocess.run(
            [
                *(sys.executable, "manage.py", "probe", "--url", f"http://127.0.0.1:{port}/mcp", "--upstream-fixture"),
                *("--scenarios", "unknown-type", "--revisions", "2025-06-18", "--baseline", str(baseline)),
            ],
            cwd=PROJECT,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert probe.returncode == 1, probe.stdout + probe.stderr
    assert "regression: unknown-type@2025-06-18: invalid for revision → changed by proxy" in probe.stderr
    assert re.search(r"1 regression\(s\)", probe.stdout + probe.stderr)
