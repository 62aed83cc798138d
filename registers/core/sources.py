"""Source roots: which git repository, commit and path a cited file lives at. No Django.

A citation's path (`schema/2025-06-18/schema.ts`, `v1:packages/…`, `.lootbox/src/…`) is matched
by prefix to a source root, rewritten into the repository's own path (`2025-06-18/server/x.mdx`
lives at `docs/specification/2025-06-18/server/x.mdx`), and read with `git` at the pinned commit.
Git is always called with an argument list, never through a shell; paths from register text
never leave the repository; reads are size-capped and time-limited.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

#: Stands for any revision date in prefixes and path maps.
REVISION_WILDCARD = "YYYY-MM-DD"
MAX_FILE_BYTES = 4 * 1024 * 1024
GIT_TIMEOUT = 60
SYNC_TIMEOUT = 900


class SourceError(Exception):
    """A file or repository that cannot be read; the message says which and why."""


@dataclass(frozen=True)
class SourceRoot:
    key: str
    name: str
    prefixes: tuple[str, ...]
    repository: str = ""
    commit: str = ""
    path_map: tuple[tuple[str, str], ...] = ()
    web_url: str = ""
    enabled: bool = True
    notes: str = ""
    #: A folder the project ships with byte-identical copies of this root's files at `commit`
    #: (the spec's schemas and pages): read when no clone is synced, so a fresh install verifies.
    shipped: str = ""

    def matches(self, path: str) -> str | None:
        """The prefix of this root that `path` starts with (longest first), or None."""
        for prefix in sorted(self.prefixes, key=len, reverse=True):
            if _prefix_pattern(prefix).match(path):
                return prefix
        return None

    def repo_path(self, path: str) -> str:
        """The path inside the repository for a cited path (longest path-map entry wins)."""
        for source, target in sorted(self.path_map, key=lambda item: len(item[0]), reverse=True):
            match = _prefix_pattern(source).match(path)
            if match:
                replaced = target
                if REVISION_WILDCARD in source and match.groups():
                    replaced = target.replace(REVISION_WILDCARD, match.group(1))
                return replaced + path[match.end() :]
        return path

    def link(self, repo_path: str, commit: str, line_start: int | None, line_end: int | None) -> str:
        if not self.web_url:
            return ""
        anchor = ""
        if line_start:
            anchor = f"#L{line_start}" + (f"-L{line_end}" if line_end and line_end != line_start else "")
        return self.web_url.format(commit=commit or self.commit, path=repo_path, anchor=anchor)


def _prefix_pattern(prefix: str) -> re.Pattern[str]:
    escaped = re.escape(prefix).replace(re.escape(REVISION_WILDCARD), r"(\d{4}-\d{2}-\d{2})")
    return re.compile(escaped)


def root_for(path: str, roots: list[SourceRoot]) -> SourceRoot | None:
    best: tuple[int, SourceRoot] | None = None
    for root in roots:
        prefix = root.matches(path)
        if prefix is not None and (best is None or len(prefix) > best[0]):
            best = (len(prefix), root)
    return best[1] if best else None


def safe_repo_path(path: str) -> str:
    """Reject what could escape the repository: absolute paths, `..`, NULs, option-like names."""
    if not path or "\x00" in path or "\n" in path or path.startswith(("/", "-")) or "\\" in path:
        raise SourceError(f"unsafe path {path!r}")
    parts = PurePosixPath(path).parts
    if any(part in ("..", ".") for part in parts) or ":" in parts[0]:
        raise SourceError(f"unsafe path {path!r}")
    return "/".join(parts)


def _git_env() -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": tempfile.gettempdir(),
        "LC_ALL": "C",
    }


def _git(git_dir: Path, *args: str, timeout: int = GIT_TIMEOUT, max_bytes: int | None = None) -> bytes:
    try:
        result = subprocess.run(
            ["git", "-C", str(git_dir), *args], capture_output=True, timeout=timeout, env=_git_env(), check=False
        )
    except subprocess.TimeoutExpired:
        raise SourceError(f"git {args[0]} in {git_dir} took longer than {timeout} s") from None
    except FileNotFoundError:
        raise SourceError("git is not installed") from None
    if result.returncode != 0:
        message = result.stderr.decode(errors="replace").strip().splitlines()
        raise SourceError(message[-1] if message else f"git {args[0]} failed")
    if max_bytes is not None and len(result.stdout) > max_bytes:
        raise SourceError(f"more than {max_bytes} bytes")
    return result.stdout


class GitSource:
    """Reads files of one git directory (a work tree or a bare clone) at given commits, through
    one `git cat-file --batch` process: every file is read once, however many citations point at
    it (a process per read cost 15-33 s for 3,000 citations)."""

    def __init__(self, git_dir: Path, max_bytes: int = MAX_FILE_BYTES, timeout: float = GIT_TIMEOUT):
        self.git_dir, self.max_bytes, self.timeout = git_dir, max_bytes, timeout
        self._commits: dict[str, str] = {}
        self._files: dict[tuple[str, str], str | None] = {}
        self._batch: subprocess.Popen | None = None

    def resolve(self, commit: str) -> str:
        """The full id of a commit (or tag / branch), or SourceError."""
        if commit not in self._commits:
            if not commit or commit.startswith("-"):
                raise SourceError(f"no commit given for {self.git_dir}")
            out = _git(self.git_dir, "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}")
            self._commits[commit] = out.decode().strip()
        return self._commits[commit]

    def read(self, commit: str, path: str) -> str | None:
        """The file's text at `commit`, or None if the commit has no such file."""
        key = (self.resolve(commit), safe_repo_path(path))
        if key not in self._files:
            self._files[key] = self._cat(f"{key[0]}:{key[1]}")
        return self._files[key]

    def close(self) -> None:
        if self._batch is not None:
            for pipe in (self._batch.stdin, self._batch.stdout):
                pipe.close()
            self._batch.kill()
            self._batch.wait(timeout=10)
            self._batch = None

    def __enter__(self) -> GitSource:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _process(self) -> subprocess.Popen:
        if self._batch is None or self._batch.poll() is not None:
            try:
                self._batch = subprocess.Popen(
                    ["git", "-C", str(self.git_dir), "cat-file", "--batch"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    env=_git_env(),
                    # Unbuffered: a byte read is a byte the pipe had, so select() never waits for
                    # data already sitting in a Python buffer.
                    bufsize=0,
                )
            except FileNotFoundError:
                raise SourceError("git is not installed") from None
        return self._batch

    def _cat(self, spec: str) -> str | None:
        process = self._process()
        deadline = time.monotonic() + self.timeout
        try:
            process.stdin.write(spec.encode() + b"\n")
            process.stdin.flush()
            header = self._read_line(deadline)
        except (BrokenPipeError, OSError) as error:
            self.close()
            raise SourceError(f"git cat-file in {self.git_dir} stopped: {error}") from None
        parts = header.split()
        if len(parts) != 3 or parts[1] == b"missing":
            return None  # "<spec> missing" (or ambiguous): no such file at that commit
        kind, size = parts[1], int(parts[2])
        if size > self.max_bytes:
            self.close()  # what is left of the object is not worth reading: start afresh
            raise SourceError(f"{spec.split(':', 1)[1]} is {size} bytes, over the {self.max_bytes}-byte cap")
        data = self._read_exact(size + 1, deadline)[:size]  # the object, then a newline
        return data.decode("utf-8", "replace") if kind == b"blob" else None

    def _read_line(self, deadline: float) -> bytes:
        line = b""
        while not line.endswith(b"\n"):
            if len(line) > 4096:
                self.close()
                raise SourceError(f"git cat-file in {self.git_dir} answered an overlong header")
            line += self._read_some(deadline, 1)
        return line

    def _read_exact(self, size: int, deadline: float) -> bytes:
        chunks, remaining = [], size
        while remaining:
            chunk = self._read_some(deadline, min(remaining, 1 << 20))
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)

    def _read_some(self, deadline: float, wanted: int) -> bytes:
        descriptor = self._batch.stdout.fileno()
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([descriptor], [], [], remaining)[0]:
            self.close()
            raise SourceError(f"git cat-file in {self.git_dir} took longer than {self.timeout:.0f} s")
        chunk = os.read(descriptor, wanted)
        if not chunk:
            self.close()
            raise SourceError(f"git cat-file in {self.git_dir} ended early")
        return chunk


class ShippedSource:
    """The files a root ships with the project, at its pinned commit only. A file it does not ship
    is not said to be missing (the repository may hold it): reading it raises SourceError."""

    def __init__(self, folder: Path, pinned: str, max_bytes: int = MAX_FILE_BYTES):
        self.folder, self.pinned, self.max_bytes = folder, pinned, max_bytes

    def resolve(self, commit: str) -> str:
        if commit and not self.pinned.startswith(commit):
            raise SourceError(f"the shipped copy holds {self.pinned[:12]} only; sync the repository to read {commit}")
        return self.pinned

    def read(self, commit: str, path: str) -> str | None:
        self.resolve(commit)
        file = self.folder / safe_repo_path(path)
        if not file.is_file():
            raise SourceError(f"{path} is not among the files shipped at {self.pinned[:12]}; run sync_sources")
        if file.stat().st_size > self.max_bytes:
            raise SourceError(f"{path} is over the {self.max_bytes}-byte cap")
        return file.read_text(encoding="utf-8", errors="replace")

    def close(self) -> None:
        return None


def local_git_dir(root: SourceRoot, cache_dir: Path) -> Path | None:
    """Where to read a root from: its repository when that is a local git directory, else the
    synced cache; None when neither exists."""
    if root.repository and not _is_remote(root.repository):
        path = Path(root.repository).expanduser()
        if path.is_dir():
            return path
    cached = cache_dir / f"{root.key}.git"
    return cached if cached.is_dir() else None


def _is_remote(repository: str) -> bool:
    return bool(re.match(r"^(?:https?|ssh|git|file)://|^[\w.-]+@[\w.-]+:", repository))


@dataclass
class SyncResult:
    key: str
    status: str  # "cloned", "fetched", "local", "skipped", "failed"
    detail: str = ""


def sync_root(root: SourceRoot, cache_dir: Path) -> SyncResult:
    """Clone (bare) or fetch one root's repository into the cache.

    A failed fetch leaves the existing cache as it was; a clone goes to a temporary folder and
    is moved into place only when complete.
    """
    if not root.enabled or not root.repository:
        return SyncResult(root.key, "skipped", "no repository configured")
    if not _is_remote(root.repository) and Path(root.repository).expanduser().is_dir():
        return SyncResult(root.key, "local", f"read in place from {root.repository}")
    cache_dir.mkdir(parents=True, exist_ok=True)
    target = cache_dir / f"{root.key}.git"
    try:
        if target.is_dir():
            _git(
                target,
                "fetch",
                "--quiet",
                "--tags",
                "--force",
                root.repository,
                "+refs/heads/*:refs/heads/*",
                timeout=SYNC_TIMEOUT,
            )
            return SyncResult(root.key, "fetched", str(target))
        staging = Path(tempfile.mkdtemp(prefix=f"{root.key}-", dir=cache_dir))
        try:
            _git(
                cache_dir,
                "clone",
                "--quiet",
                "--bare",
                "--",
                root.repository,
                str(staging / "repo.git"),
                timeout=SYNC_TIMEOUT,
            )
            (staging / "repo.git").rename(target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return SyncResult(root.key, "cloned", str(target))
    except SourceError as error:
        kept = " (the previous cache is kept)" if target.is_dir() else ""
        return SyncResult(root.key, "failed", f"{error}{kept}")
