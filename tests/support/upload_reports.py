"""A real `manage.py probe --json` report of the built-in target, as a proxy's CI would upload it
(made once per test process: it is plain data)."""

from __future__ import annotations

import copy
import json
from functools import cache
from io import StringIO

from django.core.management import call_command


@cache
def _made() -> str:
    out = StringIO()
    try:
        call_command("probe", "--builtin", "--revisions", "2025-06-18", "--scenarios", "text", "--json", stdout=out)
    except SystemExit:  # the command exits non-zero when a cell is not as expected
        pass
    return out.getvalue()


def probe_report() -> dict:
    """A fresh copy each call: tests change it."""
    return copy.deepcopy(json.loads(_made()))
