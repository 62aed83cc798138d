"""The argument list a target's command or launch command is started with. No Django."""

from __future__ import annotations

from collections.abc import Iterable

from comparison.probes.fixture import forkserver, sessions
from comparison.probes.targets.secrets import expand_placeholders


def as_started(parts: Iterable[str], env: dict[str, str]) -> list[str]:
    """`parts` with each `${NAME}` filled in from the target's environment, and its start of the
    fixture over stdio a session forked from this process's fork server (unless the environment
    sets what the fixture reads, which a fork would not see)."""
    expanded = expand_placeholders(parts, env)
    if sessions.reads_fixture_settings(env):
        return expanded
    return sessions.with_sessions(expanded, forkserver.fixture_command)
