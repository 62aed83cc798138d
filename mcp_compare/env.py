"""The one place that reads the process environment. Settings import from here."""

from __future__ import annotations

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent


def flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def text(name: str, default: str) -> str:
    return os.environ.get(name, default)


def listing(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = flag("MCP_COMPARE_DEBUG", False)
SECRET_KEY = text("MCP_COMPARE_SECRET_KEY", "")
ALLOWED_HOSTS = listing("MCP_COMPARE_ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = listing("MCP_COMPARE_CSRF_TRUSTED_ORIGINS", "")
#: The dashboard's address as its users reach it (https://compare.example.org): an export's links
#: point there. Empty: the address the export was downloaded from.
BASE_URL = text("MCP_COMPARE_BASE_URL", "")
#: Served to users over HTTPS by a reverse proxy that terminates TLS and sets X-Forwarded-Proto:
#: cookies are then sent over HTTPS only, requests the proxy marks https are secure, and plain
#: HTTP is redirected (see docs/team.md).
BEHIND_TLS = flag("MCP_COMPARE_BEHIND_TLS", False)
#: Strict-Transport-Security max-age in seconds when BEHIND_TLS (0: no header).
HSTS_SECONDS = int(text("MCP_COMPARE_HSTS_SECONDS", "0") or 0)
#: SQLite in the project folder unless DATABASE_URL names another database (e.g. PostgreSQL).
DATABASE_URL = text("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
REGISTER_DIRS = listing("MCP_COMPARE_REGISTER_DIRS", str(BASE_DIR / "registers" / "data"))
STATIC_ROOT = text("MCP_COMPARE_STATIC_ROOT", str(BASE_DIR / "staticfiles"))
LOG_LEVEL = text("MCP_COMPARE_LOG_LEVEL", "INFO")
#: Where `sync_sources` keeps bare clones of cited repositories.
SOURCE_CACHE_DIR = text("MCP_COMPARE_SOURCE_CACHE", str(BASE_DIR / ".source-cache"))
#: The subject proxy's repository (local path or clone URL) for `internal/`, `docs/`, `plugin/` citations.
SUBJECT_REPOSITORY = text("MCP_COMPARE_SUBJECT_REPOSITORY", "")
#: The Django Tasks backend for probe runs (tests use django.tasks.backends.immediate.ImmediateBackend).
TASK_BACKEND = text("MCP_COMPARE_TASK_BACKEND", "django_tasks_db.DatabaseBackend")

#: Which kind of process this is: `web` (the default: servers and the test client) or `command`
#: (manage.py, apart from runserver). manage.py sets it; it picks the statement timeout below.
PROCESS_ROLE = text("MCP_COMPARE_PROCESS_ROLE", "web")


def seconds(name: str, default: float) -> float:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        parsed = float(value)
    except ValueError:
        raise ValueError(f"{name}={value!r}: expected a number of seconds") from None
    if parsed < 0:
        raise ValueError(f"{name}={value!r}: expected a number of seconds, 0 or more")
    return parsed


#: Longest a single SQL statement may run on PostgreSQL (0: no limit). A web request gets a few
#: seconds, so a bad plan costs one error page instead of a worker; commands and the probe
#: worker write in bulk and get longer.
WEB_STATEMENT_TIMEOUT = seconds("MCP_COMPARE_WEB_STATEMENT_TIMEOUT", 5)
COMMAND_STATEMENT_TIMEOUT = seconds("MCP_COMPARE_COMMAND_STATEMENT_TIMEOUT", 600)

#: Longest a web request waits for a database connection (the pool, or a new connection) before
#: it answers 503 "the database is unavailable"; commands and the worker wait longer.
WEB_DB_WAIT = seconds("MCP_COMPARE_WEB_DB_WAIT", 2)
COMMAND_DB_WAIT = seconds("MCP_COMPARE_COMMAND_DB_WAIT", 10)

#: A running probe run's lease: its worker renews a heartbeat every fifth of it; a run not renewed
#: for this long is interrupted (its worker was killed or lost) and frees its target.
RUN_LEASE_SECONDS = seconds("MCP_COMPARE_RUN_LEASE", 30)
#: The longest a probe run may take, whatever its target does: cells not probed by then fail with
#: "not probed: the run's deadline passed" and the worker moves on (0: no deadline).
RUN_DEADLINE_SECONDS = seconds("MCP_COMPARE_RUN_DEADLINE", 300)
#: The shortest interval a schedule may have, and how many ended scheduled runs of a target the
#: worker keeps (older ones and their results are deleted; 0 keeps every one).
SCHEDULE_MIN_SECONDS = seconds("MCP_COMPARE_SCHEDULE_MIN_SECONDS", 300)
SCHEDULE_KEEP_RUNS = int(text("MCP_COMPARE_SCHEDULE_KEEP_RUNS", "100"))
#: How many revisions of a stdio target a run probes at once (each is a process of the target).
STDIO_PARALLEL = int(text("MCP_COMPARE_STDIO_PARALLEL", "5"))
if STDIO_PARALLEL < 1:
    raise ValueError(f"MCP_COMPARE_STDIO_PARALLEL={STDIO_PARALLEL}: expected 1 or more")
#: How many times a timing-sensitive cell (notifications, progress, cancellation, streams) is played
#: in a run when the run does not say (probes.tries explains the default of 3).
PROBE_TRIES = int(text("MCP_COMPARE_PROBE_TRIES", "3"))
if not 1 <= PROBE_TRIES <= 10:
    raise ValueError(f"MCP_COMPARE_PROBE_TRIES={PROBE_TRIES}: expected 1 to 10")
#: SQLite: seconds a statement waits for another writer before "database is locked".
SQLITE_BUSY_TIMEOUT = seconds("MCP_COMPARE_SQLITE_BUSY_TIMEOUT", 20)


def byte_count(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise ValueError(f"{name}={value!r}: expected a number of bytes")
    return int(value)


#: Longest an export may take to write before it is refused (503, saying so) rather than cut
#: short: well inside a web worker's timeout (gunicorn's 60 s), so it never dies mid-file.
EXPORT_SECONDS = seconds("MCP_COMPARE_EXPORT_SECONDS", 40)


#: Largest request body (the playground's pasted JSON) from a visitor who is not logged in, and
#: from one who is; a bigger one is refused with 413 before it is read.
MAX_BODY_ANONYMOUS = byte_count("MCP_COMPARE_MAX_BODY_ANONYMOUS", 2 * 1024 * 1024)
MAX_BODY_AUTHENTICATED = byte_count("MCP_COMPARE_MAX_BODY_AUTHENTICATED", 32 * 1024 * 1024)

#: Expensive requests (compares, exports, audits) that may run at once on one machine, across its
#: server processes; one more is answered 503 with Retry-After at once, so cheap pages keep the
#: workers. Keep it below the number of web workers.
EXPENSIVE_SLOTS = max(1, int(text("MCP_COMPARE_EXPENSIVE_SLOTS", "2")))
EXPENSIVE_RETRY_SECONDS = max(1, int(text("MCP_COMPARE_EXPENSIVE_RETRY_SECONDS", "5")))

#: The page cache: a Redis URL (redis://host:6379/0) for several machines; else a folder that the
#: server processes of one machine share.
CACHE_URL = text("MCP_COMPARE_CACHE_URL", "")
CACHE_DIR = text("MCP_COMPARE_CACHE_DIR", str(BASE_DIR / ".cache" / "pages"))
#: The lock files of the expensive requests' slots (common.slots): one folder per machine.
EXPENSIVE_SLOTS_DIR = text("MCP_COMPARE_EXPENSIVE_SLOTS_DIR", str(BASE_DIR / ".cache" / "slots"))

#: PostgreSQL connections per server process come from psycopg's pool, at most this many
#: (0 turns the pool off and keeps one persistent connection per thread instead).
DB_POOL_MAX = int(text("MCP_COMPARE_DB_POOL_MAX", "2"))
#: Serve static files from collectstatic's manifest (hashed names, compressed); scripts/start.sh
#: sets it for collectstatic, and a manifest once written turns it on.
STATIC_MANIFEST = flag("MCP_COMPARE_STATIC_MANIFEST", False)

#: Login throttling: this many failed log-ins for one user name, or from one address, within the
#: lockout period lock it for that period.
LOGIN_FAILURES_PER_USER = int(text("MCP_COMPARE_LOGIN_FAILURES_PER_USER", "5"))
LOGIN_FAILURES_PER_ADDRESS = int(text("MCP_COMPARE_LOGIN_FAILURES_PER_ADDRESS", "20"))
LOGIN_LOCKOUT_SECONDS = seconds("MCP_COMPARE_LOGIN_LOCKOUT", 900)
