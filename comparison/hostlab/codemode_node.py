"""Run tool results through the real @cloudflare/codemode package (Node) and read back its views."""

from __future__ import annotations

import json
import subprocess
from typing import Any

from comparison.hostlab.install import NODE_DIR, node_binary
from comparison.probes.processes.child_env import child_environment

SCRIPT = NODE_DIR / "cloudflare_views.mjs"
PROTOCOL_SCRIPT = NODE_DIR / "cloudflare_protocol.mjs"
TIMEOUT = 120


class RealHostError(Exception):
    pass


def run(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """[{name, input}] -> [{name, script, host, connector}] as the package produced them."""
    return _node(SCRIPT, json.dumps(cases).encode())


def protocol() -> dict[str, Any]:
    """What codemode's `code` tool offers from a two-page upstream, before and after the upstream
    announces `tools/list_changed`, and what its client told the upstream (cloudflare_protocol.mjs)."""
    return _node(PROTOCOL_SCRIPT, b"")


def _node(script, stdin: bytes) -> Any:
    node = node_binary()
    if node is None:
        raise RealHostError("node is not installed")
    try:
        done = subprocess.run(
            [node, str(script)],
            input=stdin,
            cwd=NODE_DIR,
            env=child_environment(),
            capture_output=True,
            timeout=TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise RealHostError(f"the Cloudflare run took longer than {TIMEOUT} s") from None
    if done.returncode != 0:
        raise RealHostError(done.stderr.decode(errors="replace")[-2000:])
    return json.loads(done.stdout)
