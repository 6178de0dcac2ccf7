#!/usr/bin/env bash
# The test command: bootstrap, then codegen staleness, typecheck, dependency boundaries and the whole vitest suite.
# Storage and end-to-end tests run on PGlite, and on PostgreSQL too when DATABASE_URL is set.
# Ends with one plain line: "N passed, N failed" (each check above counts as one test).
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh || { echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
step() {
  local name=$1; shift
  printf '\n== %s\n' "$name"
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); printf '!! %s failed\n' "$name"; fi
}

step "gen:check (generated types and docs/errors.md are up to date)" node --import tsx scripts/gen.ts --check
step "typecheck (tsc --noEmit)" node_modules/.bin/tsc -p tsconfig.json --noEmit
step "check-deps (package boundaries)" node --import tsx scripts/check-deps.ts

if [ -n "${DATABASE_URL:-}" ]; then
  printf '\n== vitest (PGlite and PostgreSQL at %s)\n' "${DATABASE_URL%%\?*}"
else
  printf '\n== vitest (PGlite only; set DATABASE_URL to include PostgreSQL)\n'
fi
report=$(mktemp -t drover-vitest-XXXXXX.json)
node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile.json="$report"
vitest_status=$?
counts=$(node -e '
  const fs = require("fs");
  try {
    const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    // Files that failed to load count as failures too.
    const broken = r.testResults.filter((f) => f.status === "failed" && f.assertionResults.length === 0).length;
    console.log(`${r.numPassedTests} ${r.numFailedTests + broken}`);
  } catch { console.log("0 1"); }
' "$report")
rm -f "$report"
read -r vp vf <<<"$counts"
passed=$((passed + vp))
failed=$((failed + vf))
if [ "$vitest_status" -ne 0 ] && [ "$vf" -eq 0 ]; then failed=$((failed + 1)); fi

echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
