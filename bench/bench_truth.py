"""How often the probe is right on the corpus of real proxies judged by hand (tests/support/corpus.py,
tests/data/corpus_judgements.json): the share of judged cells whose verdict and words hold, per
proxy, and every cell that does not. Needs the probe peers (scripts/test.sh installs them).

    .venv/bin/python -m bench.bench_truth [PROXY ...]
"""

from __future__ import annotations

import os
import sys

import django


def main(names: list[str]) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mcp_compare.settings")
    django.setup()
    from tests.support import corpus

    total = right = 0
    print(f"{'proxy':<22} {'package':<26} {'judged':>6} {'right':>6} {'share':>7}")
    for proxy in [p for p in corpus.PROXIES if not names or p.name in names]:
        found = corpus.judge(proxy.name)
        held = sum(1 for _, why in found if not why)
        total, right = total + len(found), right + held
        print(f"{proxy.name:<22} {proxy.package:<26} {len(found):>6} {held:>6} {100 * held / len(found):>6.1f}%")
        for judgement, why in found:
            if why:
                print(f"    {judgement['scenario']} @ {judgement['revision']}: {why[:200]}")
    if total:
        print(f"{'all':<49} {total:>6} {right:>6} {100 * right / total:>6.1f}%")
    return 0


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    os._exit(code)  # a proxy's leftover threads never hold the benchmark open
