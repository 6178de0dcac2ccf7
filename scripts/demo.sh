#!/usr/bin/env bash
# The demo command: bootstrap (pnpm, dependencies, Chromium, node packages), then run scripts/demo.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
exec node --import tsx scripts/demo.ts
