#!/usr/bin/env bash
# Build the manual (docs/, mkdocs.yml) into .site/ with MkDocs and the Material theme, strictly:
# a link to a page or anchor that does not exist, or a page left out of the navigation, fails the
# build. `scripts/docs.sh serve` serves it on 127.0.0.1:8001 while you write.
set -euo pipefail
export NO_MKDOCS_2_WARNING=1
cd "$(dirname "$0")/.."
# Right after the start command (which installs only what the dashboard needs): MkDocs is installed
# here the first time, into the same environment.
if [ ! -x .venv/bin/mkdocs ]; then
  source scripts/_python.sh
  ensure_venv requirements.txt
  echo "installing MkDocs for the manual (requirements-docs.txt)"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-docs.txt
fi
if [ "${1:-}" = "serve" ]; then
  exec .venv/bin/mkdocs serve --strict --dev-addr 127.0.0.1:8001
fi
.venv/bin/mkdocs build --strict --clean --site-dir .site
