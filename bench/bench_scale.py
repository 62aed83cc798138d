"""What each page, the API and each export cost as rows grow, and the most expensive requests a
visitor can make (issue 32). Prints numbers; asserts nothing.

    .venv/bin/python bench/bench_scale.py [--sizes 500,5000,50000] [--skip-playground]

For each size: a fresh temporary SQLite database (or DATABASE_URL, whose register tables are
overwritten: point it at a scratch database) loaded with registers of 900 rows in the real
format. Each URL is requested cold (page cache empty and the per-process memo of the rows'
facts dropped, as after a load) and warm (memo kept, page cache empty): CPU, wall time, SQL
queries, the answer's size, and the peak of Python allocations (a second pass under
tracemalloc, which slows Python down, only for that number).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

REGISTER_ROWS = 900
URLS = [
    "/",
    "/matrix/",
    "/registers/scale-00/",
    "/disagreements/",
    "/api/v1/rows/",
    "/api/v1/disagreements/",
    "/export.csv",
    "/export.json",
    "/export.md",
    "/export.html",
    "/disagreements/?format=csv",
]


def setup() -> None:
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/scale.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mcp_compare.settings")
    os.environ.setdefault("MCP_COMPARE_ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("MCP_COMPARE_CACHE_DIR", tempfile.mkdtemp())
    os.environ.setdefault("MCP_COMPARE_EXPORT_SECONDS", "0")  # measure exports to the end
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def write_registers(rows: int, folder: Path) -> None:
    from tests.support.register_text import register_text

    for index, start in enumerate(range(0, rows, REGISTER_ROWS)):
        prefix = "S" + "".join(chr(65 + int(d)) for d in f"{index:03d}")
        text = register_text(min(REGISTER_ROWS, rows - start), prefix=prefix, title=f"Scale {index:02d}")
        (folder / f"scale-{index:02d}.md").write_text(text, encoding="utf-8")


def forget() -> None:
    """What a load would drop: the page cache and each process's memo of the rows' facts."""
    from django.core.cache import cache

    from registers import filters

    cache.clear()
    filters._memo.clear()


def request(client, url: str) -> tuple[float, float, int, int, int]:
    """(CPU s, wall s, queries, bytes, status) of one GET, its body read to the end."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        cpu, wall = time.process_time(), time.perf_counter()
        response = client.get(url)
        size = sum(len(chunk) for chunk in response.streaming_content) if response.streaming else len(response.content)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return cpu, wall, len(captured), size, response.status_code


def peak_mb(client, url: str, *, cold: bool) -> float:
    """Peak allocations of one request; warm: the rows' facts already read by an earlier page
    (what the request itself holds, beside the per-process memo every listing shares)."""
    forget() if cold else forget_cache_only()
    tracemalloc.start()
    request(client, url)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1e6


def measure_size(rows: int) -> None:
    from django.core.management import call_command
    from django.test import Client

    from registers.models import Register, Row

    Register.objects.all().delete()
    with tempfile.TemporaryDirectory() as folder:
        write_registers(rows, Path(folder))
        started = time.perf_counter()
        call_command("load_registers", folder, verbosity=0, stdout=open(os.devnull, "w"), stderr=open(os.devnull, "w"))
        loaded = time.perf_counter() - started
    print(f"\n{Row.objects.count():,} rows in {Register.objects.count()} registers, loaded in {loaded:.1f} s")
    columns = (
        ("cold CPU", 9),
        ("wall", 7),
        ("warm CPU", 9),
        ("queries", 8),
        ("bytes", 12),
        ("peak MB", 8),
        ("warm MB", 8),
    )
    print(f"{'url':28} " + " ".join(f"{name:>{width}}" for name, width in columns))
    client = Client()
    for url in URLS:
        forget()
        cold = request(client, url)
        forget_cache_only()
        warm = request(client, url)
        peak, warm_peak = peak_mb(client, url, cold=True), peak_mb(client, url, cold=False)
        status = "" if cold[4] == 200 else f"  (HTTP {cold[4]})"
        times = f"{cold[0]:8.2f}s {cold[1]:6.2f}s {warm[0]:8.2f}s"
        print(f"{url:28} {times} {cold[2]:8} {cold[3]:12,} {peak:8.1f} {warm_peak:8.1f}{status}")


def forget_cache_only() -> None:
    from django.core.cache import cache

    cache.clear()


def images(count: int, data_bytes: int) -> dict:
    return {"content": [{"type": "image", "data": "A" * data_bytes, "mimeType": "image/png"}] * count}


def texts(count: int, text_bytes: int) -> dict:
    return {"content": [{"type": "text", "text": "w " * (text_bytes // 2)}] * count}


def playground() -> None:
    """The most expensive requests a visitor (2 MiB) and a logged-in user (32 MiB) can send."""
    from django.contrib.auth.models import User
    from django.test import Client

    mib = 1024 * 1024
    anonymous = 2 * mib - 4096
    cases = [
        ("visitor: one-pixel images to 2 MiB", images(anonymous // 80, 12), False),
        ("visitor: 500 images filling 2 MiB", images(500, anonymous // 500 - 100), False),
        ("visitor: 500 text blocks filling 2 MiB", texts(500, anonymous // 500 - 60), False),
        ("visitor: one 2 MiB image", images(1, anonymous - 100), False),
        ("logged in: 500 images filling 31 MiB", images(500, 31 * mib // 500), True),
        ("logged in: one 31 MiB image", images(1, 31 * mib), True),
    ]
    user = User.objects.filter(username="bench").first() or User.objects.create_user("bench")
    print(f"\n{'playground request':40} {'input':>12} {'CPU':>7} {'answer':>12} {'status':>6}")
    for label, document, logged_in in cases:
        client = Client()
        if logged_in:
            client.force_login(user)
        body = json.dumps(document)
        started = time.process_time()
        response = client.post("/playground/", {"result": body})
        cpu = time.process_time() - started
        print(f"{label:40} {len(body):12,} {cpu:6.2f}s {len(response.content):12,} {response.status_code:6}")


def parsing() -> None:
    from registers.core.format import parse_register
    from tests.support.register_text import register_text

    base = register_text(1, prefix="PAR")
    cites = "; ".join(f"`internal/x{n}.go:{n + 1}`" for n in range(10_000))
    lines = "\n".join("  " + "word " * 19 + f"line{n}" for n in range(200_000))
    cases = [
        ("one row of 10,000 citations", base.replace("- **Sources.** ", f"- **Sources.** {cites}; ", 1)),
        ("a field of 200,000 lines", base.replace("- **Detail.** See", "- **Detail.** Start\n" + lines + "\n  See", 1)),
    ]
    print(f"\n{'parse':32} {'size':>12} {'CPU':>7}")
    for label, text in cases:
        started = time.process_time()
        parse_register(text, "bench.md")
        print(f"{label:32} {len(text):12,} {time.process_time() - started:6.2f}s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="500,5000,50000")
    parser.add_argument("--skip-playground", action="store_true")
    args = parser.parse_args()
    setup()
    parsing()
    if not args.skip_playground:
        playground()
    for rows in (int(size) for size in args.sizes.split(",")):
        measure_size(rows)


if __name__ == "__main__":
    main()
