"""Prompts: the list (titles, icons) and a prompt of every role and content type. One request each,
assessed as a result by the runner."""

from __future__ import annotations

from .base import Family, Scenario

NAME = "prompts"

FAMILY = Family(
    NAME,
    "Prompts",
    (
        Scenario(
            "prompts-list",
            "prompts/list (title, icons)",
            "prompts/list",
            {},
            ("PRM-01", "PRM-03", "PRM-04"),
            family=NAME,
        ),
        Scenario(
            "prompt-multi",
            "prompts/get: roles and every content type",
            "prompts/get",
            {"name": "multi"},
            ("PRM-05", "PRM-06", "PRM-07", "PRM-08"),
            family=NAME,
        ),
    ),
)
