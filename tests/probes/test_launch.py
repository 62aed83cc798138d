"""A target's own server, started by the run and stopped after it (comparison.probes.processes.launch),
with real processes on 127.0.0.1."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from comparison.probes.processes.launch import LaunchFailed, launched, loopback_port
from comparison.probes.transport.listeners import listening_inodes
from tests.support.processes import alive, free_port


def accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def test_the_server_runs_for_the_block_and_its_whole_group_ends_after(tmp_path):
    port = free_port()
    pids = tmp_path / "pids"
    # A parent that starts a child which serves: both must be gone after the block.
    script = (
        "import os, subprocess, sys; "
        f"child = subprocess.Popen([sys.executable, '-m', 'http.server', '--bind', '127.0.0.1', '{port}']); "
        f"open({str(pids)!r}, 'w').write(f'{{os.getpid()}} {{child.pid}}'); child.wait()"
    )
    with launched([sys.executable, "-c", script], f"http://127.0.0.1:{port}/mcp", timeout=20):
        assert accepts(port)
        parent, child = (int(pid) for pid in pids.read_text().split())
    # Nothing listens on the port any more. (Connecting to find out can succeed with nothing
    # listening: a loopback connect whose own port is picked equal to the target connects to itself.)
    assert not listening_inodes(port)
    for pid in (parent, child):
        assert not alive(pid)


def test_a_command_that_exits_fails_with_its_output():
    command = [sys.executable, "-c", "print('no such upstream'); raise SystemExit(3)"]
    with pytest.raises(LaunchFailed, match=r"exited with code 3: no such upstream"):
        with launched(command, f"http://127.0.0.1:{free_port()}/mcp", timeout=10):
            pass


def test_a_command_that_never_listens_times_out():
    with pytest.raises(LaunchFailed, match=r"not listening on port \d+ after 1 s"):
        with launched(
            [sys.executable, "-c", "import time; time.sleep(30)"], f"http://127.0.0.1:{free_port()}/", timeout=1
        ):
            pass


def test_a_port_in_use_and_a_remote_url_are_refused():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(LaunchFailed, match="already in use"):
            with launched([sys.executable, "-c", "pass"], f"http://127.0.0.1:{port}/mcp"):
                pass
    with pytest.raises(LaunchFailed, match="loopback"):
        with launched([sys.executable, "-c", "pass"], "http://example.test:3301/mcp"):
            pass
    assert loopback_port("http://localhost/mcp") == ("localhost", 80)
    assert loopback_port("http://10.0.0.1:80/") is None
    assert loopback_port("http://127.0.0.1:99999/") is None


def test_a_port_another_process_takes_after_the_check_is_a_failed_launch_not_a_wrong_target(tmp_path):
    """The race the check before the launch cannot close: the port is free, the launch starts, and
    another process binds it first. The port answers, but the run would probe that process."""
    import threading
    import time

    port, ready = free_port(), tmp_path / "started"
    # Says it started, then never binds: whatever answers on the port is someone else.
    script = f"import time; open({str(ready)!r}, 'w').close(); time.sleep(30)"
    taker = socket.socket()

    def take_the_port() -> None:
        deadline = time.monotonic() + 20
        while not ready.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        taker.bind(("127.0.0.1", port))
        taker.listen()

    thread = threading.Thread(target=take_the_port)
    thread.start()
    try:
        with pytest.raises(LaunchFailed, match="from a process the launch did not start"):
            with launched([sys.executable, "-c", script], f"http://127.0.0.1:{port}/mcp", timeout=20):
                pass
    finally:
        thread.join(timeout=25)
        taker.close()


def test_the_listener_of_a_port_is_found_among_its_processes():
    import os
    import subprocess

    from comparison.probes.transport.listeners import listener_is_among

    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(5)"])
        try:
            assert listener_is_among(port, {os.getpid()}) is True
            assert listener_is_among(port, {other.pid}) is False
        finally:
            other.kill()
            other.wait(timeout=5)
    assert listener_is_among(port, {os.getpid()}) is None, "nothing listens: nothing to say"


@pytest.mark.django_db
def test_a_launch_commands_secrets_stay_masked(client):
    from comparison.models import ProbeTarget

    target = ProbeTarget.objects.create(
        name="own proxy",
        transport="http",
        url="http://127.0.0.1:3301/mcp",
        launch=["my-proxy", "--token", "s3cret-launch-value", "--port", "3301"],
        upstream="fixture",
    )
    target.full_clean()
    html = client.get(target.get_absolute_url()).content.decode()
    assert "Started by each run" in html
    assert "my-proxy --token" in html
    assert "s3cret-launch-value" not in html
    assert target.redactor().text("echo s3cret-launch-value") != "echo s3cret-launch-value"
    assert target.spec().launch == target.launch
    stdio = ProbeTarget(name="stdio", transport="stdio", command=["x"], launch=["y"])
    assert stdio.spec().launch == [], "only an HTTP target is served by a launch command"


@pytest.mark.django_db
def test_the_admin_form_masks_a_launch_commands_secret_and_keeps_it_when_unchanged(admin_client):
    from comparison.models import ProbeTarget

    target = ProbeTarget.objects.create(
        name="own proxy",
        transport="http",
        url="http://127.0.0.1:3301/mcp",
        launch=["my-proxy", "--token", "s3cret-launch-value"],
        upstream="fixture",
    )
    url = f"/admin/comparison/probetarget/{target.pk}/change/"
    form = admin_client.get(url).content.decode()
    assert "s3cret-launch-value" not in form
    assert "my-proxy" in form
    data = {
        "name": "own proxy renamed",
        "transport": "http",
        "url": "http://127.0.0.1:3301/mcp",
        "command": "[]",
        "launch": json.dumps(["my-proxy", "--token", "•••"]),
        "headers": "{}",
        "upstream_headers": "{}",
        "upstream_description": "",
        "suite": "fixture",
        "upstream": "fixture",
        "enabled": "on",
    }
    assert admin_client.post(url, data).status_code == 302
    target.refresh_from_db()
    assert target.name == "own proxy renamed"
    assert target.launch == ["my-proxy", "--token", "s3cret-launch-value"], (
        "an unchanged masked value keeps the stored one"
    )


def test_the_fixture_server_says_where_it_listens(tmp_path):
    """Issue 26, a first-time user's row 15."""
    from comparison.probes.processes.launch import free_port

    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "fixture_server", "--port", str(port)],
        cwd=Path(__file__).resolve().parents[2],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        first = process.stderr.readline()
        assert first.strip() == f"fixture MCP server: http://127.0.0.1:{port}/mcp (Ctrl-C stops it)"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_server_ends_with_a_starter_killed_with_sigkill(tmp_path):
    """A worker killed mid-run cannot stop what it launched: the launch's guard does, so the
    target's port is free for its next run. Before, the proxy (and the upstream it spawned) kept
    listening, and every later run of the target failed with "port already in use"."""
    import os
    import signal

    from tests.support.processes import wait_for

    port, pids = free_port(), tmp_path / "pids"
    # The launched command ends on SIGTERM; the child that serves ignores it, so only a SIGKILL
    # pass after the command is gone ends it.
    serving = (
        "import runpy, signal, sys; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        f"sys.argv = ['http.server', '--bind', '127.0.0.1', '{port}']; runpy.run_module('http.server', run_name='__main__')"
    )
    server = (
        "import os, subprocess, sys; "
        f"child = subprocess.Popen([sys.executable, '-c', {serving!r}]); "
        f"open({str(pids)!r}, 'w').write(f'{{os.getpid()}} {{child.pid}}'); child.wait()"
    )
    starter = (
        "import sys, time; from comparison.probes.processes.launch import launched; "
        f"cm = launched([sys.executable, '-c', {server!r}], 'http://127.0.0.1:{port}/mcp', timeout=20); "
        "cm.__enter__(); print('serving', flush=True); time.sleep(60)"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", starter], cwd=Path(__file__).resolve().parents[2], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout.readline().strip() == "serving"
        assert accepts(port)
        launched_pids = [int(pid) for pid in pids.read_text().split()]
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        wait_for(lambda: not any(alive(pid) for pid in launched_pids), 10, "the launch ended with its starter")
        assert not listening_inodes(port), "the port is free for the next run"
    finally:
        process.kill()
        process.wait(timeout=10)
        process.stdout.close()
        for pid in [int(pid) for pid in pids.read_text().split()] if pids.exists() else []:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
