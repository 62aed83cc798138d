#!/usr/bin/env bash
# The whole test suite: lint, import contracts, migrations in sync, the manual, then every test
# (tests/registers, probes, hosts, evidence and project, and tests/e2e: headless Chromium, the host
# models against the real hosts, the third-party peers, real worker, relay and server processes), on
# MCP_COMPARE_TEST_PROCESSES processes (2). Extra arguments go to pytest.
#
#   scripts/test.sh --fast   everyday lane: no Chromium, npm packages or peers installed; every test
#                            but tests/e2e (and the few browser, real-host and peer tests kept beside
#                            their subject), on two processes (pytest-xdist), with a quarter of CI's
#                            property-test examples (HYPOTHESIS_PROFILE=ci keeps them all)
#
# Uses SQLite unless DATABASE_URL names another database, e.g. postgres://user@127.0.0.1:5432/db.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_python.sh
fast=""
if [ "${1:-}" = "--fast" ]; then
  fast=1
  shift
fi
ensure_venv requirements-dev.txt
if [ -z "$fast" ]; then
  ensure_chromium
  ensure_node_packages
  ensure_probe_peers
fi
.venv/bin/ruff check .
.venv/bin/ruff format --check --quiet .
.venv/bin/lint-imports --no-cache >/dev/null || .venv/bin/lint-imports --no-cache
.venv/bin/python manage.py makemigrations --check --dry-run >/dev/null
# The manual, strictly: a dead link, a missing anchor or a page left out of the navigation fails.
docs_log="$(scripts/docs.sh 2>&1)" || { echo "$docs_log"; exit 1; }
# A temporary folder of this run's own: pytest prunes its shared /tmp/pytest-of-<user> folders, so
# another test session on the machine would otherwise delete this one's files mid-run.
basetemp="$(mktemp -d /tmp/mcp-compare-tests.XXXXXX)"
trap 'rm -rf "$basetemp"' EXIT
processes="${MCP_COMPARE_TEST_PROCESSES:-2}"
if [ -n "$fast" ]; then
  started=$(date +%s)
  status=0
  HYPOTHESIS_PROFILE="${HYPOTHESIS_PROFILE:-fast}" .venv/bin/python -m pytest \
    -m "not e2e and not browser and not realhost and not peers" -n "$processes" --dist worksteal --basetemp "$basetemp" "$@" \
    || status=$?
  # Printed whether the lane passed or not: how long it took is worth knowing either way.
  echo "fast lane: $(( $(date +%s) - started )) s of tests (exit $status)"
  exit "$status"
else
  .venv/bin/python -m pytest -n "$processes" --dist worksteal --basetemp "$basetemp" "$@"
fi
