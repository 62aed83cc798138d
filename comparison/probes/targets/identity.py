"""What a target says it is: the serverInfo name and version it answers an initialize with, read in
one short session, or from a cell's recorded opening. Never raises: a target that cannot say is ""
(its real-host cells are then keyed by its launch alone). Pure, no Django."""

from __future__ import annotations

from typing import Any

from comparison.probes.run.revision_session import open_transport
from comparison.probes.run.runner import TargetSpec
from comparison.probes.transport.exchange import Limits
from comparison.probes.transport.wire import WireClient
from language.vocabulary import Revision

#: A revision every target of the corpus answers (the identity does not depend on it).
OPENING_REVISION = Revision.V2025_06_18
QUICK = Limits(connect_timeout=5.0, total_timeout=10.0, max_bytes=256 * 1024, max_events=20)


def server_identity(spec: TargetSpec, limits: Limits = QUICK) -> str:
    try:
        client = WireClient(open_transport(spec, limits))
    except Exception:  # a target that cannot be started says nothing about itself
        return ""
    try:
        info = client.open(OPENING_REVISION).server_info
    except Exception:  # whatever a target does ends as "it did not say"
        return ""
    finally:
        _close(client)
    return identity_of(info)


def identity_of(info: Any) -> str:
    """ "name version" of a serverInfo object; "" when it names neither."""
    if not isinstance(info, dict):
        return ""
    name, version = info.get("name"), info.get("version")
    parts = [str(part)[:80] for part in (name, version) if isinstance(part, str | int | float) and str(part)]
    return " ".join(parts)


def identity_from_exchanges(exchanges: list[Any]) -> str:
    """What the target said it is in the first opening answer (initialize, or server/discover at a
    stateless revision) among a cell's recorded exchanges."""
    for exchange in exchanges:
        if not isinstance(exchange, dict) or exchange.get("method") not in ("initialize", "server/discover"):
            continue
        response = exchange.get("response")
        result = response.get("result") if isinstance(response, dict) else None
        found = identity_of(result.get("serverInfo")) if isinstance(result, dict) else ""
        if found:
            return found
    return ""


def _close(client: WireClient) -> None:
    try:
        client.close()
    except Exception:  # closing a broken transport is not worth a failure
        return
