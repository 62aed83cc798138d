#!/usr/bin/env bash
# Install, migrate, load the shipped registers and serve the dashboard on http://127.0.0.1:8000
# (HOST and PORT override) with gunicorn and the probe worker beside it, and the built-in probe
# target plus mcp-proxy and supergateway in front of the fixture (`add_peer_targets`). The first
# run creates an `admin` superuser and prints its password once: log in with it to run probes.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step says what it does and when, so a long first start is never silent.
STARTED_AT=$SECONDS
step() { printf '[start %4ss] %s\n' "$((SECONDS - STARTED_AT))" "$*"; }
source scripts/_python.sh
step "the Python environment (.venv, requirements.txt; the first start installs it: about 2 minutes)"
ensure_venv requirements.txt
if [ -z "${MCP_COMPARE_SECRET_KEY:-}" ]; then
  [ -f .secret_key ] || .venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(50))' > .secret_key
  MCP_COMPARE_SECRET_KEY="$(cat .secret_key)"
  export MCP_COMPARE_SECRET_KEY
fi
step "migrating the database"
.venv/bin/python manage.py migrate --noinput -v0
step "collecting the static files"
MCP_COMPARE_STATIC_MANIFEST=1 .venv/bin/python manage.py collectstatic --noinput -v0
step "loading the shipped registers"
.venv/bin/python manage.py load_registers
# The spec's cited files ship at the pinned commit: every spec citation is verified offline. Other
# sources need `manage.py sync_sources` (network) and stay "no source" until then.
step "verifying the citations whose sources ship with the project (the spec's)"
.venv/bin/python manage.py verify_citations | tail -2 \
  || echo "note: some citations drifted from their sources; the register pages list them"
step "the admin user and the built-in probe target"
admin_note="$(.venv/bin/python manage.py ensure_admin)"
echo "$admin_note"
.venv/bin/python manage.py ensure_builtin_target
# The host lab's observations measured when the hosts were pinned (comparison/data), so the Hosts
# page has data at once; `manage.py host_lab` measures again here once the hosts are installed.
step "loading the host lab's shipped observations"
.venv/bin/python manage.py host_lab --load-snapshot comparison/data/host_lab_observations.json
# The pinned hosts themselves, so the lab can run them here (MCP_COMPARE_HOSTS=0 skips it; the
# Hosts pages then say which are not installed, and scripts/install_hosts.sh installs them later).
step "the pinned hosts (npm, about a minute the first time; MCP_COMPARE_HOSTS=0 skips them)"
if [ "${MCP_COMPARE_HOSTS:-1}" != 0 ]; then
  scripts/install_hosts.sh || echo "note: the hosts were not installed (see above); the Hosts pages say which are missing"
else
  echo "the pinned hosts were not installed (MCP_COMPARE_HOSTS=0): scripts/install_hosts.sh installs them"
fi
# mcp-proxy and supergateway in front of the fixture, to compare with (MCP_COMPARE_PEERS=0 skips
# it); without npm or the package registries the dashboard starts all the same.
if [ "${MCP_COMPARE_PEERS:-1}" != 0 ]; then
  step "adding mcp-proxy and supergateway in front of the fixture (PyPI and npm, the first time)"
  .venv/bin/python manage.py add_peer_targets || echo "note: the peer targets were not added (see above); the built-in target works"
fi
# The probe worker runs beside the web server, is started again whenever it exits, and ends with it.
# MCP_COMPARE_PROBE_WORKERS probe workers (2), each supervised: started again if it ever exits.
# Several workers run several targets' probes at once (one run per target at a time), so a slow
# target never holds the queue of the others.
supervise_worker() {
  trap 'kill "$worker" 2>/dev/null; wait "$worker" 2>/dev/null; exit 0' TERM INT
  while true; do
    .venv/bin/python manage.py probe_worker >> .worker.log 2>&1 &
    worker=$!
    wait "$worker" && status=0 || status=$?
    echo "$(date -u +%FT%TZ) probe worker $worker exited with status $status; starting another in 2 s" >> .worker.log
    sleep 2
  done
}
step "starting ${MCP_COMPARE_PROBE_WORKERS:-2} probe worker(s) and the web server"
SUPERVISORS=()
for _ in $(seq 1 "${MCP_COMPARE_PROBE_WORKERS:-2}"); do
  supervise_worker &
  SUPERVISORS+=("$!")
done
scripts/serve.sh &
SERVER_PID=$!
stop_all() {
  trap - EXIT INT TERM
  kill "${SUPERVISORS[@]}" "$SERVER_PID" 2>/dev/null || true
  wait 2>/dev/null || true
  exit 0
}
trap stop_all EXIT INT TERM
echo "dashboard: http://${HOST:-127.0.0.1}:${PORT:-8000}/  (probes: /probes/, health: /healthz, ${#SUPERVISORS[@]} probe workers, log .worker.log; Ctrl-C or kill $$ stops everything)"
# The password again, last, where it is not lost among the install's output.
case "$admin_note" in
  "created superuser"*) echo "log in: ${admin_note#created superuser } (another: .venv/bin/python manage.py changepassword admin)" ;;
  *) echo "log in: as the superuser made on the first start (forgot the password? .venv/bin/python manage.py changepassword admin)" ;;
esac
wait "$SERVER_PID"
