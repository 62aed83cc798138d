#!/usr/bin/env bash
# Serve the dashboard in production shape: gunicorn, sync workers (two per core unless
# MCP_COMPARE_WEB_WORKERS says), on HOST:PORT (127.0.0.1:8000). scripts/start.sh runs it after the
# set-up; bench/bench_http.py runs it to measure. Set MCP_COMPARE_SERVER=uvicorn to serve the ASGI
# application with uvicorn's workers instead (measured slower here: see the README).
# No gunicorn control socket: its default (~/.gunicorn/gunicorn.ctl) is one per user, shared by
# every dashboard on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
workers="${MCP_COMPARE_WEB_WORKERS:-$(( $(nproc) * 2 ))}"
bind="${HOST:-127.0.0.1}:${PORT:-8000}"
if [ "${MCP_COMPARE_SERVER:-gunicorn}" = uvicorn ]; then
  exec .venv/bin/uvicorn mcp_compare.asgi:application --host "${HOST:-127.0.0.1}" --port "${PORT:-8000}" \
    --workers "$workers" --no-access-log --log-level warning
fi
exec .venv/bin/gunicorn mcp_compare.wsgi:application --bind "$bind" --workers "$workers" --worker-class sync \
  --timeout 60 --graceful-timeout 10 --max-requests 5000 --max-requests-jitter 500 --no-control-socket \
  ${MCP_COMPARE_ACCESS_LOG:+--access-logfile -}
