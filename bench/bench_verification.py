"""Citation verification at corpus scale: about 3,000 file citations over 511 rows, 860 of them
into a spec repository and the rest into a subject repository, both built here from the spec
files the tests ship (and synthetic Go files). Prints the time of `verify_citations`; asserts
nothing.

    .venv/bin/python bench/bench_verification.py

A fresh temporary SQLite database unless DATABASE_URL names one (its tables are overwritten).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from io import StringIO
from pathlib import Path

from django.core.management import call_command

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))
SPEC_DATA = PROJECT / "tests" / "data" / "mcp-spec"
ROWS = 511
SPEC_CITATIONS = 860
SUBJECT_CITATIONS = 2140


def git(repo: Path, *args: str) -> str:
    env = {
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@example.invalid",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@example.invalid",
        "HOME": tempfile.gettempdir(),
        "PATH": "/usr/bin:/bin",
    }
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, env=env, check=True).stdout


def spec_repo(folder: Path) -> tuple[Path, list[tuple[str, int, str]]]:
    """The spec files at their repository paths; (cited path, line, quote) candidates."""
    repo = folder / "spec"
    citations = []
    for source in SPEC_DATA.rglob("*"):
        if not source.is_file() or source.name in ("SOURCE.md", "LICENSE"):
            continue
        relative = source.relative_to(SPEC_DATA).as_posix().removesuffix(".txt")
        target = repo / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        cited = relative.removeprefix("docs/specification/") if relative.startswith("docs/specification/") else relative
        lines = target.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            words = line.strip().strip("*/#-").strip()
            if len(words) > 24 and '"' not in words and "`" not in words:
                citations.append((cited, number, words[:60]))
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "spec")
    return repo, citations


def subject_repo(folder: Path) -> tuple[Path, list[tuple[str, int, str]]]:
    repo = folder / "subject"
    citations = []
    for index in range(40):
        path = f"internal/pkg{index % 8}/file{index}.go"
        lines = [f"\treturn handle{index}_{n}(ctx, request, {n})" for n in range(1, 401)]
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text("\n".join(lines) + "\n", encoding="utf-8")
        citations += [(path, n, lines[n - 1].strip()) for n in range(1, 401, 7)]
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "subject")
    return repo, citations


def registers(folder: Path, spec: list, subject: list) -> list[Path]:
    from tests.support.register_text import register_text

    rng = random.Random(7)
    spec_pick = [rng.choice(spec) for _ in range(SPEC_CITATIONS)]
    subject_pick = [rng.choice(subject) for _ in range(SUBJECT_CITATIONS)]
    per_row = [[] for _ in range(ROWS)]
    for index, item in enumerate(spec_pick + subject_pick):
        per_row[index % ROWS].append(item)
    paths = []
    for number in range(0, ROWS, 22):
        count = min(22, ROWS - number)
        prefix = "V" + "".join(chr(65 + int(d)) for d in f"{number // 22:02d}")
        text = register_text(count, prefix=prefix, title=f"Verify {number // 22}")
        lines = text.split("\n")
        out, row = [], number
        for index, line in enumerate(lines):
            if line.startswith("- **Sources.**"):
                cited = "; ".join(f'`{path}:{line_no}` "{quote}"' for path, line_no, quote in per_row[row])
                out.append(f"- **Sources.** {cited}")
                row += 1
                continue
            if index and lines[index - 1].startswith("- **Sources.**") and line.startswith("  "):
                continue
            out.append(line)
        path = folder / f"verify-{number // 22:02d}.md"
        path.write_text("\n".join(out), encoding="utf-8")
        paths.append(path)
    return paths


def main() -> None:
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mcp_compare.settings")
    import django

    django.setup()
    call_command("migrate", verbosity=0)
    from registers.loader import load_registers
    from registers.models import Citation, Register, SourceRoot

    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        spec, spec_citations = spec_repo(folder)
        subject, subject_citations = subject_repo(folder)
        Register.objects.all().delete()
        load_registers(registers(folder, spec_citations, subject_citations))
        SourceRoot.objects.update_or_create(
            key="spec",
            defaults={
                "name": "spec",
                "prefixes": ["schema/", "YYYY-MM-DD/"],
                "path_map": [["YYYY-MM-DD/", "docs/specification/YYYY-MM-DD/"]],
                "repository": str(spec),
                "commit": "main",
            },
        )
        SourceRoot.objects.update_or_create(
            key="subject",
            defaults={"name": "subject", "prefixes": ["internal/"], "repository": str(subject), "commit": "main"},
        )
        files = Citation.objects.exclude(kind__in=["url", "wire"]).exclude(path="")
        kinds = Counter(
            "spec" if p.startswith(("schema/", "20")) else "subject" for p in files.values_list("path", flat=True)
        )
        print(f"{files.count()} file citations ({kinds['spec']} spec, {kinds['subject']} subject) over {ROWS} rows")
        for label in ("every citation's source synced", "only the spec synced (the corpus here)"):
            if label.startswith("only"):
                SourceRoot.objects.filter(key="subject").update(repository=str(folder / "not-synced"))
            out = StringIO()
            started = time.perf_counter()
            try:
                call_command("verify_citations", "--json", stdout=out)
            except Exception as error:  # exit 1 on drifted quotes is a result here, not a failure
                print(f"  (command ended with: {str(error)[:80]})")
            elapsed = time.perf_counter() - started
            verdicts = Counter(Citation.objects.exclude(verdict="").values_list("verdict", flat=True))
            print(f"verify_citations, {label}: {elapsed:.2f} s; verdicts {dict(verdicts)}")


if __name__ == "__main__":
    main()
