"""Real host software, driven here to check the host models: the Cloudflare codemode package under
Node, and the opencode binary headless against a fake model. Nothing here talks to anything but
127.0.0.1 and child processes it starts and ends itself."""

from __future__ import annotations

import shutil
from pathlib import Path

NODE_DIR = Path(__file__).resolve().parent / "node"
NODE_MODULES = NODE_DIR / "node_modules"
OPENCODE_BIN = NODE_MODULES / "opencode-ai" / "bin" / "opencode.exe"


def node_binary() -> str | None:
    return shutil.which("node")


def missing() -> list[str]:
    """What is not installed (run `npm install` in comparison/hosts/real/node)."""
    gaps = []
    if node_binary() is None:
        gaps.append("node")
    if not (NODE_MODULES / "@cloudflare" / "codemode").is_dir():
        gaps.append("@cloudflare/codemode")
    if not OPENCODE_BIN.exists():
        gaps.append("opencode-ai")
    return gaps
