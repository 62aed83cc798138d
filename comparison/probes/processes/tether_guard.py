"""Runs a command and ends its whole tree once the process that started the guard is gone, even when
that process was killed with SIGKILL and could stop nothing (comparison.probes.processes.tether).
Standard library and process_tree only, run as a script with `python -I`, so it starts in
milliseconds. Usage: python -I tether_guard.py FD -- COMMAND...

FD is the read end of a pipe whose write end only the starter holds: the kernel closes it when the
starter exits, however it exits, and the read returns nothing. The guard exits with the command's
own code, so whoever waits on the guard reads the command's exit.
"""

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

#: Seconds a command has to go after SIGTERM before what is left of its tree is killed.
GRACE = 2.0


def _exit_with(child: subprocess.Popen, ending: threading.Event) -> None:
    code = child.wait()
    # While the guard ends the tree, the command's own exit must not end the guard before the
    # SIGKILL pass reaches what ignored SIGTERM.
    if not ending.is_set():
        os._exit(128 - code if code < 0 else code)


def main() -> None:
    fd, command = int(sys.argv[1]), sys.argv[3:]
    try:
        child = subprocess.Popen(command)
    except OSError as error:
        print(f"could not start {command[0]!r}: {error}", file=sys.stderr, flush=True)
        os._exit(127)
    ending = threading.Event()
    threading.Thread(target=_exit_with, args=(child, ending), daemon=True).start()
    try:
        while os.read(fd, 64):
            pass
    except OSError:
        pass
    # The starter is gone: nothing else will end the command's processes.
    ending.set()
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    from comparison.probes.processes.process_tree import MARK_NAME, end_tree

    mark = {MARK_NAME: os.environ[MARK_NAME]} if MARK_NAME in os.environ else None
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the tree's SIGTERM is for the command, not for us
    end_tree(child, mark, grace=GRACE, reap=GRACE)
    os._exit(1)


if __name__ == "__main__":
    main()
