"""Host model speed, and the real hosts' speed. Prints numbers; asserts nothing.

    .venv/bin/python bench/bench_hosts.py [--repeat N] [--captures N]

- time per host view of a result holding a 1 MB image, per host path (median of N);
- the real Cloudflare package: time for one run over all vectors;
- the real opencode binary: start of `opencode serve`, then time per capture with a warm server.
"""

from __future__ import annotations

import argparse
import base64
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from comparison.hostlab.install import missing
from comparison.hosts import TOOL_PATHS
from comparison.hosts.examples import vectors


def median_ms(fn, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--captures", type=int, default=20)
    args = parser.parse_args()

    image = base64.b64encode(b"\x89PNG" + bytes(1024 * 1024)).decode()
    result = {"content": [{"type": "text", "text": "chart"}, {"type": "image", "data": image, "mimeType": "image/png"}]}
    print(f"host view of a 1 MB image result ({len(image):,} characters of base64), median of {args.repeat}:")
    for path in TOOL_PATHS:
        print(f"  {path.key:22} {median_ms(lambda p=path: p.render(result), args.repeat):7.3f} ms")

    gaps = missing()
    if gaps:
        print(f"real hosts not installed ({', '.join(gaps)}): npm install in comparison/hostlab/node")
        return
    from comparison.hostlab import codemode_node as real_cloudflare
    from comparison.hostlab.opencode_serve import OpencodeHost

    cases = vectors()
    items = [{"name": name, "input": value} for name, value in cases.items()]
    elapsed = median_ms(lambda: real_cloudflare.run(items), 3)
    print(f"real @cloudflare/codemode: {len(items)} vectors in {elapsed:.0f} ms per run (median of 3, with Node start)")

    names = list(cases)[: args.captures]
    start = time.perf_counter()
    with OpencodeHost(cases) as host:
        started = time.perf_counter() - start
        first = time.perf_counter()
        host.capture(names[0])
        first_ms = (time.perf_counter() - first) * 1000
        samples = []
        for name in names[1:]:
            begin = time.perf_counter()
            host.capture(name)
            samples.append((time.perf_counter() - begin) * 1000)
    print(
        f"real opencode 1.18.33: serve ready in {started:.1f} s, first capture {first_ms:.0f} ms, "
        f"warm captures median {statistics.median(samples):.0f} ms (min {min(samples):.0f}, max {max(samples):.0f}, "
        f"n={len(samples)})"
    )


if __name__ == "__main__":
    main()
