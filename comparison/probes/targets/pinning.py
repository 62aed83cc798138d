"""A target whose upstream is told to speak one revision, for a cell of the cross-era grid. No Django.

A target says where its upstream is pinned in one of three ways, tried in this order:
- it is the built-in fixture: its session is pinned;
- its command, launch command or URL holds `${MCP_COMPARE_UPSTREAM_REVISIONS}`: the revision
  goes there (never into the target's environment, whose values are masked as credentials), e.g.
  a proxy whose upstream URL is `http://127.0.0.1:PORT/pinned/${MCP_COMPARE_UPSTREAM_REVISIONS}/mcp`,
  which one fixture process serves for every pin (probes.fixture_pinned);
- its command or launch command starts the fixture (`comparison.probes.fixture.fixture_server`): the
  pinned fixture (`comparison.probes.fixture.fixture_pinned --revisions R`) is started instead.
Anything else cannot be pinned, and a grid run of it is refused, saying how to make it pinnable.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from comparison.probes.fixture.forkserver import LAUNCHER, fixture_command
from comparison.probes.fixture.sessions import FIXTURE_MODULE, PIN_VARIABLE, PINNED_MODULE

if TYPE_CHECKING:
    from comparison.probes.run.runner import TargetSpec

PLACEHOLDER = "${" + PIN_VARIABLE + "}"


class Unpinnable(ValueError):
    """A target whose upstream the grid cannot tell which revision to speak."""


def _is_builtin(spec: TargetSpec) -> bool:
    return any(part == str(LAUNCHER) for part in spec.command)


def _with_fixture_pin(parts: list[str], revision: str) -> tuple[list[str], bool]:
    """`parts` with every start of the fixture made a start of the pinned fixture (a token of its
    own, or inside a token that is a whole command line, as supergateway takes one)."""
    pinned, found = [], False
    for part in parts:
        if part == FIXTURE_MODULE:
            pinned += [PINNED_MODULE, "--revisions", revision]
            found = True
        elif FIXTURE_MODULE + " " in part + " " and " " in part:
            pinned.append(part.replace(FIXTURE_MODULE, f"{PINNED_MODULE} --revisions {revision}"))
            found = True
        else:
            pinned.append(part)
    return pinned, found


def pinnable(spec: TargetSpec) -> str:
    """ "" when the grid can pin the target's upstream, else why not (for the form and the command)."""
    if _is_builtin(spec) or (spec.upstream == "fixture" and not (spec.command or spec.launch or spec.url)):
        return ""
    texts = [*spec.command, *spec.launch, spec.url]
    if any(PLACEHOLDER in text for text in texts) or any(FIXTURE_MODULE in text for text in texts):
        return ""
    return (
        f"{spec.name}: the grid cannot tell its upstream which revision to speak: put {PLACEHOLDER} where its "
        f"command, launch command or URL names the upstream's revision, or start the fixture "
        f"({FIXTURE_MODULE}) as its upstream"
    )


def pin_spec(spec: TargetSpec, revision: str) -> TargetSpec:
    """The target with its upstream speaking only `revision`; Unpinnable when it cannot be."""
    why = pinnable(spec)
    if why:
        raise Unpinnable(why)
    name = f"{spec.name} (upstream {revision})"
    if _is_builtin(spec):
        return dataclasses.replace(spec, name=name, command=fixture_command(revision))
    command, _ = _with_fixture_pin([part.replace(PLACEHOLDER, revision) for part in spec.command], revision)
    launch, _ = _with_fixture_pin([part.replace(PLACEHOLDER, revision) for part in spec.launch], revision)
    url = spec.url.replace(PLACEHOLDER, revision)
    return dataclasses.replace(spec, name=name, command=command, launch=launch, url=url)
