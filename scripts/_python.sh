# Shared by scripts/start.sh and scripts/test.sh: find a Python >= 3.12 (Django 6.1 needs it)
# and keep the project's virtual environment in .venv up to date with a requirements file.

find_python() {
  local candidate
  for candidate in "${PYTHON:-}" python3.13 python3.12 python3 \
      /root/.pyenv/versions/3.13*/bin/python3 /root/.pyenv/versions/3.12*/bin/python3 \
      /usr/local/bin/python3.13 /usr/local/bin/python3.12; do
    [ -n "$candidate" ] || continue
    if "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; then
      echo "$candidate"
      return 0
    fi
  done
  echo "error: no Python 3.12 or newer found; set PYTHON=/path/to/python3.12" >&2
  return 1
}

ensure_venv() {
  local requirements="$1"
  if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)'; then
    rm -rf .venv
    "$(find_python)" -m venv .venv
  fi
  # Reinstall only when the requirements changed since the last install.
  local stamp=".venv/.installed-$(basename "$requirements")"
  if [ ! -f "$stamp" ] || ! cmp -s "$stamp" <(cat requirements*.txt); then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$requirements"
    cat requirements*.txt > "$stamp"
  fi
}

ensure_chromium() {
  if [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
    return 0
  fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing Debian's chromium for the browser tests"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "error: the browser tests need Chromium at ${CHROMIUM_PATH:-/usr/bin/chromium} (apt-get install chromium)" >&2
    return 1
  fi
}

ensure_node_packages() {
  # The hosts the host lab runs (Codex CLI, Claude Code, Gemini CLI, Qwen Code, opencode, Cloudflare
  # codemode), the conformance suite's client side, and strace (the lab's egress test traces them).
  if ! command -v strace >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq strace >/dev/null
    else
      echo "error: the host lab's egress test needs strace (apt-get install strace)" >&2
      return 1
    fi
  fi
  ensure_lab_hosts
}

ensure_lab_hosts() {
  # The pinned hosts of the host lab and the conformance suite's client side, from npm
  # (comparison/hostlab/node, pinned by its lock file); Node.js and npm first where missing.
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
    else
      echo "error: the host lab needs Node.js and npm" >&2
      return 1
    fi
  fi
  local dir=comparison/hostlab/node
  local stamp="$dir/node_modules/.installed-lock"
  if [ ! -f "$stamp" ] || ! cmp -s "$stamp" "$dir/package-lock.json"; then
    # npm ci rejects this lock file (npm leaves the other platforms' optional opencode binaries
    # out of it); npm install follows the lock just the same.
    (cd "$dir" && npm install --no-audit --no-fund --loglevel=error)
    cp "$dir/package-lock.json" "$stamp"
  fi
}

ensure_probe_peers() {
  # Third-party MCP peers the probe tests run: mcp-proxy (needs mcp<2, so its own virtualenv)
  # and the npm packages server-everything and supergateway.
  local requirements=comparison/probes/peers/requirements.txt
  if [ ! -x .venv-peers/bin/mcp-proxy ] || ! cmp -s "$requirements" .venv-peers/.installed 2>/dev/null; then
    rm -rf .venv-peers
    "$(find_python)" -m venv .venv-peers
    .venv-peers/bin/python -m pip install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" .venv-peers/.installed
  fi
  local dir=comparison/probes/peers/node
  local stamp="$dir/node_modules/.installed-lock"
  if [ ! -f "$stamp" ] || ! cmp -s "$stamp" "$dir/package-lock.json"; then
    (cd "$dir" && npm install --no-audit --no-fund --loglevel=error)
    cp "$dir/package-lock.json" "$stamp"
  fi
  # The corpus of real proxies (tests/support/corpus.py): each Python one in a virtualenv of its own.
  local name
  for name in fastmcp magg; do
    requirements="comparison/probes/peers/requirements-$name.txt"
    if ! cmp -s "$requirements" ".venv-corpus/$name/.installed" 2>/dev/null; then
      rm -rf ".venv-corpus/$name"
      "$(find_python)" -m venv ".venv-corpus/$name"
      ".venv-corpus/$name/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
      cp "$requirements" ".venv-corpus/$name/.installed"
    fi
  done
}
