"""The corpus of real proxies (tests/support/corpus.py), judged by hand: every judged cell still says what
the judgement holds (its verdict class, and the words its finding must hold). A judgement that no
longer holds fails here, naming the proxy, the cell and what the cell says now."""

from __future__ import annotations

import collections

import pytest

from tests.support import corpus

pytestmark = pytest.mark.peers


def test_the_corpus_is_varied_and_large_enough():
    judged = corpus.judgements()
    per_proxy = collections.Counter(j["proxy"] for j in judged)
    assert len(judged) >= 300
    assert set(per_proxy) == set(corpus.BY_NAME), "every proxy of the corpus is judged, and only those"
    assert {j["verdict"] for j in judged} >= {
        "as expected", "changed by proxy", "lost by proxy", "refused by proxy", "invalid for revision",
    }  # fmt: skip
    assert all(j["words"] for j in judged if j["verdict"] != "as expected" and j["verdict"] != "invalid for revision")


@pytest.mark.parametrize("name", [proxy.name for proxy in corpus.PROXIES])
def test_every_judgement_of_the_proxy_still_holds(name):
    wrong = [f"{j['scenario']} @ {j['revision']}: {why}" for j, why in corpus.judge(name) if why]
    assert wrong == []
