"""A stdio relay between a host and its upstream MCP server that writes every line, both ways, to
a JSON Lines file: what the host told the upstream, read afterwards by `told.py`.

    python recorder.py RECORD.jsonl [--env-file ENV.json] -- COMMAND [ARG...]

The upstream's own environment comes from a file (a JSON object), not from the host's config:
some hosts refuse to pass names such as PYTHONPATH to a server they start, and a value in a
command line or a config file would be on record wherever the command is (credentials too).

Lines pass through unchanged; the record is bounded (lines and bytes). Standard library only: it
runs as the host's "MCP server" in the host's own environment.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

MAX_LINES = 2000
MAX_LINE_KEPT = 256 * 1024


def _pump(source, sink, record, lock, direction: str, counter: list[int]) -> None:
    for line in iter(source.readline, b""):
        # Recorded before it is passed on: an answer can then never be on record before the
        # request it answers, whichever thread the scheduler runs first.
        _record(line, record, lock, direction, counter)
        try:
            sink.write(line)
            sink.flush()
        except (BrokenPipeError, ValueError):
            return


def _record(line: bytes, record, lock, direction: str, counter: list[int]) -> None:
    with lock:
        if counter[0] >= MAX_LINES:
            return
        counter[0] += 1
        kept = line[:MAX_LINE_KEPT].decode("utf-8", "replace").rstrip("\n")
        record.write(json.dumps({"dir": direction, "line": kept, "cut": len(line) > MAX_LINE_KEPT}) + "\n")
        record.flush()


def main(argv: list[str]) -> int:
    if "--" not in argv or argv.index("--") < 1 or argv.index("--") == len(argv) - 1:
        sys.stderr.write("usage: recorder RECORD.jsonl [--env-file ENV.json] -- COMMAND [ARG...]\n")
        return 2
    split = argv.index("--")
    options, command = argv[1:split], argv[split + 1 :]
    env = dict(os.environ)
    for name, value in zip(options[::2], options[1::2], strict=False):
        if name == "--env-file":
            with open(value, encoding="utf-8") as handle:
                env.update({str(k): str(v) for k, v in json.load(handle).items()})
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    lock, counter = threading.Lock(), [0]
    with open(argv[0], "a", encoding="utf-8") as record:
        back = threading.Thread(
            target=_pump, args=(child.stdout, sys.stdout.buffer, record, lock, "up->host", counter), daemon=True
        )
        back.start()
        _pump(sys.stdin.buffer, child.stdin, record, lock, "host->up", counter)
        try:
            child.stdin.close()
        except OSError:
            pass
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(timeout=5)
        back.join(timeout=2)
    return child.returncode or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
