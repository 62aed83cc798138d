from __future__ import annotations

from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
SHIPPED = PROJECT / "registers" / "data"
TEST_DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture
def shipped_dir() -> Path:
    return SHIPPED


@pytest.fixture
def loaded(db):
    """The shipped registers, loaded."""
    from registers.loader import load_registers

    return load_registers([SHIPPED])


@pytest.fixture(autouse=True)
def immediate_tasks(settings):
    """Probe runs execute inside the request in tests; the worker path has its own test."""
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
