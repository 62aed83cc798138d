"""The row list's promises on a register written for the test (tests/data/promises.md): every
revision mode, every host mode and every facet count, with the expected rows read off the file by
hand. Unknown is never absent; a deprecated feature still exists; a count says how many rows
picking that value shows."""

from __future__ import annotations

import re

import pytest

from language.vocabulary import LAB_ONLY_HOSTS
from registers.loader import load_registers
from tests.conftest import TEST_DATA

pytestmark = pytest.mark.django_db

ALL = ["PR-01", "PR-02", "PR-03", "PR-04", "PR-05", "PR-06"]


@pytest.fixture
def promises(db):
    return load_registers([TEST_DATA / "promises.md"])


def listed(client, query: str) -> list[str]:
    html = client.get(f"/?{query}").content.decode()
    return re.findall(r'<tr id="row-([A-Z]+-\d+)">', html)


def counts(client, query: str, field: str) -> dict[str, int]:
    """The counts the filter bar shows for one select, by option value."""
    html = client.get(f"/?{query}").content.decode()
    select = re.search(rf'<select[^>]*name="{field}"[^>]*>(.*?)</select>', html, re.S).group(1)
    return {
        value: int(count)
        for value, count in re.findall(r'<option value="([^"]+)"[^>]*>[^<]*\((\d+)\)</option>', select)
    }


@pytest.mark.parametrize(
    ("query", "rows"),
    [
        ("revision=2025-11-25", ["PR-01", "PR-02", "PR-06"]),  # PR-02 is deprecated there
        ("revision=2025-11-25&rev_mode=absent", ["PR-03", "PR-05"]),  # never PR-04: unknown is not absent
        ("revision=2025-11-25&rev_mode=unknown", ["PR-04"]),
        ("revision=2024-11-05&rev_mode=unknown", []),
        ("revision=2024-11-05&rev_mode=absent", ["PR-02", "PR-04", "PR-05"]),  # PR-04: nothing before its list
        ("revision=2024-11-05", ["PR-01", "PR-03", "PR-06"]),
        ("revision=2026-07-28", ["PR-01", "PR-02", "PR-05"]),
        ("revision=2024-11-05&rev_mode=introduced", ["PR-01", "PR-03", "PR-06"]),
        ("revision=2025-03-26&rev_mode=introduced", ["PR-02", "PR-04"]),
        ("revision=2026-07-28&rev_mode=introduced", ["PR-05"]),
        ("revision=2025-06-18&rev_mode=removed", ["PR-03"]),
        ("revision=2025-11-25&rev_mode=removed", ["PR-02"]),
        ("revision=2026-07-28&rev_mode=removed", ["PR-06"]),
    ],
)
def test_every_revision_mode(promises, client, query, rows):
    assert listed(client, query) == rows


@pytest.mark.parametrize(
    ("query", "rows"),
    [
        ("host=opencode-v1", ["PR-01", "PR-04"]),
        ("host=opencode-v1&host_mode=has", ["PR-01"]),
        ("host=opencode-v1&host_mode=lacks", ["PR-04"]),
        ("host=opencode-v1&host_mode=partial", []),
        ("host=opencode-v2&host_mode=has", ["PR-05"]),
        ("host=lootbox", ["PR-04"]),
        ("host=cloudflare", []),
        ("host=mcpx", ALL),
        ("host=mcpx&host_mode=has", ["PR-01", "PR-05"]),
        ("host=mcpx&host_mode=partial", ["PR-02"]),
        ("host=mcpx&host_mode=lacks", ["PR-03", "PR-06"]),
    ],
)
def test_every_host_mode(promises, client, query, rows):
    assert listed(client, query) == rows


@pytest.mark.parametrize(
    ("query", "rows"),
    [
        ("status=yes", ["PR-01"]),
        ("status=partial", ["PR-02"]),
        ("status=no", ["PR-03", "PR-06"]),
        ("status=na", ["PR-04"]),
        ("status=acc", ["PR-05"]),
        ("value=high", ["PR-01", "PR-05"]),
        ("value=negative", ["PR-03"]),
        ("effort=XL", ["PR-05"]),
        ("risk=high", ["PR-03", "PR-06"]),
        ("label=specs+conflict", ["PR-06"]),
        ("cite=unverified", ["PR-01"]),
        ("revision=2025-11-25&host=mcpx&host_mode=lacks", ["PR-06"]),
        ("revision=2025-11-25&rev_mode=unknown&host=lootbox", ["PR-04"]),
        ("q=deprecated", ["PR-02"]),
    ],
)
def test_other_filters_and_combinations(promises, client, query, rows):
    assert listed(client, query) == rows


def test_revision_counts_follow_the_mode(promises, client):
    revisions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
    assert counts(client, "", "revision") == dict(zip(revisions, [3, 5, 4, 3, 3], strict=True))
    assert counts(client, "rev_mode=absent", "revision") == dict(zip(revisions, [3, 1, 2, 2, 2], strict=True))
    assert counts(client, "rev_mode=unknown", "revision") == dict(zip(revisions, [0, 0, 0, 1, 1], strict=True))
    assert counts(client, "rev_mode=introduced", "revision") == dict(zip(revisions, [3, 2, 0, 0, 1], strict=True))
    assert counts(client, "rev_mode=removed", "revision") == dict(zip(revisions, [0, 0, 1, 1, 1], strict=True))


def test_host_counts_follow_the_mode(promises, client):
    # The lab's hosts follow the register's: no lab reading is stored here, so they count nothing.
    hosts = ["opencode-v1", "opencode-v2", "lootbox", "cloudflare", "mcpx", *LAB_ONLY_HOSTS]
    lab = [0] * len(LAB_ONLY_HOSTS)
    assert counts(client, "", "host") == dict(zip(hosts, [2, 1, 1, 0, 6, *lab], strict=True))
    assert counts(client, "host_mode=has", "host") == dict(zip(hosts, [1, 1, 1, 0, 2, *lab], strict=True))
    assert counts(client, "host_mode=lacks", "host") == dict(zip(hosts, [1, 0, 0, 0, 2, *lab], strict=True))
    assert counts(client, "host_mode=partial", "host") == dict(zip(hosts, [0, 0, 0, 0, 1, *lab], strict=True))


def test_scalar_counts(promises, client):
    assert counts(client, "", "status") == {"yes": 1, "partial": 1, "no": 2, "na": 1, "acc": 1}
    assert counts(client, "", "value") == {"high": 2, "med": 1, "low": 2, "negative": 1}
    assert counts(client, "", "effort") == {"S": 2, "M": 2, "L": 1, "XL": 1}
    assert counts(client, "", "risk") == {"low": 2, "med": 2, "high": 2}
    assert counts(client, "", "cite") == {"drifted": 0, "moved": 0, "unverified": 1}


def test_each_count_leaves_out_its_own_filter(promises, client):
    query = "revision=2025-11-25&host=mcpx&host_mode=lacks"
    # The revision counts see the host filter only (PR-03 and PR-06) ...
    revisions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
    assert counts(client, query, "revision") == dict(zip(revisions, [2, 2, 1, 1, 0], strict=True))
    # ... the host counts see the revision filter only (PR-01, PR-02, PR-06) ...
    hosts = ["opencode-v1", "opencode-v2", "lootbox", "cloudflare", "mcpx", *LAB_ONLY_HOSTS]
    assert counts(client, query, "host") == dict(zip(hosts, [0, 0, 0, 0, 1, *[0] * len(LAB_ONLY_HOSTS)], strict=True))
    # ... and every other count sees both (PR-06 alone).
    assert counts(client, query, "risk") == {"low": 0, "med": 0, "high": 1}
    assert counts(client, query, "register") == {"promises": 1}
