#!/usr/bin/env bash
# Install, migrate, load the shipped registers and serve the dashboard on http://127.0.0.1:8000
# (HOST and PORT override). The first run creates an `admin` superuser and prints its password.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_python.sh
ensure_venv requirements.txt
if [ -z "${MCP_COMPARE_SECRET_KEY:-}" ]; then
  [ -f .secret_key ] || .venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(50))' > .secret_key
  MCP_COMPARE_SECRET_KEY="$(cat .secret_key)"
  export MCP_COMPARE_SECRET_KEY
fi
.venv/bin/python manage.py migrate --noinput -v0
.venv/bin/python manage.py collectstatic --noinput -v0
.venv/bin/python manage.py load_registers
.venv/bin/python manage.py ensure_admin
echo "dashboard: http://${HOST:-127.0.0.1}:${PORT:-8000}/"
exec .venv/bin/python manage.py runserver "${HOST:-127.0.0.1}:${PORT:-8000}" --noreload
