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

# The e2e journeys run in Debian's headless shell of the same release when it is there (a third
# less of Chromium's CPU than the full browser headless; playwright.config.ts), else in the browser.
if [ ! -x /usr/bin/chromium-headless-shell ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  step "Installing Debian's chromium-headless-shell for the end-to-end tests"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null
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

# The lanes: static checks, Vitest, the SPA's build and Playwright (how they are scheduled is
# below). Each ends with its wall and CPU seconds.
timings=.tmp/test-timings
rm -rf "$timings" && mkdir -p "$timings"

# Two streams of about equal CPU, side by side on two cores: ESLint (its rules need no types:
# 49-51 CPU-s), and the type-check (TypeScript 7), the typed lint rules (oxlint on TypeScript 7,
# .oxlintrc.json), the format check and the unused exports in turn (12 + 9 + 22 + 5 CPU-s; load
# 6-9). The typed rules ran inside ESLint until session 17, on TypeScript 5.9 programs of every
# tsconfig, in two ESLint halves of 62 and 56 CPU-s. TypeScript 7 and tsgolint run single-threaded
# here: the lane shares two cores with Vitest, and their parallel checkers each redo part of the
# work (the type-check: 20.5-20.8 CPU-s with its default four checkers, 12.1-12.3 single-threaded;
# oxlint 13.5-13.8 -> 9.8-11.0; load 9-11). Each check writes its own log and status; the logs are
# shown in order once all are done.
static_checks() {
  local logs=.tmp/static rc=0
  rm -rf "$logs" && mkdir -p "$logs"
  check() { # name, command...: runs the command into the name's log and keeps its status
    local name=$1
    shift
    local status=0
    "$@" >"$logs/$name.log" 2>&1 || status=$?
    echo "$status" >"$logs/$name.rc"
  }
  check eslint npx eslint . --max-warnings=0 &
  {
    check typecheck npm run --silent typecheck -- --singleThreaded
    check oxlint env GOMAXPROCS=1 npx oxlint --threads=1 --max-warnings=0
    check prettier npx prettier --check . --log-level warn
    check knip npx knip
  } &
  wait
  step 'Type-check (TypeScript 7: node side, browser, contract, e2e, bench)'
  cat "$logs/typecheck.log"
  step 'Lint (ESLint: import cycles, the dependency rule, a11y, hooks; oxlint: typed rules), format, unused exports'
  cat "$logs/eslint.log" "$logs/oxlint.log" "$logs/prettier.log" "$logs/knip.log"
  for name in typecheck eslint oxlint prettier knip; do
    [ "$(cat "$logs/$name.rc")" = 0 ] || { echo "$name failed" >&2; rc=1; }
  done
  return $rc
}

unit_tests() {
  step 'Unit and integration tests (Vitest)'
  npx vitest run --reporter=default --reporter=json --outputFile.json="$timings/vitest.json"
}

# The production build of the SPA that the e2e lane's previews serve (scripts/e2e-server.mjs).
ui_build() {
  step 'Production build of the SPA for the end-to-end tests (vite build)'
  npx vite build --logLevel warn
}

# The e2e lane's servers (playwright.config.ts's webServer: an instance and a preview of the build
# per worker, and the auth pair) start as soon as the SPA is built, beside Vitest, and wait there:
# Playwright finds them answering and reuses them (E2E_REUSE_SERVER), so the lane no longer opens
# with 7-8 s of start-ups (its first test began 9.8 s in, run44). Their start-ups and the
# instances' warm-up trainings cost 20-26 CPU-s (3 instances, 4 previews), and Vitest's lane keeps
# both cores busy: they run below it, on what Vitest and the static checks leave, in a process
# group of their own (setsid) set back to normal priority as soon as Vitest ends.
# A new session is also a scheduling group of its own where the kernel's autogroups are on
# (/proc/sys/kernel/sched_autogroup_enabled, for the tasks of the root CPU cgroup), weighed as one
# peer of the group Vitest runs in whatever its processes' nice: there the group itself is set to
# nice 19 (/proc/<pid>/autogroup; setting it back to 0 needs no root). Its processes run at nice 19
# too, the lever without autogroups (setting them back needs root, as CI has). When neither can be
# set back, or they did not come up, Playwright starts servers of its own as before. Their set-up is
# the webServer's own: command and env are read from playwright.config.ts.
e2e_servers=.tmp/e2e-servers
autogroups_apply() { # whether a new session of this shell gets a scheduling group of its own
  [ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null)" = 1 ] && [ -w /proc/self/autogroup ] &&
    awk -F: '$2 ~ /(^|,)cpu(,|$)/ { v1 = $3 } $1 == "0" && $2 == "" { v2 = $3 }
      END { exit !((v1 != "" ? v1 : v2) == "/") }' /proc/self/cgroup
}
set_autogroup_nice() { # pid nice: sets the nice of pid's autogroup
  # Unprivileged writes are limited to one in 100 ms, machine-wide (EAGAIN): a few tries.
  local try
  for try in 1 2 3 4 5; do
    echo "$2" 2>/dev/null >"/proc/$1/autogroup" && return 0
    sleep 0.2
  done
  return 1
}
start_e2e_servers() {
  rm -f "$e2e_servers".*
  local autogroup=0
  autogroups_apply && autogroup=1
  export -f set_autogroup_nice
  # The group exists from the start (setsid), so the e2e lane can raise it at any stage.
  setsid nice -n 19 bash -c '
    if [ "$2" = 1 ] && set_autogroup_nice $$ 19; then
      echo autogroup >"$3.prio"
    else
      echo nice >"$3.prio"
    fi
    # The build runs beside; the previews serve what it wrote.
    until [ -e "$1/ui_build.rc" ]; do sleep 1; done
    [ "$(cat "$1/ui_build.rc")" = 0 ] || exit 0
    mapfile -t server_env < <(node --import tsx --input-type=module -e "
      const { webServer } = (await import(\"./playwright.config.ts\")).default;
      for (const [k, v] of Object.entries(webServer.env)) console.log(k + \"=\" + v);")
    # Their start-ups wait as long as Vitest may take (the e2e lane bounds its own wait).
    E2E_SKIP_BUILD=1 E2E_SERVER_WAIT_MS=3600000 exec env "${server_env[@]}" \
      node scripts/e2e-server.mjs
  ' start-e2e-servers "$timings" "$autogroup" "$e2e_servers" >"$e2e_servers.log" 2>"$e2e_servers.err" &
  echo $! >"$e2e_servers.pid"
  export -nf set_autogroup_nice
}
stop_e2e_servers() {
  local pid
  pid=$(cat "$e2e_servers.pid" 2>/dev/null) || return 0
  rm -f "$e2e_servers.pid"
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

# The early servers back to normal priority: their autogroup, where they have one, and every
# thread of their process group (setpriority's PRIO_PGRP; it needs root). Called as soon as Vitest
# ends, before the static lane's and the build's output is shown (the e2e lane set them back only
# after that wait until session 18), and by the e2e lane, where it does nothing more.
e2e_servers_to_normal() {
  local pid reniced=0
  [ -e "$e2e_servers.normal" ] && return 0
  pid=$(cat "$e2e_servers.pid" 2>/dev/null) || return 0
  [ "$(cat "$e2e_servers.prio" 2>/dev/null)" = autogroup ] && set_autogroup_nice "$pid" 0 && reniced=1
  renice -n 0 -g "$pid" >/dev/null 2>&1 && reniced=1
  echo "$reniced" >"$e2e_servers.normal"
}

e2e_tests() {
  step 'End-to-end tests (Playwright in the headless shell of Chromium, two workers with an instance each)'
  local skip_build=0 reuse=0 pid rc=0
  [ "$(cat "$timings/ui_build.rc" 2>/dev/null)" = 0 ] && skip_build=1
  # The early servers are ready when they print READY; gone means they failed (their log says why).
  # Back at normal priority, they get the 300 s Playwright gives its own webServer to come up.
  pid=$(cat "$e2e_servers.pid" 2>/dev/null) || pid=
  if [ -n "$pid" ]; then
    e2e_servers_to_normal
    local reniced waited=$SECONDS deadline=$((SECONDS + 300))
    reniced=$(cat "$e2e_servers.normal")
    while [ "$reniced" = 1 ] && kill -0 "$pid" 2>/dev/null &&
      ! grep -q '\] READY' "$e2e_servers.log" && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
    if [ "$reniced" = 1 ] && grep -q '\] READY' "$e2e_servers.log" && kill -0 "$pid" 2>/dev/null; then
      reuse=1
      # Whether the lane waited for them: where it did, it is in every CI log.
      echo "The e2e servers started beside Vitest answer (the lane waited $((SECONDS - waited)) s for them)."
    else
      if [ "$skip_build" = 1 ]; then
        echo "The e2e servers started beside Vitest are not usable (not up, or not set back to" \
          "normal priority); Playwright starts its own:" >&2
        cat "$e2e_servers.log" "$e2e_servers.err" >&2
      fi
      stop_e2e_servers
    fi
  fi
  E2E_REUSE_SERVER=$reuse E2E_SKIP_BUILD=$skip_build PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    PLAYWRIGHT_JSON_OUTPUT_NAME="$timings/playwright.json" npx playwright test --reporter=list,json ||
    rc=$?
  stop_e2e_servers
  # What the servers wrote to stderr, as Playwright prints its own webServer's.
  [ "$reuse" = 0 ] || cat "$e2e_servers.err" >&2
  return $rc
}

trap 'stop_e2e_servers; step "Where the time went (npm test: $SECONDS s)"; node scripts/slowest-tests.mjs 15' EXIT

# bash's `time` counts the CPU of the processes a lane waited for (test workers, the instance the
# e2e server started), not that of Chromium's renderers (forked by its zygote, never reaped by us):
# a page spinning for 5 s counted 1.6 s. The e2e lane's CPU figure is a floor.
TIMEFORMAT='%R %U %S'
run_lane() { # lane: runs it, keeps its exit status and its wall and CPU seconds in $timings
  local lane=$1 rc=0
  { time "$lane" 2>&3 || rc=$?; } 3>&2 2>"$timings/$lane.time"
  echo "$rc" >"$timings/$lane.rc"
}
report_lane() { # lane: prints its outcome line; records it as failed when it was
  local lane=$1 rc real user sys
  rc=$(cat "$timings/$lane.rc")
  read -r real user sys <"$timings/$lane.time" || true
  printf '\n==> %s %s after %s s (CPU: %s s user, %s s system)\n' "$lane" \
    "$([ "$rc" = 0 ] && echo passed || echo "FAILED (exit $rc)")" "${real%.*}" "${user%.*}" "${sys%.*}"
  [ "$rc" = 0 ] || failed+=("$lane")
}
failed=()

# Two phases. First the static checks and the SPA's build run beside Vitest, their output kept
# until Vitest ends: Vitest's files mostly wait (trainings, instance start-ups, sockets) and kept
# about one of the two cores busy on its own (467 CPU-s in 494 s). Then the e2e lane, whose two
# workers keep the cores busy themselves. Every lane runs to its end even when another failed (one
# failure does not hide another); the exit status is the worst of them.
run_lane static_checks >.tmp/static-lane.log 2>&1 &
static_pid=$!
run_lane ui_build >.tmp/build-lane.log 2>&1 &
build_pid=$!
start_e2e_servers
# In a subshell of its own, so that its CPU figure is Vitest's alone: the main shell reaps the
# other lanes meanwhile, and bash's `time` there counted their CPU too (run44's "714 CPU-s" of
# Vitest held the static checks' 181).
(run_lane unit_tests)
e2e_servers_to_normal
wait "$static_pid" "$build_pid" || true
cat .tmp/static-lane.log
report_lane static_checks
cat .tmp/build-lane.log
report_lane ui_build
report_lane unit_tests
run_lane e2e_tests
report_lane e2e_tests

if [ ${#failed[@]} -gt 0 ]; then
  echo "npm test failed: ${failed[*]}" >&2
  exit 1
fi
