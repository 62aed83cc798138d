"""Which versions of a host a sweep measures: a version spec read against the versions the
registry publishes, in release order. Pure (the published list is given)."""

from __future__ import annotations

import re

NUMBERS = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:-(.+))?$")


class SpecError(ValueError):
    pass


def key(version: str) -> tuple:
    """Semantic-version order; a pre-release sorts before its release, unknown shapes last."""
    match = NUMBERS.match(version)
    if not match:
        return (10**9, version)
    major, minor, patch, pre = match.groups()
    return (int(major), int(minor), int(patch), 0 if pre else 1, pre or "")


def releases(published: list[str]) -> list[str]:
    """The published versions without pre-releases, oldest first."""
    return sorted((v for v in published if NUMBERS.match(v) and "-" not in v), key=key)


def choose(spec: str, published: list[str]) -> list[str]:
    """`1.14.0..1.18.33` (every release between, both included), `a,b,c` (those), `latest:N`
    (the newest N releases); every named version must be published."""
    spec = spec.strip()
    known = releases(published)
    if spec.startswith("latest:"):
        try:
            count = int(spec.removeprefix("latest:"))
        except ValueError:
            raise SpecError(f"{spec!r}: latest:N needs a number") from None
        if count < 1:
            raise SpecError(f"{spec!r}: latest:N needs N ≥ 1")
        return known[-count:]
    if ".." in spec:
        low, _, high = spec.partition("..")
        for bound in (low, high):
            if bound not in published:
                raise SpecError(f"{bound!r} is not a published version")
        chosen = [v for v in known if key(low) <= key(v) <= key(high)]
        if not chosen:
            raise SpecError(f"{spec!r}: no release between {low} and {high}")
        return chosen
    named = [part.strip() for part in spec.split(",") if part.strip()]
    unknown = [v for v in named if v not in published]
    if unknown or not named:
        raise SpecError(f"not published: {', '.join(unknown) or spec!r}")
    return sorted(set(named), key=key)


def between(low: str, high: str, published: list[str]) -> list[str]:
    """The releases strictly between two versions, oldest first."""
    return [v for v in releases(published) if key(low) < key(v) < key(high)]
