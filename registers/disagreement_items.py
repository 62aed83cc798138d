"""One Disagreements item: a row and host where some evidence contradicts the register's claim.
Built where every row's evidence is worked out once per data version (registers.filters)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from django.urls import reverse

from evidence.rules import evidence


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


def disagreements_of(
    slug: str, register_title: str, row_id: str, title: str, found: list[evidence.HostEvidence]
) -> Iterator[Disagreement]:
    """The row's hosts (and the spec) whose evidence disagrees with its claim."""
    for item in found:
        if item.verdict == evidence.DISAGREES:
            support = tuple(source for source in item.sources if source.stance == evidence.AGREES)
            yield Disagreement(
                slug, register_title, row_id, title, item.host, item.claim, tuple(item.conflicts), support
            )
