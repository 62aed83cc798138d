#!/usr/bin/env bash
# Mutation testing of the core modules listed in pyproject.toml ([tool.mutmut]): every mutant runs
# the fast tests that cover the function it changed. Slow (hours for the whole set on two cores),
# so not part of CI. Arguments name mutants to run, e.g. 'registers.core.rowfilter*'; without any, all.
# Prints a summary per module; the full list is in mutants/results.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_python.sh
ensure_venv requirements-dev.txt
.venv/bin/mutmut run "$@" || true
.venv/bin/mutmut results --all true > mutants/results.txt
.venv/bin/python scripts/mutation_summary.py mutants/results.txt
