"""The dashboard's own credentials, masked in whatever a target sends back as a second guard.

A probed program never receives them (probes.child_env); this keeps them off every page even if a
target learns one some other way (an admin who pasted one into a command, a shared file).
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from django.conf import settings

#: Environment variables that hold a credential of the dashboard itself, or a URL that may.
SECRET_VARIABLES = ("MCP_COMPARE_SECRET_KEY", "MCP_COMPARE_ADMIN_PASSWORD")
URL_VARIABLES = ("DATABASE_URL", "MCP_COMPARE_CACHE_URL")


def own_secrets() -> list[str]:
    values = [settings.SECRET_KEY, *(os.environ.get(name, "") for name in SECRET_VARIABLES)]
    values += [database.get("PASSWORD") or "" for database in settings.DATABASES.values()]
    for name in URL_VARIABLES:
        values.append(_password(os.environ.get(name, "")))
    return [value for value in values if value]


def _password(url: str) -> str:
    """The password of a URL's userinfo (its user name is no secret, and masking a word such as
    "postgres" everywhere would garble what targets say)."""
    try:
        return urlsplit(url).password or ""
    except ValueError:
        return ""
