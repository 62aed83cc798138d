"""Citation verification: read each cited file at its pinned commit and say whether the quote
still stands on the cited line. Reads source roots from settings and the admin, stores verdicts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.utils import timezone
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_for_filename
from pygments.util import ClassNotFound

from . import facts, quotes
from .bulkwrite import update_many
from .models import Citation
from .models import SourceRoot as SourceRootModel
from .sources import GitSource, SourceError, SourceRoot, local_git_dir, root_for

FILE_KINDS_EXCLUDED = ("url", "wire")
CONTEXT_LINES = 3
MAX_EXCERPT_LINES = 40


def settings_roots() -> list[SourceRoot]:
    """The source roots of the settings alone (what a checkout knows before any database)."""
    return [_root(entry) for entry in getattr(settings, "CITATION_SOURCES", [])]


def effective_roots() -> list[SourceRoot]:
    """Settings defaults, overlaid by admin rows with the same key (admin rows may add keys)."""
    roots: dict[str, SourceRoot] = {root.key: root for root in settings_roots()}
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
        key = (git_dir, result.commit, repo_path)
        if key not in self.texts:
            self.texts[key] = quotes.SourceText(text.splitlines())
        lines = self.texts[key]
        located = quotes.locate(citation.quote, lines, citation.line_start, citation.line_end)
        result.verdict, result.line, result.detail = located.verdict, located.line, located.detail
        result.excerpt_html = excerpt(repo_path, lines, citation.line_start, citation.line_end, located)
        return result


def excerpt(path: str, lines: list[str], start: int | None, end: int | None, located: quotes.Located) -> str:
    """The cited (or found) lines with a few lines of context, highlighted by file type."""
    span = excerpt_span(len(lines), start, end, located)
    if span is None:
        return ""
    first, last = span[0], span[1]
    if _whole_file_pays(lines):
        return excerpt_html(highlighted_lines(path, lines), *span)
    window = highlight("\n".join(lines[first - 1 : last]) + "\n", _lexer(path), _PLAIN).split("\n")
    return excerpt_html([""] * (first - 1) + window, *span)


#: Highlighting a whole file costs about as much as this many one-excerpt windows of it: once a
#: file has had that many excerpts, the rest come from one highlighting of the whole file.
WINDOWS_PER_FILE_LINES = 1 / 80


def _whole_file_pays(lines: list[str]) -> bool:
    if not isinstance(lines, quotes.SourceText):
        return False
    if lines.highlighted is not None:
        return True
    lines.excerpts += 1
    return lines.excerpts >= len(lines) * WINDOWS_PER_FILE_LINES


def excerpt_span(
    total: int, start: int | None, end: int | None, located: quotes.Located
) -> tuple[int, int, int, int] | None:
    """(first, last, focus first, focus last) line numbers of an excerpt, or None."""
    focus_start = located.line if located.verdict == quotes.MOVED and located.line else start
    if not focus_start or focus_start > total:
        return None
    span = max((end or start or focus_start) - (start or focus_start), 0)
    focus_end = min(focus_start + span, total, focus_start + MAX_EXCERPT_LINES)
    return max(1, focus_start - CONTEXT_LINES), min(total, focus_end + CONTEXT_LINES), focus_start, focus_end


def highlighted_lines(path: str, lines: list[str]) -> list[str]:
    """The whole file highlighted once, as one HTML string per line (a SourceText keeps them,
    so every citation of the file reuses them; a token spanning lines is closed per line)."""
    cached = getattr(lines, "highlighted", None)
    if cached is not None:
        return cached
    html = highlight("\n".join(lines) + "\n", _lexer(path), _PLAIN).split("\n")
    if isinstance(lines, quotes.SourceText):
        lines.highlighted = html
    return html


def excerpt_html(highlighted: list[str], first: int, last: int, focus_start: int, focus_end: int) -> str:
    width = len(str(last))
    out = []
    for number in range(first, last + 1):
        line = f'<span class="linenos">{number:>{width}}</span>{highlighted[number - 1]}\n'
        out.append(f'<span class="hll">{line}</span>' if focus_start <= number <= focus_end else line)
    return f'<div class="highlight excerpt"><pre><code>{"".join(out)}</code></pre></div>'


#: One formatter for every file: plain spans, no wrapper (excerpt_html adds line numbers and marks).
_PLAIN = HtmlFormatter(nowrap=True)


@lru_cache(maxsize=64)
def _lexer_for_suffix(suffix: str):
    # stripnl off: a file's leading blank lines must keep the line numbers right.
    try:
        return get_lexer_for_filename(f"file{suffix}", stripnl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False)


def _lexer(path: str):
    """The lexer for a file type, looked up once per suffix (the lookup scans every lexer)."""
    name = path.removesuffix(".mdx") + (".md" if path.endswith(".mdx") else "")
    return _lexer_for_suffix(Path(name).suffix.lower())


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
            c.excerpt_html = check.excerpt_html
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
                "excerpt_html",
            ],
        )
        facts.refresh({check.citation.row_id for check in checks})
    return checks


def summary(checks: list[CitationCheck]) -> Counter:
    return Counter(check.verdict for check in checks)
