"""Small git repositories built in a temporary folder for citation tests."""

from __future__ import annotations

import subprocess
from pathlib import Path

GIT_ENV = {
    "GIT_AUTHOR_NAME": "test",
    "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "test",
    "GIT_COMMITTER_EMAIL": "test@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "HOME": "/tmp",
    "PATH": "/usr/bin:/bin",
}


def git(repo: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, env=GIT_ENV, timeout=60, check=True
    )
    return result.stdout.strip()


def init(repo: Path) -> Path:
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q", "-b", "main")
    return repo


def commit(repo: Path, files: dict[str, str | None], message: str) -> str:
    """Write (or, for None, delete) files and commit; returns the commit id."""
    for name, text in files.items():
        path = repo / name
        if text is None:
            path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def from_folder(folder: Path, repo: Path, message: str) -> str:
    """A repository holding a copy of a test-data folder (`.txt` suffixes dropped: test data keeps
    page sources as text files); returns the commit id."""
    import shutil

    init(repo)
    for path in folder.rglob("*"):
        if path.is_file():
            target = repo / path.relative_to(folder)
            target = target.with_name(target.name.removesuffix(".txt"))
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")
