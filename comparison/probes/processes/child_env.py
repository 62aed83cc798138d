"""The environment a probed program starts with: only what its target was given. No Django.

A target's command is third-party code under test. Handing it the worker's environment gave it
the dashboard's secret key, the admin password and the database URL with its password, and a
target that echoed its environment put them on a public page. So a child gets a short list of
names a program needs to run at all (where programs are, a home, a locale, a temp folder), read
from this process, and then the target's own configured environment, which wins.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping

#: Names passed on from this process: none of them carries a credential.
PASSED = ("PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TERM")
#: Locale categories (LC_ALL, LC_CTYPE, …) are passed on too.
PASSED_PREFIX = "LC_"
#: The built-in fixture's journal folder: a path the probe and its fixture processes share.
FIXTURE_JOURNAL = "MCP_COMPARE_FIXTURE_JOURNAL"
FALLBACK_PATH = "/usr/local/bin:/usr/bin:/bin"


def child_environment(
    configured: Mapping[str, str] | None = None,
    *,
    extra: Mapping[str, str] | None = None,
    parent: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """PATH, HOME, user, locale and TMPDIR from `parent` (this process's environment), then the
    target's `configured` environment, then `extra` (what the launch itself needs, such as the
    process-tree mark). Nothing else of `parent` reaches the child."""
    parent = os.environ if parent is None else parent
    env = {
        name: value
        for name, value in parent.items()
        if (name in PASSED or name.startswith(PASSED_PREFIX) or name == FIXTURE_JOURNAL) and "\x00" not in value
    }
    env.setdefault("PATH", FALLBACK_PATH)
    # The same temp folder as this process, so files a fixture shares with the probe meet.
    env["TMPDIR"] = tempfile.gettempdir()
    env.update(configured or {})
    env.update(extra or {})
    return env
