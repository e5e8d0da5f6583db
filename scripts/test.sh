#!/usr/bin/env bash
# `npm test`: everything a clean machine needs to pass. Type-check, lint, unit and integration
# tests (Vitest: real DuckDB, real HTTP on loopback), then the Playwright journeys in Debian's
# Chromium against the real instance. Installs Chromium and PostgreSQL with apt when they are
# missing and we may (the PostgreSQL tests start their own server in a temporary directory).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    step "Installing Debian's chromium for the end-to-end tests"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing at /usr/bin/chromium: install it (apt-get install chromium) and re-run." >&2
    exit 1
  fi
fi

if ! command -v curl >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    step "Installing curl for the docs' command test (server/test/__tests__/docs-commands.test.ts)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl >/dev/null
  else
    echo "curl is missing: install it (apt-get install curl) and re-run." >&2
    exit 1
  fi
fi

if ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    step "Installing Debian's postgresql for the integration tests (they start their own server)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  else
    echo "PostgreSQL's initdb is missing: install Debian's postgresql package and re-run." >&2
    exit 1
  fi
fi

step 'Type-check (node side, browser, contract, e2e, bench)'
npm run --silent typecheck

step 'Lint (ESLint: types, import cycles, the dependency rule, a11y), format, unused exports'
npx eslint . --max-warnings=0
npx prettier --check . --log-level warn
npx knip

# Both runners also write JSON reports; the slowest tests are printed at the end of every run,
# passed or failed (scripts/slowest-tests.mjs).
timings=.tmp/test-timings
rm -rf "$timings" && mkdir -p "$timings"
trap 'step "Where the time went (npm test: $SECONDS s)"; node scripts/slowest-tests.mjs 15' EXIT

step 'Unit and integration tests (Vitest)'
npx vitest run --reporter=default --reporter=json --outputFile.json="$timings/vitest.json"

step 'End-to-end tests (Playwright, /usr/bin/chromium)'
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PLAYWRIGHT_JSON_OUTPUT_NAME="$timings/playwright.json" \
  npx playwright test --reporter=list,json
