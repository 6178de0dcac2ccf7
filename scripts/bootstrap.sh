#!/usr/bin/env bash
# Bootstrap a fresh Debian/Ubuntu machine with Node 20: pnpm, dependencies, Chromium, and the built node packages.
# Idempotent and quiet when everything is already there. Used by the demo and test commands.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'bootstrap: %s\n' "$*" >&2; }
die() { printf 'bootstrap: %s\n' "$*" >&2; exit 1; }

# Node 20 or newer.
command -v node >/dev/null || die "Node.js 20 is required: install it (e.g. apt-get install nodejs, or nodesource) and rerun."
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || die "Node.js $(node --version) found; Drover needs Node.js 20 or newer."

# pnpm 9.
if ! command -v pnpm >/dev/null || ! pnpm --version 2>/dev/null | grep -q '^9\.'; then
  say "installing pnpm 9"
  if [ "$(id -u)" = 0 ] || [ -w "$(npm prefix -g 2>/dev/null)/lib" ]; then
    npm install -g pnpm@9 >/dev/null 2>&1 || die "npm install -g pnpm@9 failed; install pnpm 9 and rerun."
  else
    die "pnpm 9 is missing and the global npm prefix is not writable: run 'npm install -g pnpm@9' as root (or 'corepack enable'), then rerun."
  fi
fi

# Dependencies, exactly as locked. Skipped when node_modules is newer than the lockfile.
if [ ! -d node_modules ] || [ pnpm-lock.yaml -nt node_modules/.modules.yaml ]; then
  say "installing dependencies (pnpm install --frozen-lockfile)"
  CI=true pnpm install --frozen-lockfile --reporter=silent || die "pnpm install failed"
fi

# Chromium from the distribution; Playwright never downloads a browser.
chromium="${DROVER_CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing Chromium with apt-get (about 30 s)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq chromium >/dev/null || die "apt-get install chromium failed"
  else
    die "Chromium is missing at $chromium: install it ('sudo apt-get install chromium') or set DROVER_CHROMIUM_PATH, then rerun."
  fi
fi

# The node packages (.cwx) the worker installs.
node --import tsx scripts/build-packages.ts >/dev/null || die "building node packages failed (node --import tsx scripts/build-packages.ts)"
