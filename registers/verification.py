"""Citation verification: read each cited file at its pinned commit and say whether the quote
still stands on the cited line. Reads source roots from settings and the admin, stores verdicts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from registers import facts
from registers.bulkwrite import update_many
from registers.core import excerpts, quotes
from registers.core.sources import GitSource, ShippedSource, SourceError, SourceRoot, local_git_dir, root_for
from registers.models import Citation
from registers.models import SourceRoot as SourceRootModel

FILE_KINDS_EXCLUDED = ("url", "wire")


def settings_roots() -> list[SourceRoot]:
    """The source roots of the settings alone (what a checkout knows before any database)."""
    return [_root(entry) for entry in getattr(settings, "CITATION_SOURCES", [])]


def effective_roots() -> list[SourceRoot]:
    """Settings defaults, overlaid by admin rows with the same key (admin rows may add keys)."""
    roots: dict[str, SourceRoot] = {root.key: root for root in settings_roots()}
    for row in SourceRootModel.objects.all():
        shipped = roots[row.key].shipped if row.key in roots and roots[row.key].commit == row.commit else ""
        roots[row.key] = _root(
            {
                "key": row.key,
                "name": row.name,
                "prefixes": row.prefixes,
                "path_map": row.path_map,
                "repository": row.repository,
                "commit": row.commit,
                "web_url": row.web_url,
                "enabled": row.enabled,
                "notes": row.notes,
                "shipped": shipped,
            }
        )
    return list(roots.values())


def _root(entry: dict) -> SourceRoot:
    return SourceRoot(
        key=entry["key"],
        name=entry.get("name", entry["key"]),
        prefixes=tuple(entry.get("prefixes", ())),
        repository=entry.get("repository", ""),
        commit=entry.get("commit", ""),
        path_map=tuple((str(a), str(b)) for a, b in entry.get("path_map", ())),
        web_url=entry.get("web_url", ""),
        enabled=entry.get("enabled", True),
        notes=entry.get("notes", ""),
        shipped=entry.get("shipped", ""),
    )


def cache_dir() -> Path:
    return Path(settings.SOURCE_CACHE_DIR)


@dataclass
class Override:
    """`--source PREFIX=GITDIR[@COMMIT]`: read one root from another git directory."""

    git_dir: Path
    commit: str = ""


def parse_override(spec: str, roots: list[SourceRoot]) -> tuple[str, Override]:
    """`PREFIX=GITDIR[@COMMIT]` as the key of the root it names and its override; ValueError
    naming what is wrong otherwise."""
    prefix, sep, target = spec.partition("=")
    if not sep or not prefix or not target:
        raise ValueError(f"--source expects PREFIX=GITDIR[@COMMIT], got {spec!r}")
    git_dir, _, commit = target.partition("@")
    matches = [root for root in roots if root.key == prefix or prefix in root.prefixes]
    if not matches:
        raise ValueError(f"--source {spec!r}: no source root has the key or prefix {prefix!r}")
    if not Path(git_dir).is_dir():
        raise ValueError(f"--source {spec!r}: {git_dir} is not a directory")
    return matches[0].key, Override(Path(git_dir), commit)


@dataclass
class CitationCheck:
    citation: Citation
    verdict: str
    source_key: str = ""
    repo_path: str = ""
    commit: str = ""
    line: int | None = None
    detail: str = ""
    excerpt: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        c = self.citation
        return {
            "register": c.row.register.slug,
            "row": c.row.row_id,
            "order": c.order,
            "field": c.field,
            "citation": c.locator,
            "quote": c.quote,
            "source": self.source_key,
            "repo_path": self.repo_path,
            "commit": self.commit,
            "verdict": self.verdict,
            "line_start": c.line_start,
            "line_end": c.line_end,
            "found_line": self.line if self.verdict == quotes.MOVED else None,
            "detail": self.detail,
        }


class Verifier:
    """Checks citations against their source roots; one git reader per repository."""

    def __init__(
        self,
        roots: list[SourceRoot],
        *,
        overrides: dict[str, Override] | None = None,
        commit: str = "",
        cache: Path | None = None,
    ):
        self.roots = roots
        self.overrides = overrides or {}
        self.commit = commit
        self.cache = cache or cache_dir()
        self.readers: dict[Path, GitSource | ShippedSource] = {}
        self.texts: dict[tuple[Path, str, str], quotes.SourceText] = {}

    def close(self) -> None:
        """End the git processes of the readers."""
        for reader in self.readers.values():
            reader.close()

    def check(self, citation: Citation) -> CitationCheck:
        root = root_for(citation.path, self.roots)
        if root is None or not root.enabled:
            return CitationCheck(citation, quotes.NO_SOURCE, detail="no source root is configured for this path")
        repo_path = root.repo_path(citation.path)
        override = self.overrides.get(root.key)
        git_dir = override.git_dir if override else local_git_dir(root, self.cache)
        commit = (override.commit if override and override.commit else "") or self.commit or root.commit
        if root.key == "subject" and not commit:
            commit = citation.row.register.subject_commit
        result = CitationCheck(citation, quotes.NO_SOURCE, root.key, repo_path, commit)
        if git_dir is None and root.shipped and Path(root.shipped).is_dir():
            git_dir = Path(root.shipped)
            reader = self.readers.setdefault(git_dir, ShippedSource(git_dir, root.commit))
        elif git_dir is None:
            result.detail = f"source {root.key!r} is not synced (run manage.py sync_sources)"
            return result
        else:
            reader = self.readers.setdefault(git_dir, GitSource(git_dir))
        try:
            result.commit = reader.resolve(commit)
            text = reader.read(commit, repo_path)
        except SourceError as error:
            result.detail = str(error)
            return result
        if text is None:
            result.verdict, result.detail = quotes.FILE_MISSING, f"{repo_path} is not in {root.key} at {commit}"
            return result
        key = (git_dir, result.commit, repo_path)
        if key not in self.texts:
            self.texts[key] = quotes.SourceText(text.splitlines())
        lines = self.texts[key]
        located = quotes.locate(citation.quote, lines, citation.line_start, citation.line_end)
        result.verdict, result.line, result.detail = located.verdict, located.line, located.detail
        found = located.line if located.verdict == quotes.MOVED else None
        result.excerpt = excerpts.cut(lines, citation.line_start, citation.line_end, found)
        return result


def checkable(citations) -> Iterable[Citation]:
    return citations.exclude(kind__in=FILE_KINDS_EXCLUDED).exclude(path="").select_related("row__register")


def verify(citations, *, verifier: Verifier, save: bool = True, progress=None) -> list[CitationCheck]:
    """Check citations; `progress(done, total)` is called as they are checked."""
    selected = list(checkable(citations).order_by("row__register__slug", "row__order", "order"))
    checks = []
    try:
        for index, citation in enumerate(selected, start=1):
            checks.append(verifier.check(citation))
            if progress:
                progress(index, len(selected))
    finally:
        verifier.close()
    if save:
        now = timezone.now()
        for check in checks:
            c = check.citation
            c.verdict, c.verified_commit, c.verified_at = check.verdict, check.commit[:40], now
            c.source_key, c.repo_path, c.verify_detail = check.source_key, check.repo_path, check.detail
            c.found_line = check.line if check.verdict == quotes.MOVED else None
            c.excerpt = check.excerpt
        update_many(
            Citation,
            [check.citation for check in checks],
            [
                "verdict",
                "verified_commit",
                "verified_at",
                "source_key",
                "repo_path",
                "verify_detail",
                "found_line",
                "excerpt",
            ],
        )
        facts.refresh({check.citation.row_id for check in checks})
    return checks


def summary(checks: list[CitationCheck]) -> Counter:
    return Counter(check.verdict for check in checks)
