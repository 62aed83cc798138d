#!/usr/bin/env bash
# The whole test suite: lint, migrations in sync, then every test (parser, loader, pages, and
# the browser tests in headless Chromium, and the host models against the real hosts). Extra arguments go to pytest.
# Uses SQLite unless DATABASE_URL names another database, e.g. postgres://user@127.0.0.1:5432/db.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_python.sh
ensure_venv requirements-dev.txt
ensure_chromium
ensure_node_packages
ensure_probe_peers
.venv/bin/ruff check .
.venv/bin/ruff format --check --quiet .
.venv/bin/python manage.py makemigrations --check --dry-run >/dev/null
.venv/bin/python -m pytest "$@"
