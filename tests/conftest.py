from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Property tests run the same examples on every CI run (derandomized: a failure is never a fluke of
# the seed); HYPOTHESIS_PROFILE=explore searches further with fresh examples.
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "explore",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    # mutmut runs test sessions side by side; each gets temporary folders of its own, or one
    # session's clean-up removes another's.
    if os.environ.get("MUTANT_UNDER_TEST") is not None and not config.option.basetemp:
        config.option.basetemp = f"/tmp/mcp-compare-mutmut-{os.getpid()}"


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
def page_cache(settings):
    """Each test gets an empty in-memory page cache (the cache is on, as in production)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    from django.core.cache import cache

    cache.clear()
    yield cache
    cache.clear()


@pytest.fixture(autouse=True)
def immediate_tasks(settings):
    """Probe runs execute inside the request in tests; the worker path has its own test."""
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture
def lane_database(tmp_path):
    """A database of the lane's kind for commands run as separate processes; dropped after."""
    from tests import lane_db

    url = lane_db.create(tmp_path)
    yield url
    lane_db.drop(url)
