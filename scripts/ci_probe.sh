#!/usr/bin/env bash
# For a proxy's own CI: start the proxy in front of mcp-compare's fixture upstream, probe it at
# every revision, write JUnit XML and the JSON report, and gate on a baseline of expected results.
#
#   PROXY_COMMAND='my-proxy --port 3301 -- $FIXTURE' scripts/ci_probe.sh --port 3301 \
#       [--baseline FILE] [--out DIR] [-- extra `manage.py probe` options]
#
# $FIXTURE is the fixture's stdio command (this checkout's Python); the proxy must serve
# http://127.0.0.1:<port>/mcp. With --baseline, the build fails only on cells worse than the
# baseline (the first run writes it: commit it); without, on any changed or unprobeable cell.
# Writes DIR/junit.xml and DIR/report.json (DIR defaults to ./mcp-compare-out).
set -euo pipefail
port="" baseline="" out="$PWD/mcp-compare-out"
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port="$2"; shift 2 ;;
    --baseline) baseline="$(realpath -m "$2")"; shift 2 ;;
    --out) out="$(realpath -m "$2")"; shift 2 ;;
    --) shift; break ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$port" ] && [ -n "${PROXY_COMMAND:-}" ] || { echo "set PROXY_COMMAND and --port" >&2; exit 2; }
cd "$(dirname "$0")/.."
source scripts/_python.sh
ensure_venv requirements.txt >/dev/null
mkdir -p "$out"
FIXTURE="$PWD/.venv/bin/python -m comparison.probes.fixture.fixture_server --stdio"
export FIXTURE
# The proxy runs in a session of its own, so it and whatever it spawned end together.
setsid bash -c "exec $PROXY_COMMAND" > "$out/proxy.log" 2>&1 &
proxy=$!
trap 'kill -TERM -- "-$proxy" 2>/dev/null || true; sleep 1; kill -KILL -- "-$proxy" 2>/dev/null || true' EXIT
for _ in $(seq 1 150); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  kill -0 "$proxy" 2>/dev/null || { echo "the proxy exited:" >&2; cat "$out/proxy.log" >&2; exit 1; }
  sleep 0.2
done
probe=(.venv/bin/python manage.py probe --url "http://127.0.0.1:$port/mcp" --upstream-fixture --json --junit "$out/junit.xml")
if [ -n "$baseline" ] && [ ! -f "$baseline" ]; then
  "${probe[@]}" --update-baseline "$baseline" "$@" > "$out/report.json" || true
  echo "wrote the baseline $baseline from this run: commit it; later runs fail only on cells worse than it"
  exit 0
fi
[ -n "$baseline" ] && probe+=(--baseline "$baseline")
status=0
"${probe[@]}" "$@" > "$out/report.json" || status=$?
echo "JUnit: $out/junit.xml  report: $out/report.json  exit: $status"
exit "$status"
