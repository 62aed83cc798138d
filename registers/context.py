"""Template context every page gets: the revisions and hosts, from the vocabulary, so no
template types them out."""

from __future__ import annotations

from language.vocabulary import HOSTS, REVISIONS


def vocabulary(request) -> dict:
    return {"revisions": REVISIONS, "hosts": [(host, host.label) for host in HOSTS]}


def known_rows(request) -> dict:
    """The IDs of every loaded row, read once by the first template that asks (one query)."""
    from django.utils.functional import SimpleLazyObject

    from registers.models import Row

    return {"known_rows": SimpleLazyObject(Row.objects.loaded_ids)}
