"""Source roots: prefixes, path maps, links, safe paths, git reads and sync."""

from __future__ import annotations

import shutil

import pytest

from registers.core.sources import GitSource, SourceError, SourceRoot, root_for, safe_repo_path, sync_root
from tests.support import gitrepo

SPEC = SourceRoot(
    key="spec",
    name="spec",
    prefixes=("schema/", "YYYY-MM-DD/", "docs/extensions/"),
    path_map=(("YYYY-MM-DD/", "docs/specification/YYYY-MM-DD/"),),
    commit="abc123",
    web_url="https://github.com/o/r/blob/{commit}/{path}{anchor}",
)
V1 = SourceRoot(key="opencode-v1", name="v1", prefixes=("v1:",), path_map=(("v1:", ""),), commit="982a9044c")
SUBJECT = SourceRoot(key="subject", name="mcpx", prefixes=("internal/", "docs/"), path_map=(("", "pkgs/mcpx/"),))
ROOTS = [SPEC, V1, SUBJECT]


@pytest.mark.parametrize(
    ("path", "key", "repo_path"),
    [
        ("schema/2025-06-18/schema.ts", "spec", "schema/2025-06-18/schema.ts"),
        ("2025-06-18/server/prompts.mdx", "spec", "docs/specification/2025-06-18/server/prompts.mdx"),
        ("docs/extensions/apps.mdx", "spec", "docs/extensions/apps.mdx"),
        ("docs/protocol.md", "subject", "pkgs/mcpx/docs/protocol.md"),
        ("v1:packages/opencode/src/x.ts", "opencode-v1", "packages/opencode/src/x.ts"),
    ],
)
def test_prefixes_and_path_maps(path, key, repo_path):
    root = root_for(path, ROOTS)
    assert root.key == key
    assert root.repo_path(path) == repo_path


def test_no_root_for_unknown_prefix():
    assert root_for(".lootbox/src/x.ts", ROOTS) is None


def test_links():
    assert SPEC.link("schema/a.ts", "", 5, 9) == "https://github.com/o/r/blob/abc123/schema/a.ts#L5-L9"
    assert SPEC.link("schema/a.ts", "def", 5, None) == "https://github.com/o/r/blob/def/schema/a.ts#L5"
    assert V1.link("x.ts", "", 1, 2) == ""


@pytest.mark.parametrize("path", ["../etc/passwd", "/etc/passwd", "a/../../b", "-n", "a\\b", "c:/x", "a\x00b", ""])
def test_unsafe_paths_are_refused(path):
    with pytest.raises(SourceError):
        safe_repo_path(path)


def test_git_source_reads_at_a_commit(tmp_path):
    repo = gitrepo.init(tmp_path / "repo")
    first = gitrepo.commit(repo, {"a.txt": "one\ntwo\n"}, "first")
    second = gitrepo.commit(repo, {"a.txt": "changed\n", "b.txt": "new\n"}, "second")
    source = GitSource(repo)
    assert source.read(first, "a.txt") == "one\ntwo\n"
    assert source.read(second, "a.txt") == "changed\n"
    assert source.read(first, "b.txt") is None
    assert source.read(second, "nowhere/x.txt") is None
    assert source.resolve("main") == second
    with pytest.raises(SourceError):
        source.resolve("0000000000000000000000000000000000000000")
    with pytest.raises(SourceError, match="unsafe"):
        source.read(first, "../a.txt")
    capped = GitSource(repo, max_bytes=3)
    with pytest.raises(SourceError, match="cap"):
        capped.read(first, "a.txt")


def test_sync_clones_fetches_and_keeps_the_cache_when_unreachable(tmp_path):
    upstream = gitrepo.init(tmp_path / "upstream")
    first = gitrepo.commit(upstream, {"f.txt": "v1\n"}, "one")
    cache = tmp_path / "cache"
    root = SourceRoot(key="up", name="up", prefixes=("x/",), repository=f"file://{upstream}", commit=first)

    assert sync_root(root, cache).status == "cloned"
    assert GitSource(cache / "up.git").read(first, "f.txt") == "v1\n"

    second = gitrepo.commit(upstream, {"f.txt": "v2\n"}, "two")
    assert sync_root(root, cache).status == "fetched"
    assert GitSource(cache / "up.git").read(second, "f.txt") == "v2\n"

    shutil.rmtree(upstream)
    failed = sync_root(root, cache)
    assert failed.status == "failed"
    assert "previous cache is kept" in failed.detail
    assert GitSource(cache / "up.git").read(second, "f.txt") == "v2\n"


def test_sync_of_local_and_unconfigured_roots(tmp_path):
    repo = gitrepo.init(tmp_path / "local")
    gitrepo.commit(repo, {"f.txt": "x\n"}, "one")
    assert sync_root(SourceRoot(key="l", name="l", prefixes=(), repository=str(repo)), tmp_path).status == "local"
    assert sync_root(SourceRoot(key="n", name="n", prefixes=()), tmp_path).status == "skipped"
    unreachable = SourceRoot(key="gone", name="gone", prefixes=(), repository=f"file://{tmp_path}/missing")
    assert sync_root(unreachable, tmp_path / "cache").status == "failed"
    assert not (tmp_path / "cache" / "gone.git").exists()


def test_one_batch_process_reads_each_file_once(tmp_path):
    repo = gitrepo.init(tmp_path / "repo")
    first = gitrepo.commit(repo, {"a.txt": "one\ntwo\n", "dir/b.md": "# B\n"}, "first")
    second = gitrepo.commit(repo, {"a.txt": "one\nTWO\n"}, "second")
    with GitSource(repo) as source:
        assert source.read(first, "a.txt") == "one\ntwo\n"
        assert source.read(second, "a.txt") == "one\nTWO\n"
        assert source.read(first, "dir/b.md") == "# B\n"
        assert source.read(first, "missing.txt") is None
        assert source.read(first, "dir") is None, "a tree is not a file"
        batch = source._batch
        assert source.read(first, "a.txt") == "one\ntwo\n"
        assert source._batch is batch, "one process for every read"
        assert len(source._files) == 5, "a file read twice is read once"
    assert batch.poll() is not None, "closing ends the process"


def test_an_oversized_file_is_refused_and_the_next_read_still_works(tmp_path):
    repo = gitrepo.init(tmp_path / "repo")
    commit = gitrepo.commit(repo, {"big.txt": "x" * 5000, "small.txt": "ok\n"}, "sizes")
    with GitSource(repo, max_bytes=1000) as source:
        with pytest.raises(SourceError, match=r"big\.txt is 5000 bytes, over the 1000-byte cap"):
            source.read(commit, "big.txt")
        assert source.read(commit, "small.txt") == "ok\n"


def test_paths_that_would_break_the_batch_protocol_are_refused():
    with pytest.raises(SourceError, match="unsafe path"):
        safe_repo_path("a.txt\nHEAD:secret")
