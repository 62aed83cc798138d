from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# The browser tests' fixtures (Chromium, a page on the live server).
pytest_plugins = ["tests.support.browsing"]

# Property tests run the same examples on every CI run (derandomized: a failure is never a fluke of
# the seed); HYPOTHESIS_PROFILE=fast (the everyday lane) runs fewer of them, and
# HYPOTHESIS_PROFILE=explore searches further with fresh examples (tests/support/strategies.examples).
QUIET = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile("ci", derandomize=True, deadline=None, database=None, suppress_health_check=QUIET)
settings.register_profile("fast", derandomize=True, deadline=None, database=None, suppress_health_check=QUIET)
settings.register_profile("explore", max_examples=500, deadline=None, suppress_health_check=QUIET)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    # mutmut runs test sessions side by side; each gets temporary folders of its own, or one
    # session's clean-up removes another's.
    if os.environ.get("MUTANT_UNDER_TEST") is not None and not config.option.basetemp:
        config.option.basetemp = f"/tmp/mcp-compare-mutmut-{os.getpid()}"


#: Tests that start whole processes and wait on them (workers, a server during a load) go first,
#: so that a run on several processes does not end with one of them waiting on these alone. They
#: use databases of their own, never the test database, so running them first changes nothing else.
PROCESS_TESTS_FIRST = (
    "tests/e2e/test_worker.py",
    "tests/e2e/test_busy_database.py",
    "tests/e2e/test_start_script.py",
)


#: The fixtures through which a test reaches the database: pytest-django's (it refuses the test
#: database to any other test) and the lane's own databases that subprocesses use (tests.support.lane_db).
DATABASE_FIXTURES = {
    "db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback", "live_server",
    "lane_database", "migrated_template",
}  # fmt: skip


@pytest.hookimpl(tryfirst=True)
def pytest_itemcollected(item):
    """Everything in tests/e2e is an e2e test (`-m "not e2e"`, the everyday lane, leaves them).
    Any other test that cannot reach the database is `no_database`: it runs the same on SQLite and
    PostgreSQL, so CI runs it once, in the SQLite lane."""
    if item.nodeid.startswith("tests/e2e/"):
        item.add_marker(pytest.mark.e2e)
    elif (
        not DATABASE_FIXTURES & set(item.fixturenames)
        and item.get_closest_marker("django_db") is None
        and "lane_db" not in getattr(item.module, "__dict__", {})
    ):
        item.add_marker(pytest.mark.no_database)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: not item.nodeid.startswith(PROCESS_TESTS_FIRST))


PROJECT = Path(__file__).resolve().parent.parent
SHIPPED = PROJECT / "registers" / "data"
TEST_DATA = Path(__file__).resolve().parent / "data"


#: PostgreSQL connections the test process may hold at once. It is no server process: the test
#: body holds one, Playwright's greenlets give it a second context (so a second connection), and
#: each live-server request thread and run heartbeat takes one more. Twice what a test has been
#: seen to use: one CI run found the pool of 8 used up on a browser worker (the report's "database
#: pool" section names the holders if it happens again).
TEST_POOL_MAX = 16


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    from django.db import connections

    pool = connections["default"].settings_dict.get("OPTIONS", {}).get("pool")
    if isinstance(pool, dict):
        pool["max_size"] = max(pool["max_size"], TEST_POOL_MAX)


@pytest.fixture(autouse=True)
def pool_big_enough():
    """Every test starts with the PostgreSQL pool at TEST_POOL_MAX. One CI run's browser tests found
    the pool at the settings' 2 (its report's "database pool" section): the session fixture above
    had not reached the pool they used, and the live server's request thread waited 2 s in vain."""
    from django.db import connections

    pool_options = connections["default"].settings_dict.get("OPTIONS", {}).get("pool")
    if not isinstance(pool_options, dict):
        return
    pool_options["max_size"] = max(pool_options["max_size"], TEST_POOL_MAX)
    pool = getattr(type(connections["default"]), "_connection_pools", {}).get("default")
    if pool is not None and pool.max_size < TEST_POOL_MAX:
        pool.resize(pool.min_size, TEST_POOL_MAX)


@pytest.fixture
def shipped_dir() -> Path:
    return SHIPPED


@pytest.fixture
def loaded(db):
    """The shipped registers, loaded."""
    from registers.loader import load_registers

    return load_registers([SHIPPED])


@pytest.fixture(autouse=True)
def quick_password_hashes(settings):
    """Users and log-ins cost no key stretching in the test process (tests/support/hashers.py)."""
    settings.PASSWORD_HASHERS = ["tests.support.hashers.OneIterationPBKDF2PasswordHasher"]


@pytest.fixture(autouse=True)
def plain_static_names(settings):
    """Pages name static files by their plain names, as the live server serves them (from the
    apps' folders), even in a clone where scripts/start.sh collected hashed copies: a clone that
    was started, then tested, saw every browser test's page unstyled. A test of the hashed names
    sets its own storage."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def page_cache(settings):
    """Each test gets an empty in-memory page cache (the cache is on, as in production)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    from django.core.cache import cache

    cache.clear()
    yield cache
    cache.clear()


#: The host lab's shipped measurements, as a fresh start loads them.
LAB_SNAPSHOT = PROJECT / "comparison" / "data" / "host_lab_observations.json"


@pytest.fixture(autouse=True)
def expensive_slots(settings, tmp_path_factory):
    """Each test its own slots for expensive requests (common.slots): the lane's parallel tests
    never take each other's."""
    settings.EXPENSIVE_SLOTS_DIR = str(tmp_path_factory.mktemp("slots"))


@pytest.fixture(autouse=True)
def immediate_tasks(settings):
    """Probe runs execute inside the request in tests; the worker path has its own test."""
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory):
    """One migrated database of the lane's kind per test process, copied by `lane_database`."""
    from tests.support import lane_db
    from tests.support.processes import manage

    url = lane_db.create(tmp_path_factory.mktemp("template"))
    manage("migrate", "-v0", env={"DATABASE_URL": url}, timeout=180)
    yield url
    lane_db.drop(url)


@pytest.fixture
def lane_database(migrated_template, tmp_path):
    """A migrated database of the lane's kind for commands run as separate processes; dropped after."""
    from tests.support import lane_db

    url = lane_db.copy(migrated_template, tmp_path)
    yield url
    lane_db.drop(url)


def pytest_collection_finish(session):
    """A session that runs the host lab's whole catalogue starts measuring it at once, in one test
    process (tests.support.lab_runs.start_prefetch)."""
    if os.environ.get("PYTEST_XDIST_WORKER", "gw0") != "gw0":
        return
    from tests.support import lab_runs

    if any(item.nodeid == lab_runs.WHOLE_CATALOGUE_TEST for item in session.items):
        lab_runs.start_prefetch()


def pytest_sessionfinish(session):
    """Cline's hub daemon outlives the lab's runs (the runs that overlap share it): ended once,
    after every test process is done, by the controller (or the only process)."""
    from tests.support import lab_runs

    lab_runs.end_prefetch()
    if hasattr(session.config, "workerinput"):
        return
    from tests.support.processes import end_hub_daemons

    end_hub_daemons()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test on PostgreSQL reports the process's connection pool and live threads: a pool
    used up by connections that threads never gave back shows which threads hold them."""
    outcome = yield
    report = outcome.get_result()
    if report.passed or call.when == "collect":
        return
    from django.db import connections

    backend = type(connections["default"])
    pool = getattr(backend, "_connection_pools", {}).get("default")
    if pool is None:
        return
    import threading

    threads = sorted(thread.name for thread in threading.enumerate())
    report.sections.append(("database pool", f"{pool.get_stats()}\nthreads: {threads}"))
