"""What the host lab found, per register row: the observations of the lab scenarios that meet a
row's anchors, the row's explicit host claims checked against the lab's ranges, and the places the
hand models part from the hosts (the Disagreements page). Reads the probe app's lab tables and the
registers app's rows; the register pages and the `host_lab --claims` command read it here."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from common.beside_runs import kept_beside_runs
from comparison.hostlab import catalogue, claims, matrix, predictions
from comparison.hostlab.adapters import ADAPTERS
from comparison.models.lab import FIXTURE_SERVER, HostObservation, HostReleases
from comparison.selectors.lab import current_observations


def row_observations(anchors: Iterable[str]) -> list[dict[str, Any]]:
    """What the real hosts showed their model in each lab scenario that meets a row's anchors:
    [{scenario, title, observations: [{host, label, version, id, cells}]}]. One query whatever the
    row (a row no scenario meets costs the same), so row pages keep their query count."""
    scenarios = catalogue.meeting(list(anchors))
    wanted = {s.tool for s in scenarios}
    rows = HostObservation.objects.filter(server=FIXTURE_SERVER, fixture=catalogue.fixture_version()).order_by(
        "host", "-measured_at", "-pk"
    )
    pinned = {key: adapter.version for key, adapter in ADAPTERS.items()}
    newest: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows.only("pk", "host", "label", "version", "scenario", "cells", "not_measured"):
        if row.scenario in wanted and pinned.get(row.host) == row.version and not row.not_measured:
            newest.setdefault((row.scenario, row.host), {"host": row.host, "label": row.label, "version": row.version,
                                                         "id": row.pk, "cells": row.cells})  # fmt: skip
    return [
        {"scenario": s.tool, "title": s.title, "observations": [v for (tool, _), v in newest.items() if tool == s.tool]}
        for s in scenarios
        if any(tool == s.tool for tool, _ in newest)
    ]


@kept_beside_runs
def model_partings() -> dict[str, Any]:
    """Every place a hand model parts from its host at the pinned version, and how many scenarios
    were compared, for the Disagreements page."""
    checked = [item for item in current_observations() if item["host"] in predictions.MODELS]
    compared = sum(1 for item in checked if predictions.predict(item["host"], item["scenario"]) is not None)
    partings = [
        {"host": item["host"], "label": item["label"], "version": item["version"], "scenario": item["scenario"],
         "id": item["id"], **parting}
        for item in checked
        for parting in item["partings"]
    ]  # fmt: skip
    return {"compared": compared, "partings": partings, "models": [name for name, _ in predictions.MODELS.values()]}


def _stated_claims(row) -> tuple[dict[str, tuple[str, str]], set[str]]:
    """A row's explicit host claims (state, where stated) and its title anchors."""
    labelled = {label.host for label in row.labels.all() if label.kind == "host" and label.host}
    # A state inferred from "mcpx has, others don't" is not the register saying so of that host.
    stated = {
        note.host: (note.state, note.state_source)
        for note in row.host_notes.all()
        if note.state_source == "where" or (note.state_source == "label" and note.host in labelled)
    }
    titles = {item["anchor"] for item in row.anchors or [] if isinstance(item, dict) and item.get("how") == "title"}
    return stated, titles


def _lab_chips(lab_hosts: list[str], features: list[str]):
    """(lab host -> feature -> {version: chip}, {(host, version, feature): observation id},
    {host: releases}) over every measured version, two queries."""
    tools = {matrix.FEATURE_SCENARIO[feature]: feature for feature in features}
    rows = HostObservation.objects.filter(
        server=FIXTURE_SERVER,
        fixture=catalogue.fixture_version(),
        host__in=lab_hosts or [""],
        scenario__in=list(tools) or [""],  # never empty: an empty IN skips the query, and pages count them
    ).order_by("-measured_at", "-pk")
    chips: dict[str, dict[str, dict[str, str]]] = {}
    ids: dict[tuple[str, str, str], int] = {}
    for found in rows.only("pk", "host", "version", "scenario", "cells", "not_measured"):
        feature = tools[found.scenario]
        cell = next((c for c in found.cells or [] if c.get("feature") == feature), None)
        if found.not_measured or cell is None or found.version in chips.get(found.host, {}).get(feature, {}):
            continue
        chips.setdefault(found.host, {}).setdefault(feature, {})[found.version] = cell["chip"]
        ids[(found.host, found.version, feature)] = found.pk
    published = {item.host: list(item.versions) for item in HostReleases.objects.filter(host__in=lab_hosts or [""])}
    return chips, ids, published


def claim_checks(row) -> list[dict[str, Any]]:
    """A register row's explicit host claims checked against the lab's ranges at the version the
    register pins (comparison/hostlab/claims.py). Two queries whatever the row."""
    stated, titles = _stated_claims(row)
    pinned = [pin.lab_host for host, pin in claims.pins().items() if pin.lab_host and host in stated]
    chips, ids, published = _lab_chips(pinned, claims.features_for(titles))
    return [check.as_dict() for check in claims.check_row(titles, stated, chips, published, ids)]


def every_claim_check(rows) -> list[dict[str, Any]]:
    """Every loaded row's claim checks (rows with host notes and labels prefetched): the lab read
    once for all of them."""
    lab_hosts = sorted({pin.lab_host for pin in claims.pins().values() if pin.lab_host})
    chips, ids, published = _lab_chips(lab_hosts, list(claims.PRESENCE_FEATURES))
    found = []
    for row in rows:
        stated, titles = _stated_claims(row)
        for check in claims.check_row(titles, stated, chips, published, ids):
            found.append({"register": row.register.slug, "row": row.row_id, **check.as_dict()})
    return found


def claim_checks_of_every_row() -> list[dict[str, Any]]:
    """Every loaded row's claim checks, in row order."""
    from registers.models import Row

    rows = Row.objects.select_related("register").prefetch_related("labels", "host_notes").order_by("pk")
    return every_claim_check(rows)
