# Runs the benchmarks in bench/ (`pnpm bench [--runs N] [--dialect pglite|postgres|both] …`); see bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
exec node --import tsx bench/dispatch-overhead.ts "$@"
