"""A target's stored credentials go only where they were entered for: when a target's URL (or its
upstream's) moves to another origin, its headers must be entered again, or sent empty to drop
them. Otherwise whoever may edit a target could point it at their own server and receive the
credential with the next run."""

from __future__ import annotations

from comparison.probes.targets.secrets import origin

#: (the URL field, the headers that go with it)
PAIRS = (("url", "headers"), ("upstream", "upstream_headers"))


class CredentialsLeftBehind(ValueError):
    """A URL moved to another origin with its stored headers not entered again."""


def moved(before: dict[str, object], after: dict[str, object], entered: dict[str, object]) -> list[str]:
    """The URL fields whose origin changed while their stored headers were not entered again."""
    found = []
    for url, headers in PAIRS:
        kept = before.get(headers) or {}
        if not kept or origin(str(before.get(url) or "")) == origin(str(after.get(url) or "")):
            continue
        fresh = entered.get(headers)
        if not isinstance(fresh, dict) or (fresh and not all(fresh.values())):
            found.append(url)
    return found


#: The fields of a target this rule reads.
FIELDS = ("url", "upstream", "headers", "upstream_headers")


def fields_of(target) -> dict[str, object]:
    """A target's URLs and headers, as this rule reads them."""
    return {name: getattr(target, name) for name in FIELDS}


def keep_credentials_on_origin(before: dict[str, object], after: dict[str, object], entered: dict[str, object]) -> None:
    """CredentialsLeftBehind when `after` (a target's fields as they would be saved) moves a URL
    away from the origin its stored headers in `before` were entered for, and `entered` (what the
    form or request gave) does not give them again."""
    problems = moved(before, after, entered)
    if problems:
        names = " and ".join(problems)
        raise CredentialsLeftBehind(
            f"{names}: moved to another origin; its stored headers are not sent there. Enter them again "
            "(or send empty headers to drop them)."
        )
