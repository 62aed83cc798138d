"""Citation verification: read each cited file at its pinned commit and say whether the quote
still stands on the cited line. Reads source roots from settings and the admin, stores verdicts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.utils import timezone
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_for_filename
from pygments.util import ClassNotFound

from . import facts, quotes
from .models import Citation
from .models import SourceRoot as SourceRootModel
from .sources import GitSource, SourceError, SourceRoot, local_git_dir, root_for

FILE_KINDS_EXCLUDED = ("url", "wire")
CONTEXT_LINES = 3
MAX_EXCERPT_LINES = 40


def effective_roots() -> list[SourceRoot]:
    """Settings defaults, overlaid by admin rows with the same key (admin rows may add keys)."""
    roots: dict[str, SourceRoot] = {}
    for entry in getattr(settings, "CITATION_SOURCES", []):
        roots[entry["key"]] = _root(entry)
    for row in SourceRootModel.objects.all():
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
    )


def cache_dir() -> Path:
    return Path(settings.SOURCE_CACHE_DIR)


@dataclass
class Override:
    """`--source PREFIX=GITDIR[@COMMIT]`: read one root from another git directory."""

    git_dir: Path
    commit: str = ""


@dataclass
class CitationCheck:
    citation: Citation
    verdict: str
    source_key: str = ""
    repo_path: str = ""
    commit: str = ""
    line: int | None = None
    detail: str = ""
    excerpt_html: str = ""

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
        self.readers: dict[Path, GitSource] = {}

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
        if git_dir is None:
            result.detail = f"source {root.key!r} is not synced (run manage.py sync_sources)"
            return result
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
        lines = text.splitlines()
        located = quotes.locate(citation.quote, lines, citation.line_start, citation.line_end)
        result.verdict, result.line, result.detail = located.verdict, located.line, located.detail
        result.excerpt_html = excerpt(repo_path, lines, citation.line_start, citation.line_end, located)
        return result


def excerpt(path: str, lines: list[str], start: int | None, end: int | None, located: quotes.Located) -> str:
    """The cited (or found) lines with a few lines of context, highlighted by file type."""
    focus_start = located.line if located.verdict == quotes.MOVED and located.line else start
    if not focus_start or focus_start > len(lines):
        return ""
    span = max((end or start or focus_start) - (start or focus_start), 0)
    focus_end = min(focus_start + span, len(lines), focus_start + MAX_EXCERPT_LINES)
    first = max(1, focus_start - CONTEXT_LINES)
    last = min(len(lines), focus_end + CONTEXT_LINES)
    try:
        lexer = get_lexer_for_filename(path.removesuffix(".mdx") + (".md" if path.endswith(".mdx") else ""))
    except ClassNotFound:
        lexer = TextLexer()
    formatter = HtmlFormatter(
        linenos="inline",
        linenostart=first,
        hl_lines=list(range(focus_start - first + 1, focus_end - first + 2)),
        cssclass="highlight excerpt",
        wrapcode=True,
    )
    return highlight("\n".join(lines[first - 1 : last]) + "\n", lexer, formatter)


def checkable(citations) -> Iterable[Citation]:
    return citations.exclude(kind__in=FILE_KINDS_EXCLUDED).exclude(path="").select_related("row__register")


def verify(citations, *, verifier: Verifier, save: bool = True) -> list[CitationCheck]:
    checks = [
        verifier.check(citation)
        for citation in checkable(citations).order_by("row__register__slug", "row__order", "order")
    ]
    if save:
        now = timezone.now()
        for check in checks:
            c = check.citation
            c.verdict, c.verified_commit, c.verified_at = check.verdict, check.commit[:40], now
            c.source_key, c.repo_path, c.verify_detail = check.source_key, check.repo_path, check.detail
            c.found_line = check.line if check.verdict == quotes.MOVED else None
            c.excerpt_html = check.excerpt_html
        Citation.objects.bulk_update(
            [check.citation for check in checks],
            [
                "verdict",
                "verified_commit",
                "verified_at",
                "source_key",
                "repo_path",
                "verify_detail",
                "found_line",
                "excerpt_html",
            ],
            batch_size=500,
        )
        facts.refresh({check.citation.row_id for check in checks})
    return checks


def summary(checks: list[CitationCheck]) -> Counter:
    return Counter(check.verdict for check in checks)
