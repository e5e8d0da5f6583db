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

# Three lanes at once. Run one after the other, the steps left the two cores idle 40% of the time
# (25.7 min of wall for 30 min of CPU): tests wait on trainings, instance start-ups, sockets and
# the browser, and the static checks are single-threaded. Each lane writes its own log, printed
# whole when the lane ends; a line every minute says where each lane is. No test may depend on an
# idle machine, so running them beside each other is also a check of that rule.
logs=.tmp/test-logs
timings=.tmp/test-timings
rm -rf "$logs" "$timings" && mkdir -p "$logs" "$timings"

static_checks() {
  local rc=0
  step 'Type-check (node side, browser, contract, e2e, bench)'
  npm run --silent typecheck || rc=1
  step 'Lint (ESLint: types, import cycles, the dependency rule, a11y), format, unused exports'
  npx eslint . --max-warnings=0 || rc=1
  npx prettier --check . --log-level warn || rc=1
  npx knip || rc=1
  return $rc
}

unit_tests() {
  step 'Unit and integration tests (Vitest)'
  npx vitest run --reporter=default --reporter=json --outputFile.json="$timings/vitest.json"
}

e2e_tests() {
  step 'End-to-end tests (Playwright, /usr/bin/chromium)'
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PLAYWRIGHT_JSON_OUTPUT_NAME="$timings/playwright.json" \
    npx playwright test --reporter=list,json
}

lanes=(static_checks unit_tests e2e_tests)
declare -A pid started
# bash's `time` counts the CPU of every process a lane waited for (test workers, browsers).
TIMEFORMAT='%R %U %S'
for lane in "${lanes[@]}"; do
  started[$lane]=$SECONDS
  { time "$lane" >"$logs/$lane.log" 2>&1; } 2>"$logs/$lane.time" &
  pid[$lane]=$!
done

# Every lane runs to its end (a failure in one does not hide another's); the exit status is the
# worst of them.
failed=()
trap 'step "Where the time went (npm test: $SECONDS s)"; node scripts/slowest-tests.mjs 15' EXIT
# Interrupted: stop every lane with its test workers, browsers and instances.
trap 'trap - INT TERM; kill 0' INT TERM
pending=("${lanes[@]}")
last_note=$SECONDS
while [ ${#pending[@]} -gt 0 ]; do
  still=()
  for lane in "${pending[@]}"; do
    if kill -0 "${pid[$lane]}" 2>/dev/null; then
      still+=("$lane")
      continue
    fi
    rc=0
    wait "${pid[$lane]}" || rc=$?
    read -r real user sys <"$logs/$lane.time" || true
    cat "$logs/$lane.log"
    printf '\n==> %s %s after %s s (CPU: %s s user, %s s system)\n' "$lane" \
      "$([ $rc = 0 ] && echo passed || echo "FAILED (exit $rc)")" "${real%.*}" "${user%.*}" "${sys%.*}"
    [ $rc = 0 ] || failed+=("$lane")
  done
  pending=("${still[@]}")
  if [ ${#pending[@]} -gt 0 ]; then
    sleep 2
    if [ $((SECONDS - last_note)) -ge 60 ]; then
      last_note=$SECONDS
      line=''
      for lane in "${pending[@]}"; do line+=" $lane: $((SECONDS - started[$lane])) s;"; done
      echo "[npm test ${SECONDS} s] still running:$line $(uptime | sed 's/.*load/load/')"
    fi
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "npm test failed: ${failed[*]}" >&2
  exit 1
fi
