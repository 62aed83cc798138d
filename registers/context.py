"""Template context every page gets: the revisions and hosts, from the vocabulary, so no
template types them out."""

from __future__ import annotations

from .vocabulary import HOSTS, REVISIONS


def vocabulary(request) -> dict:
    return {"revisions": REVISIONS, "hosts": [(host, host.label) for host in HOSTS]}
