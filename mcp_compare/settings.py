"""Django settings for mcp-compare. Every value that varies per machine comes from mcp_compare.env."""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from django.core.management.utils import get_random_secret_key
from django.utils.csp import CSP

from mcp_compare import env

BASE_DIR = env.BASE_DIR
DEBUG = env.DEBUG
# A missing key is only acceptable for local use: a random one per process keeps sessions
# unforgeable, at the price of logging everyone out on restart.
SECRET_KEY = env.SECRET_KEY or get_random_secret_key()
ALLOWED_HOSTS = env.ALLOWED_HOSTS
CSRF_TRUSTED_ORIGINS = env.CSRF_TRUSTED_ORIGINS
BASE_URL = env.BASE_URL
if env.BEHIND_TLS:
    # The proxy in front speaks TLS to users and plain HTTP to gunicorn on loopback; it alone sets
    # X-Forwarded-Proto (it must overwrite what a client sends), so Django believes it.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = True
    # /healthz is checked by load balancers over plain HTTP on the private side.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = env.HSTS_SECONDS

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    # Only for its static files: the API's interactive docs come from the dashboard, not a CDN.
    "ninja",
    "django_tasks_db",
    "registers",
    "comparison",
    "evidence",
    # The project package as an app: its management commands (backup, restore) are the whole
    # database's, not one app's.
    "mcp_compare",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After whitenoise, which answers HEAD for static files itself.
    "mcp_compare.middleware.HeadAsGetMiddleware",
    # Pages, exports and JSON go out compressed to a client that asks; Django pads the body
    # against BREACH, and whitenoise serves static files precompressed before this runs.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Before CSRF's check reads a form body: an oversized body is refused unread.
    "mcp_compare.middleware.BodySizeLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "mcp_compare.middleware.DatabaseTimeoutMiddleware",
]

ROOT_URLCONF = "mcp_compare.urls"
WSGI_APPLICATION = "mcp_compare.wsgi.application"
ASGI_APPLICATION = "mcp_compare.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "registers.context.vocabulary",
                "registers.context.known_rows",
            ],
            # `{% term %}` links a glossary word on any page without a `{% load %}` in each template.
            "builtins": ["registers.templatetags.glossary"],
        },
    },
]

DATABASES = {"default": dj_database_url.parse(env.DATABASE_URL, conn_max_age=60)}
#: Seconds this process waits for a database connection: a web request answers 503 soon after.
DB_WAIT = env.WEB_DB_WAIT if env.PROCESS_ROLE == "web" else env.COMMAND_DB_WAIT
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = max(1, round(DB_WAIT))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env.DB_POOL_MAX > 0:
    # A pool per process keeps the connection count bounded (web workers × pool size) and reuses
    # connections across requests; Django requires non-persistent connections with it.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        # A worker also has its lease heartbeat and run-recovery threads, each with a connection
        # of its own for a moment every few seconds.
        "max_size": env.DB_POOL_MAX + (2 if env.PROCESS_ROLE == "command" else 0),
        "timeout": DB_WAIT,
    }
#: Seconds a single SQL statement may run in this process (PostgreSQL; 0 means no limit).
STATEMENT_TIMEOUT = env.WEB_STATEMENT_TIMEOUT if env.PROCESS_ROLE == "web" else env.COMMAND_STATEMENT_TIMEOUT
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and STATEMENT_TIMEOUT:
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = f"-c statement_timeout={int(STATEMENT_TIMEOUT * 1000)}"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets pages be read while a load writes; IMMEDIATE takes the write lock when a transaction
    # starts (no deadlocked upgrade from reading to writing); the busy timeout waits for the writer.
    # Django's backend, asking whether SQLite has JSON without waiting for a write lock.
    DATABASES["default"]["ENGINE"] = "mcp_compare.sqlite"
    # The test database in memory, as for Django's own backend (pytest-django knows that one by
    # name only, and would name a file test_<path> for any other).
    DATABASES["default"]["TEST"] = {"NAME": ":memory:"}
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": env.SQLITE_BUSY_TIMEOUT,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.STATIC_ROOT
# Once collectstatic has run (scripts/start.sh runs it), files are served compressed under
# content-hashed names that browsers may cache for ever; before, straight from the app folders.
_MANIFEST = env.STATIC_MANIFEST or (Path(STATIC_ROOT) / "staticfiles.json").is_file()
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if _MANIFEST
        else "whitenoise.storage.CompressedStaticFilesStorage"
    },
}
WHITENOISE_MANIFEST_STRICT = False

# Cached pages are keyed by the data version (common.pagecache), so entries never go stale;
# old versions' entries are culled.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": env.CACHE_URL}
    if env.CACHE_URL
    else {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": env.CACHE_DIR,
        "OPTIONS": {"MAX_ENTRIES": 5000},
    }
}

# Messages live in the session (the database), not in a cookie: a signed cookie is readable.
MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

AUTHENTICATION_BACKENDS = ["common.login_throttle.ThrottledModelBackend"]
#: Failed log-ins that lock a user name, or an address, for LOGIN_LOCKOUT_SECONDS (the admin's too).
LOGIN_FAILURES_PER_USER = env.LOGIN_FAILURES_PER_USER
LOGIN_FAILURES_PER_ADDRESS = env.LOGIN_FAILURES_PER_ADDRESS
LOGIN_LOCKOUT_SECONDS = env.LOGIN_LOCKOUT_SECONDS
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "registers:row_list"
LOGOUT_REDIRECT_URL = "registers:row_list"
REGISTER_DIRS = env.REGISTER_DIRS

SECURE_CONTENT_TYPE_NOSNIFF = True
# Every page: scripts and styles from our own static files only (htmx and its handlers included: no
# inline script, no eval, no inline style), images of our own or data: URLs (inline SVG charts are
# markup, not images), no plugins, no framing, forms posting only here.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}
#: The self-contained HTML exports carry their CSS inline (they are made to be opened as files);
#: served, they still run no script.
EXPORT_CSP = {
    "default-src": [CSP.NONE],
    "style-src": [CSP.UNSAFE_INLINE],
    "img-src": ["data:"],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.NONE],
}
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Whatever logs a URL (a library, an error message), the console never shows its credentials.
    "filters": {"redact": {"()": "comparison.probes.targets.secrets.RedactingFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redact"]}},
    "root": {"handlers": ["console"], "level": env.LOG_LEVEL},
}

# Serve static files straight from the app folders too, so the dashboard works without
# collectstatic on a developer machine.
WHITENOISE_USE_FINDERS = True

SOURCE_CACHE_DIR = env.SOURCE_CACHE_DIR

# Default source roots for citations; rows in the admin (Source roots) with the same key
# override these, and further keys add roots. `YYYY-MM-DD` stands for any revision date.
GITHUB_BLOB = "https://github.com/{repo}/blob/{{commit}}/{{path}}{{anchor}}"
CITATION_SOURCES = [
    {
        "key": "spec",
        "name": "MCP specification (modelcontextprotocol/modelcontextprotocol)",
        "prefixes": ["schema/", "YYYY-MM-DD/", "seps/", "docs/extensions/", "docs/docs/"],
        "path_map": [["YYYY-MM-DD/", "docs/specification/YYYY-MM-DD/"]],
        "repository": "https://github.com/modelcontextprotocol/modelcontextprotocol.git",
        # The registers name 046fa30, which no public snapshot holds; every spec citation in the
        # shipped registers holds at b0f60ba (2026-08-22), and the cited files did not change
        # between 271ecc9 (2026-07-28) and it.
        "commit": "b0f60ba5409db7a6582440a7b473cc0398890f15",
        "web_url": GITHUB_BLOB.format(repo="modelcontextprotocol/modelcontextprotocol"),
        # Byte-identical copies at that commit (comparison/data/README.md): verified offline.
        "shipped": str(BASE_DIR / "comparison" / "data" / "spec"),
    },
    {
        "key": "opencode-v1",
        "name": "opencode 1.18.31",
        "prefixes": ["v1:"],
        "path_map": [["v1:", ""]],
        "repository": "https://github.com/anomalyco/opencode.git",
        "commit": "982a9044c515482e7792039be1db9c71cb572745",
        "web_url": GITHUB_BLOB.format(repo="anomalyco/opencode"),
    },
    {
        "key": "opencode-v2",
        "name": "opencode 2.0.3",
        "prefixes": ["v2:"],
        "path_map": [["v2:", ""]],
        "repository": "https://github.com/anomalyco/opencode.git",
        "commit": "v2.0.3",
        "web_url": GITHUB_BLOB.format(repo="anomalyco/opencode"),
    },
    {
        "key": "lootbox",
        "name": "lootbox",
        "prefixes": [".lootbox/"],
        "path_map": [[".lootbox/", ""]],
        "repository": "https://github.com/jx-codes/lootbox.git",
        "commit": "587a5a1b2694d0d00168665d8f1a536bc54e0f1a",
        "web_url": GITHUB_BLOB.format(repo="jx-codes/lootbox"),
        "notes": "The registers cite a fork checkout; upstream lines sit about 2 lines off.",
    },
    {
        "key": "subject",
        "name": "The subject proxy (mcpx)",
        "prefixes": ["internal/", "docs/", "plugin/", "cmd/", "ASSESSMENT.md", "OPENCODE-V2.md", "AGENTS.md"],
        "path_map": [],
        "repository": env.SUBJECT_REPOSITORY,
        "commit": "05c78b2",
        "web_url": "",
    },
]

# The playground takes results with large base64 images: up to 2 MiB of JSON from anyone, 32 MiB
# from a logged-in user (mcp_compare.middleware refuses bigger bodies before they are read).
MAX_BODY_ANONYMOUS = env.MAX_BODY_ANONYMOUS
MAX_BODY_AUTHENTICATED = env.MAX_BODY_AUTHENTICATED
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_BODY_AUTHENTICATED + 64 * 1024

# Probe runs go through Django's Tasks API; the database backend's worker is `manage.py db_worker`.
TASKS = {"default": {"BACKEND": env.TASK_BACKEND, "QUEUES": ["default"]}}
RUN_LEASE_SECONDS = env.RUN_LEASE_SECONDS
RUN_DEADLINE_SECONDS = env.RUN_DEADLINE_SECONDS
SCHEDULE_MIN_SECONDS = env.SCHEDULE_MIN_SECONDS
SCHEDULE_KEEP_RUNS = env.SCHEDULE_KEEP_RUNS
STDIO_PARALLEL = env.STDIO_PARALLEL
PROBE_TRIES = env.PROBE_TRIES
EXPORT_SECONDS = env.EXPORT_SECONDS
EXPENSIVE_SLOTS = env.EXPENSIVE_SLOTS
EXPENSIVE_RETRY_SECONDS = env.EXPENSIVE_RETRY_SECONDS
EXPENSIVE_SLOTS_DIR = env.EXPENSIVE_SLOTS_DIR
