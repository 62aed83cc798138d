"""Start one stdio session of the fixture upstream in a fork of a process that has already
imported it (comparison.probes.forkserver), instead of a new interpreter importing the MCP SDK
(about a second). Standard library only, run as a script with `python -I`, so it starts in
milliseconds. Usage: python -I fixture_launch.py SOCKET PROJECT_ROOT [REVISIONS]
(REVISIONS pins the session to those revisions: comparison/probes/era_gate.py).

It hands its standard input, output and error to the fork server, then waits until the forked
session ends. When no fork server answers, it becomes the fixture itself, the slow way.
"""

import array
import os
import socket
import sys


def main() -> None:
    path, root = sys.argv[1], sys.argv[2]
    revisions = sys.argv[3] if len(sys.argv) > 3 else "all"
    try:
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(path)
        greeting = b"s" + revisions.encode("ascii", "replace")[:60]
        connection.sendmsg([greeting], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [0, 1, 2]))])
    except OSError:
        os.chdir(root)
        # A fixed argument list, no shell: the fixture itself, started the slow way.
        fixture = [sys.executable, "-m", "comparison.probes.fixture_pinned", "--stdio", "--revisions", revisions]
        os.execv(sys.executable, fixture)  # noqa: S606
    # The session holds the other end of the connection: it closes when the session ends.
    while connection.recv(64):
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
