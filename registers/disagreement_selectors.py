"""The Disagreements list: every row and host where some evidence contradicts the register's
claim, with how many rows each verdict has. Read once per data version and process (like the
listings' facts), from the rows' flat columns only: loading each row with its register's JSON
(lint findings and warnings) made the page's memory grow with rows × register size."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.core.paginator import Paginator
from django.urls import reverse

from comparison import evidence, evidence_selectors
from comparison.http import page_or_404

from .models import Row
from .pagecache import data_version

COLUMNS = ("row_id", "title", "register__slug", "register__title", "facts", "introduced_in", "removed_in")
#: Rows whose evidence is worked out at a time: what is kept of them is the disagreeing items only.
CHUNK = 2000


@dataclass(frozen=True)
class Disagreement:
    register: str  # the register's slug
    register_title: str
    row_id: str
    title: str
    host: str
    claim: str
    conflicts: tuple[evidence.Source, ...]
    support: tuple[evidence.Source, ...]

    @property
    def url(self) -> str:
        return reverse("registers:row_detail", args=[self.register, self.row_id])


@dataclass(frozen=True)
class Disagreements:
    items: list[Disagreement]
    row_counts: list[tuple[str, int]]


_memo: dict[str, Disagreements] = {}


def disagreements() -> Disagreements:
    version = data_version()
    if version not in _memo:
        found = _read()
        _memo.clear()
        _memo[version] = found
    return _memo[version]


def _read() -> Disagreements:
    cells = evidence_selectors.latest_probe_cells()
    items: list[Disagreement] = []
    verdicts: Counter[str] = Counter()
    rows = Row.objects.order_by("register__title", "order").values_list(*COLUMNS)
    chunk: list[tuple] = []
    for values in rows.iterator(chunk_size=CHUNK):
        chunk.append(values)
        if len(chunk) == CHUNK:
            _judge(chunk, cells, items, verdicts)
            chunk = []
    _judge(chunk, cells, items, verdicts)
    return Disagreements(items, [(verdict, verdicts.get(verdict, 0)) for verdict in evidence.VERDICTS])


def _judge(chunk: list[tuple], cells, items: list[Disagreement], verdicts: Counter) -> None:
    found = evidence_selectors.evidence_of_rows(
        [
            (row_id, (facts or {}).get("hosts", {}), evidence_selectors.row_revisions(facts, introduced, removed))
            for row_id, _, _, _, facts, introduced, removed in chunk
        ],
        cells,
    )
    for row_id, title, slug, register_title, *_ in chunk:
        verdicts[evidence.row_verdict(found[row_id])] += 1
        items.extend(
            Disagreement(
                slug,
                register_title,
                row_id,
                title,
                item.host,
                item.claim,
                tuple(item.conflicts),
                tuple(source for source in item.sources if source.stance == evidence.AGREES),
            )
            for item in found[row_id]
            if item.verdict == evidence.DISAGREES
        )


PAGE_SIZE = 100


def page(number: str | None) -> dict:
    """One page of the list (100 items), with the row counts of every verdict."""
    found = disagreements()
    return {"page": page_or_404(Paginator(found.items, PAGE_SIZE), number), "row_counts": found.row_counts}
