"""A run ends in bounded time whatever its target does (issue 21, rows 1 and 2), with real
processes: a stdio target whose grandchild leaves the session and ignores SIGTERM with stdout
held open, stdio and HTTP targets that hold every call open (SSE keep-alives, a one-byte-a-second
drip), a run deadline, and Cancel. Nothing here asserts a speed: a run that does not end within
its bound is a hang, and a hang fails the test."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest

from comparison.probes.processes import process_tree
from comparison.probes.processes.control import CANCELLED, RunControl
from comparison.probes.run.runner import FAILED, Hooks, ProbePlan, TargetSpec, run_probe
from comparison.probes.run.scenarios import Scenario
from comparison.probes.transport.exchange import Limits
from comparison.probes.transport.stdio_transport import StdioTransport
from tests.support.processes import alive, free_port, server

REVISION = "2025-06-18"
#: The longest any run here may take before the test calls it a hang.
HANG = 60.0


def calls(count: int) -> list[Scenario]:
    return [
        Scenario(f"call-{n}", f"call {n}", "tools/call", {"name": "text", "arguments": {}}, ()) for n in range(count)
    ]


def stubborn(*flags: str) -> list[str]:
    return [sys.executable, "-m", "tests.support.stubborn", *flags]


def pid_env(path: Path) -> dict[str, str]:
    return {"STUBBORN_PIDS": str(path)}


def still_alive(found: list[int], within: float = 5.0) -> list[int]:
    """The processes alive `within` seconds from now: a SIGKILL already sent may take the kernel a
    moment to carry out on a loaded machine (CI saw one still listed as running right after the run
    returned); a process nobody ended lives on for minutes and is still listed."""
    deadline = time.monotonic() + within
    while (left := [pid for pid in found if alive(pid)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def pids(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def run_bounded(*arguments):
    """run_probe in a thread; fails the test if it has not returned within HANG seconds."""
    box: dict = {}

    def target():
        box["outcomes"] = run_probe(*arguments)

    thread = threading.Thread(target=target, daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(HANG)
    assert not thread.is_alive(), f"the run did not end within {HANG:.0f} s"
    return box["outcomes"], time.monotonic() - started


@pytest.fixture
def pid_file(tmp_path):
    """Where the stubborn target notes its pids; handed to it in its own environment (pid_env),
    because a target gets nothing of this process's environment."""
    path = tmp_path / "pids"
    yield path
    for pid in pids(path):  # never leave one behind, whatever the test found
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass


def test_an_orphaning_stdio_target_is_ended_whole_and_the_run_ends(pid_file):
    spec = TargetSpec("orphaning", "stdio", command=stubborn("--stdio", "--orphan"), env=pid_env(pid_file))
    outcomes, _ = run_bounded(spec, ProbePlan(scenarios=calls(3), revisions=[REVISION, "2025-11-25"]))
    # No upstream to compare with: answered, and never called "as expected".
    assert [o.verdict for o in outcomes] == ["not compared"] * 6, [o.failure for o in outcomes]
    started = pids(pid_file)
    # Per revision: the server and its grandchild that left the session.
    assert len(started) == 4, started
    assert still_alive(started) == [], "every process the target started is ended"


def test_closing_a_stdio_transport_returns_while_an_orphan_holds_its_stdout(pid_file):
    transport = StdioTransport(stubborn("--stdio", "--orphan"), env=pid_env(pid_file))
    deadline = time.monotonic() + 10
    while len(pids(pid_file)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(pids(pid_file)) == 2
    closer = threading.Thread(target=transport.close, daemon=True)
    closer.start()
    closer.join(HANG)
    assert not closer.is_alive(), "close() returned"
    assert not transport.reader.is_alive(), "the reader thread ended"
    assert still_alive(pids(pid_file)) == []
    assert process_tree.members(transport.process.pid, transport.mark) == set()
    transport.close()  # a second close is harmless


def test_a_stdio_target_that_holds_calls_costs_two_limits_per_revision(pid_file):
    spec = TargetSpec("holding", "stdio", command=stubborn("--stdio", "--hold"), env=pid_env(pid_file))
    limits = Limits(total_timeout=1.0, stalled_cells=2)
    outcomes, _ = run_bounded(spec, ProbePlan(scenarios=calls(8), revisions=[REVISION], limits=limits))
    assert [o.verdict for o in outcomes] == [FAILED] * 8
    assert [o.failure for o in outcomes[:2]] == ["no response within 1 s"] * 2
    assert {o.failure for o in outcomes[2:]} == {
        "not probed: the target stopped answering (2 calls in a row took the full 1 s limit)"
    }
    assert still_alive(pids(pid_file)) == []


@pytest.mark.parametrize("hold", ["keepalive", "drip"])
def test_an_http_target_that_holds_calls_open_costs_two_limits_per_revision(hold):
    port = free_port()
    with server(stubborn("--port", str(port), "--hold", hold), port):
        spec = TargetSpec("holding", "http", url=f"http://127.0.0.1:{port}/mcp")
        limits = Limits(total_timeout=2.0, stalled_cells=2)
        outcomes, _ = run_bounded(
            spec, ProbePlan(scenarios=calls(10), revisions=[REVISION, "2025-03-26"], limits=limits)
        )
    assert [o.verdict for o in outcomes] == [FAILED] * 20
    for revision in (outcomes[:10], outcomes[10:]):
        assert all("within 2 s" in o.failure for o in revision[:2]), [o.failure for o in revision[:2]]
        assert all(o.failure.startswith("not probed: the target stopped answering") for o in revision[2:])


def test_the_run_deadline_fails_every_cell_not_probed_by_then():
    port = free_port()
    with server(stubborn("--port", str(port), "--hold"), port):
        spec = TargetSpec("holding", "http", url=f"http://127.0.0.1:{port}/mcp")
        # Calls could each take 30 s and none is given up early: only the deadline ends the run.
        limits = Limits(total_timeout=30.0, stalled_cells=99)
        control = RunControl(2.0)
        outcomes, _ = run_bounded(
            spec,
            ProbePlan(scenarios=calls(5), revisions=[REVISION, "2025-11-25"], limits=limits),
            Hooks(control=control),
        )
    assert len(outcomes) == 10
    assert {o.failure for o in outcomes} == {"not probed: the run's 2-second deadline passed"}
    assert control.reason == "not probed: the run's 2-second deadline passed"


def test_cancel_cuts_open_calls_of_every_revision_and_ends_the_processes(pid_file):
    spec = TargetSpec("holding", "stdio", command=stubborn("--stdio", "--hold", "--orphan"), env=pid_env(pid_file))
    asked = time.monotonic() + 1.5
    saved = []
    outcomes, _ = run_bounded(
        spec,
        ProbePlan(
            scenarios=calls(4),
            revisions=[REVISION, "2025-03-26", "2025-11-25"],
            limits=Limits(total_timeout=30.0),
            parallel=3,
        ),
        Hooks(should_stop=lambda: time.monotonic() > asked, on_outcome=saved.append),
    )
    assert outcomes == saved == [], "a cancelled run saves nothing more"
    assert still_alive(pids(pid_file)) == []


def test_a_run_control_cuts_transports_opened_after_it_stopped():
    cut = []

    class Transport:
        def abort(self):
            cut.append(self)

    control = RunControl()
    early = Transport()
    with control.tracking(early):
        control.stop(CANCELLED)
        control.stop("a second reason is ignored")
    late = Transport()
    with control.tracking(late):
        pass
    assert cut == [early, late]
    assert control.reason == CANCELLED
    assert RunControl(None).check_deadline() is False
    ticks = iter([0.0, 3.9, 4.0])
    late = RunControl(4.0, clock=lambda: next(ticks))
    assert late.check_deadline() is False
    assert late.check_deadline() is True, "at the deadline, not after it"


def test_a_stop_does_not_wait_for_ever_on_a_transport_that_will_not_be_cut(monkeypatch):
    from comparison.probes.processes import control as control_module

    monkeypatch.setattr(control_module, "CUT_SECONDS", 0.2)
    release = threading.Event()

    class Stuck:
        def abort(self):
            release.wait(30)

    control = RunControl()
    stopper = threading.Thread(target=lambda: control.stop(CANCELLED), daemon=True)
    with control.tracking(Stuck()):
        stopper.start()
        stopper.join(10)
    release.set()
    assert not stopper.is_alive(), "the stop gave up on the stuck transport"


def test_the_tree_never_includes_the_process_that_ends_it_or_its_ancestors():
    """Even when the target's processes carry our mark (it is in our environment too)."""
    import subprocess

    mark = process_tree.new_mark()
    os.environ.update(mark)
    try:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"], start_new_session=True)
        found = process_tree.members(child.pid, mark)
        assert child.pid in found
        line, pid = set(), os.getpid()
        while pid > 1:
            line.add(pid)
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        assert not found & line, "never this process or one above it"
        # Our own group holds this process and the ones that started it: none of them is picked.
        assert not process_tree.members(os.getpgrp(), mark) & line
        process_tree.end_tree(child, mark, grace=0)
        assert child.returncode is not None
    finally:
        os.environ.pop(process_tree.MARK_NAME)


def test_a_group_that_ignores_sigterm_is_ended_with_every_member():
    """process_tree.end_group, the one ender of a child leading its own group (issue 54: it was
    written four times): a leader and a member that both ignore SIGTERM are killed and reaped."""
    import subprocess

    ignoring = "import signal, subprocess, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
    member = ignoring + "time.sleep(60)"
    leader = subprocess.Popen(
        [sys.executable, "-c", ignoring + f"subprocess.Popen([sys.executable, '-c', {member!r}]); time.sleep(60)"],
        start_new_session=True,
    )
    deadline = time.monotonic() + 10
    while len(process_tree.members(leader.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    members = process_tree.members(leader.pid)
    assert len(members) == 2, members
    started = time.monotonic()
    process_tree.end_group(leader, wait=0.5)
    assert leader.returncode is not None, "the leader is reaped"
    deadline = time.monotonic() + 5
    while process_tree.members(leader.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process_tree.members(leader.pid) == set(), "no member outlives the group's end"
    assert time.monotonic() - started < 5
