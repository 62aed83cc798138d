"""Hosts at versions other than the pinned one: each version installed once from npm into a folder
of its own under the cache (bounded in size: the least recently used versions are evicted), with
a lock per folder so several workers sharing the cache install each version once."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

from comparison.hostlab.adapters import Adapter
from comparison.hostlab.install import NODE_DIR

PROJECT = Path(__file__).resolve().parent.parent.parent
CACHE = Path(os.environ.get("MCP_COMPARE_HOST_VERSIONS", PROJECT / ".cache" / "host-versions"))
MAX_BYTES = int(os.environ.get("MCP_COMPARE_HOST_VERSIONS_BYTES", str(12 * 1024**3)))
INSTALL_SECONDS = 600
#: What a library host needs beside itself to be driven (the codemode driver's imports).
COMPANIONS = {"@cloudflare/codemode": ("@modelcontextprotocol/sdk@1.32.2", "zod@4.6.7", "@cfworker/json-schema@4.1.6")}
DRIVER_FILES = {"@cloudflare/codemode": ("codemode_lab.mjs", "workers-stub.mjs")}
STAMP = ".installed"


class InstallError(Exception):
    pass


#: What npm needs of this process's environment to reach the registry the way the machine does
#: (a proxy, its certificate authority, npm's own settings); nothing of the dashboard's.
NPM_PASSED = ("PATH", "HOME", "LANG", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY")


def _npm_env() -> dict[str, str]:
    return {
        name: value
        for name, value in os.environ.items()
        if name in NPM_PASSED or name.upper() in NPM_PASSED or name.startswith("npm_config_")
    }


def published(package: str) -> list[str]:
    """Every version npm lists for a package."""
    try:
        done = subprocess.run(
            ["npm", "view", package, "versions", "--json"],
            capture_output=True,
            timeout=120,
            check=False,
            env=_npm_env(),
        )
    except subprocess.TimeoutExpired:
        raise InstallError(f"npm view {package} took longer than 120 s") from None
    if done.returncode != 0:
        raise InstallError(f"npm view {package}: {done.stderr.decode(errors='replace')[-500:]}")
    found = json.loads(done.stdout or b"[]")
    return [found] if isinstance(found, str) else list(found)


def folder(adapter: Adapter, version: str) -> Path:
    return CACHE / f"{adapter.package.replace('/', '+')}@{version}"


def install(adapter: Adapter, version: str) -> tuple[Path, float]:
    """The version's folder (node_modules inside), installing it if needed: (folder, seconds spent)."""
    target = folder(adapter, version)
    target.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with open(target / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (target / STAMP).exists():
            _npm_install(adapter, version, target)
            (target / STAMP).write_text(version, encoding="utf-8")
        # Copied on every use: a cached version runs the driver of this checkout, never an older one.
        for name in DRIVER_FILES.get(adapter.package, ()):
            shutil.copy2(NODE_DIR / name, target / name)
        os.utime(target / STAMP)
    evict(keep=target)
    return target, round(time.monotonic() - started, 2)


def _npm_install(adapter: Adapter, version: str, target: Path) -> None:
    (target / "package.json").write_text(json.dumps({"name": "host-version", "private": True, "type": "module"}))
    command = ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", str(target)]
    command += [f"{adapter.package}@{version}", *COMPANIONS.get(adapter.package, ())]
    try:
        done = subprocess.run(command, capture_output=True, timeout=INSTALL_SECONDS, check=False, env=_npm_env())
    except subprocess.TimeoutExpired:
        raise InstallError(f"installing {adapter.package}@{version} took longer than {INSTALL_SECONDS} s") from None
    if done.returncode != 0:
        raise InstallError(f"npm install {adapter.package}@{version}: {done.stderr.decode(errors='replace')[-800:]}")


def _size(path: Path) -> int:
    return sum(entry.stat().st_size for entry in path.rglob("*") if entry.is_file() and not entry.is_symlink())


def evict(keep: Path | None = None, limit: int | None = None) -> list[str]:
    """Removes the least recently used versions until the cache fits `limit` bytes."""
    limit = MAX_BYTES if limit is None else limit
    if not CACHE.is_dir():
        return []
    installed = [p for p in CACHE.iterdir() if (p / STAMP).exists()]
    sizes = {p: _size(p) for p in installed}
    total, removed = sum(sizes.values()), []
    for path in sorted(installed, key=lambda p: (p / STAMP).stat().st_mtime):
        if total <= limit:
            break
        if path == keep:
            continue
        shutil.rmtree(path, ignore_errors=True)
        total -= sizes[path]
        removed.append(path.name)
    return removed
