"""Where the lab's npm hosts are installed (`comparison/hostlab/node`, pinned by its lock file)
and what is missing. scripts/test.sh, .ci/run and scripts/start.sh run `npm install` there."""

from __future__ import annotations

import shutil
from pathlib import Path

NODE_DIR = Path(__file__).resolve().parent / "node"
NODE_MODULES = NODE_DIR / "node_modules"
OPENCODE_BIN = NODE_MODULES / "opencode-ai" / "bin" / "opencode.exe"


def node_binary() -> str | None:
    return shutil.which("node")


def executable(binary: str, modules: Path = NODE_MODULES) -> Path:
    return modules / ".bin" / binary


def missing(binaries: tuple[str, ...] = ()) -> list[str]:
    """What is not installed: node, the codemode package, opencode, and any of `binaries`."""
    gaps = []
    if node_binary() is None:
        gaps.append("node")
    if not (NODE_MODULES / "@cloudflare" / "codemode").is_dir():
        gaps.append("@cloudflare/codemode")
    if not OPENCODE_BIN.exists():
        gaps.append("opencode-ai")
    gaps += [binary for binary in binaries if not executable(binary).exists()]
    return gaps
