#!/usr/bin/env bash
# Install the hosts the host lab runs, at their pinned versions (Codex CLI, Claude Code, Gemini
# CLI, Qwen Code, opencode, Cloudflare codemode: comparison/hostlab/node and its lock file), so
# `manage.py host_lab` and "also run the real hosts" measure them here. Node.js and npm are
# installed first where missing (as root, with apt-get). The start command runs this too.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_python.sh
echo "installing the pinned hosts of the host lab into comparison/hostlab/node (npm; a few minutes the first time)"
ensure_lab_hosts
echo "the pinned hosts are installed: manage.py host_lab measures them"
