/**
 * E2E: real Chromium (Debian's) against the real local instance and a production build of the
 * SPA, both started by scripts/e2e-server.mjs. No mocks.
 */
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS } from './e2e/chromium-args';
import { REUSED_TRAININGS } from './e2e/reused-trainings';

const uiPort = Number(process.env.E2E_UI_PORT ?? 4319);
/** A second preview whose instance has authentication on (e2e/auth.spec.ts). */
export const authUiPort = Number(process.env.E2E_AUTH_UI_PORT ?? uiPort + 1);
/**
 * Debian's headless shell (package chromium-headless-shell: the same Chromium release built for
 * headless use, the build Playwright itself runs headless) when it is installed, else Debian's
 * full browser; CHROMIUM_PATH picks another. The full browser in headless mode carries its browser
 * UI along: on the same journeys (model-describe and share, load 20 on two cores) it used 32-33
 * CPU-s against 23 for the shell (browser process 6.4 -> 3.0, renderers 24.4 -> 18.8).
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
// E2E_BASE_URL runs the suite against an already running preview + instance (no webServer).
const external = process.env.E2E_BASE_URL;
// Two workers, each driving an instance and a preview of its own (uiPort, then the ports after
// authUiPort), so no spec sees another's models, files or history. The lane waited more than it
// computed with one worker: 79 tests took 585 s with the lane's processes using 0.8 of a core
// (Chromium 332 CPU-s, instances 100, runner 28, build 21).
const workers = external ? 1 : Number(process.env.E2E_WORKERS ?? 2);
const workerUiPorts = Array.from({ length: workers }, (_, i) =>
  i === 0 ? uiPort : authUiPort + i,
);
// Playwright loads this file again in each worker process and tells it its parallel index there.
const parallelIndex = Number(process.env.TEST_PARALLEL_INDEX ?? 0) % workers;
const baseURL = external ?? `http://127.0.0.1:${workerUiPorts[parallelIndex]}`;

const LONGEST_FILE = 'presenter.spec.ts';
const OWN_OPTIONS_FILE = 'security.spec.ts';
const browserUse = {
  ...devices['Desktop Chrome'],
  viewport: { width: 1400, height: 900 },
  launchOptions: {
    executablePath: chromiumPath,
    args: CHROMIUM_ARGS,
  },
};

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  fullyParallel: false,
  workers,
  retries: 0,
  reporter: 'list',
  // Hang guards, not speed checks (speed lives in `npm run bench -- ui`): at load 19 on two cores
  // a page that shows in 1 s on an idle machine took more than 10 s, and no test may fail because
  // the machine is busy. Every wait is on a condition (a role, a text, a status), never a sleep.
  timeout: 240_000,
  expect: { timeout: 30_000 },
  use: {
    baseURL,
    acceptDownloads: true,
    // No trace unless asked for: recording one (a DOM snapshot at every action and a screencast)
    // cost about a third of Chromium's CPU (measured on two presenter journeys, alternated twice:
    // 56-57 CPU-s without, 76-86 with; the runner 11-12 vs 17-19). A failure still leaves its
    // screenshot and error context; `npx playwright test --trace retain-on-failure` records traces.
    trace: 'off',
    screenshot: 'only-on-failure',
    // The journeys run as for someone who asked their system for less motion (src/styles.css
    // stops the busy indicators' animations then): on a software-rendered Chromium a spinning
    // indicator repaints 60 times a second while a model trains. Measured on models-regression and
    // model-sql, alternated twice: Chromium 34 and 27 CPU-s against 53 and 41 with motion.
    // E2E_MOTION=full runs them with motion; e2e/cancel.spec.ts checks both.
    reducedMotion: process.env.E2E_MOTION === 'full' ? 'no-preference' : 'reduce',
    viewport: { width: 1400, height: 900 },
    // The preview (vite preview) gzips every asset it serves, and a test's fresh context has no
    // cache: each page load compressed the SPA's ~5 MB of scripts again for the loopback (measured,
    // 20 loads alternated twice at load 7-8: the preview's CPU 3.15 and 2.98 s with gzip, 0.58 and
    // 0.58 s without; 21.9 s against 24.7-31.1 s for the loads). No journey is about the preview's
    // encoding; the instance compresses nothing.
    extraHTTPHeaders: { 'accept-encoding': 'identity' },
    // A worker's tests share one browser context and page, which Playwright resets between tests
    // as a fresh one: cookies, cache, local and session storage and IndexedDB of visited origins
    // cleared, service workers unregistered, extra pages closed, routes, bindings and init
    // scripts removed, emulation and viewport re-applied, the page at about:blank. Left over are
    // permissions a test grants (models-regression.spec.ts clears its own) and the tab's history
    // (no journey goes back): Playwright calls the option experimental, meant for component tests,
    // and its reset best effort. Each test then loads the app into the same renderer, whose compiled
    // code of the SPA and of axe-core is still there. The whole lane, alternated three times at
    // load 8-21: Chromium 253, 216, 294 -> 203, 205, 249 CPU-s (renderers 207, 178, 237 -> 165,
    // 165, 200; presenter.spec.ts 87, 71, 100 -> 67, 66, 77), the lane's processes with the
    // servers 391, 342, 450 -> 322, 330, 400; 79 of 79 each time. E2E_FRESH_CONTEXTS=1 gives
    // every test a context of its own, as before.
    reuseContext: process.env.E2E_FRESH_CONTEXTS !== '1',
  },
  // The lane ends when its last file does, and a file's tests run in turn on one worker (a
  // beforeAll trains the models they read, on that worker's instance). presenter.spec.ts is a
  // third of the lane's test time (118 of 376 s in the lead's run 28) and alphabetical order queued
  // it halfway: the other worker sat idle through its last ~40 s. It is queued first, as a project
  // of its own (Playwright queues the projects of a phase in this order), and the other files fill
  // the second worker meanwhile, then both. security.spec.ts comes next: it sets options of its
  // own (test.use), and Playwright queues a project's files of other options after all the
  // others, so it always ran last, alone (30 s with the other worker idle, load 14-18).
  projects: [
    { name: 'presenter', testMatch: LONGEST_FILE, use: browserUse },
    { name: 'security', testMatch: OWN_OPTIONS_FILE, use: browserUse },
    { name: 'chromium', testIgnore: [LONGEST_FILE, OWN_OPTIONS_FILE], use: browserUse },
  ],
  webServer: external
    ? undefined
    : {
        command: 'node scripts/e2e-server.mjs',
        // The auth preview starts last: when it answers, everything is up.
        url: `http://127.0.0.1:${authUiPort}/api/status`,
        env: {
          UI_PORT: String(uiPort),
          E2E_AUTH_UI_PORT: String(authUiPort),
          E2E_EXTRA_UI_PORTS: workerUiPorts.slice(1).join(','),
          // The journeys' instances share one training cache for the run, used by the models of
          // the journeys that never watch a training (e2e/reused-trainings.ts).
          ...(process.env.E2E_TRAINING_CACHE === '0'
            ? {}
            : { E2E_TRAINING_CACHE_MODELS: REUSED_TRAININGS }),
        },
        // A hang guard like the others: the production build it runs first takes several times
        // longer on a busy machine.
        timeout: 300_000,
        // scripts/test.sh starts these servers beside Vitest and sets E2E_REUSE_SERVER=1 once they answer.
        reuseExistingServer: process.env.E2E_REUSE_SERVER === '1',
        stdout: 'ignore',
        stderr: 'pipe',
        // SIGTERM, so scripts/e2e-server.mjs stops its instances and removes their DATA_DIRs and
        // the run's training cache: Playwright's default, SIGKILL to the process group, left
        // them all in the temporary folder after every run it started the servers for.
        gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
      },
});
