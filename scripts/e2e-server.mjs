#!/usr/bin/env node
// Starts what the e2e suite (and the UI bench) drive: the REAL local instance on a free port with a
// fresh temporary DATA_DIR, then `vite build` (once per start) and `vite preview` on UI_PORT,
// proxying /api to that instance. Waits for both, prints READY, and cleans everything up on exit.
//   UI_PORT (default 4319)   E2E_SKIP_BUILD=1 reuses an existing dist/
//   E2E_AUTH_UI_PORT: also a second instance with authentication on (user e2e, password
//   e2e-password) and its own preview on that port, for the login journey.
//   E2E_EXTRA_UI_PORTS (comma-separated): one more instance and preview of the same build on each
//   port, each with its own DATA_DIR, so that Playwright's workers each drive an instance of their
//   own (playwright.config.ts: a worker's baseURL follows its parallel index).
//   E2E_SERVER_WAIT_MS (default 240000): how long each server may take to answer.
//   E2E_TRAINING_CACHE_MODELS: a regular expression of model names; the journeys' instances (not
//   the auth one) then share one training cache folder for the run (TRAINING_CACHE_DIR, removed
//   on exit), which only those models use (TRAINING_CACHE_MODELS: e2e/reused-trainings.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const uiPort = Number(process.env.UI_PORT ?? 4319);
const children = [];
const dataDirs = [];
let stopping = false;

function log(msg) {
  process.stdout.write(`[e2e-server] ${msg}\n`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// The proxy target comes from PORT: a stray INSTANCE_URL must not point the UI elsewhere.
const baseEnv = { ...process.env };
delete baseEnv.INSTANCE_URL;

function start(name, args, env) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...baseEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = (d) =>
    d
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((l) => `[${name}] ${l}\n`)
      .join('');
  child.stdout.on('data', (d) => process.stdout.write(prefix(d)));
  child.stderr.on('data', (d) => process.stderr.write(prefix(d)));
  child.on('exit', (code, signal) => {
    if (!stopping) {
      log(`${name} exited (${signal ?? code}); stopping`);
      stop(1);
    }
  });
  children.push(child);
  return child;
}

// A hang guard: on a busy machine three instances loading their demo data beside the build take
// several times longer than on an idle one. E2E_SERVER_WAIT_MS sets it: scripts/test.sh starts
// these servers at nice 19 beside Vitest, where they run only on what the other lanes leave.
async function waitFor(url, what, timeoutMs = Number(process.env.E2E_SERVER_WAIT_MS ?? 240_000)) {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    if (stopping) return;
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not answer at ${url} within ${timeoutMs} ms`);
}

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  const done = () => {
    reportTrainingCache();
    for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
    process.exit(code);
  };
  const force = setTimeout(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    done();
  }, 5000);
  force.unref();
  Promise.all(
    children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.on('exit', r)))),
  ).then(done);
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
process.on('SIGHUP', () => stop(0));

/** Starts an instance on a free port with a fresh DATA_DIR; resolves its port once it answers. */
async function startInstance(name, env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), `smp-e2e-${name}-`));
  dataDirs.push(dataDir);
  const port = await freePort();
  log(`${name} on 127.0.0.1:${port}, data in ${dataDir}`);
  start(name, ['server/launch.mjs', 'server/main.ts'], {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ...env,
  });
  return port;
}

/** Starts `vite preview` of dist/ on uiPort, proxying /api to the instance on instancePort. */
async function startPreview(name, previewPort, instancePort) {
  await waitFor(`http://127.0.0.1:${instancePort}/api/status`, `the instance behind ${name}`);
  start(
    name,
    ['node_modules/vite/bin/vite.js', 'preview', '--port', String(previewPort), '--strictPort'],
    { PORT: String(instancePort), UI_PORT: String(previewPort) },
  );
  await waitFor(`http://127.0.0.1:${previewPort}/api/status`, name);
}

/** The journeys' instances' training cache (E2E_TRAINING_CACHE_MODELS): one folder for the run. */
let trainingCacheDir = null;
function trainingCacheEnv() {
  const models = process.env.E2E_TRAINING_CACHE_MODELS;
  if (!models) return {};
  trainingCacheDir = mkdtempSync(join(tmpdir(), 'smp-e2e-training-cache-'));
  dataDirs.push(trainingCacheDir);
  return { TRAINING_CACHE_DIR: trainingCacheDir, TRAINING_CACHE_MODELS: models };
}

/** On stderr, which the e2e lane shows: how many trainings the cache saved (its hits.log). */
function reportTrainingCache() {
  if (!trainingCacheDir) return;
  let reused = 0;
  try {
    reused = readFileSync(join(trainingCacheDir, 'hits.log'), 'utf8')
      .split('\n')
      .filter(Boolean).length;
  } catch {
    // no reuse
  }
  process.stderr.write(`[e2e-server] training cache: ${reused} trainings reused\n`);
}

async function main() {
  const cacheEnv = trainingCacheEnv();
  const extraUiPorts = (process.env.E2E_EXTRA_UI_PORTS ?? '')
    .split(',')
    .filter(Boolean)
    .map(Number);
  // The instances start while the SPA builds: each loads the demo data on its first start.
  const instancePort = await startInstance('instance', cacheEnv);
  const extraInstancePorts = [];
  for (const [i] of extraUiPorts.entries())
    extraInstancePorts.push(await startInstance(`instance-${i + 1}`, cacheEnv));

  if (process.env.E2E_SKIP_BUILD !== '1' || !existsSync(join(root, 'dist/index.html'))) {
    log('vite build');
    const b = spawnSync(
      process.execPath,
      ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'],
      {
        cwd: root,
        stdio: 'inherit',
        env: { ...baseEnv, PORT: String(instancePort) },
      },
    );
    if (b.status !== 0) throw new Error('vite build failed');
  }
  await startPreview('preview', uiPort, instancePort);
  await Promise.all(
    extraUiPorts.map((p, i) => startPreview(`preview-${i + 1}`, p, extraInstancePorts[i])),
  );
  if (process.env.E2E_AUTH_UI_PORT) {
    // The login journey trains nothing: no training worker warmed up for it (1.3-1.5 CPU-s).
    const authPort = await startInstance('auth-instance', {
      AUTH_USERNAME: 'e2e',
      AUTH_PASSWORD: 'e2e-password',
      TRAINING_WARMUP: '0',
    });
    await startPreview('auth-preview', Number(process.env.E2E_AUTH_UI_PORT), authPort);
  }
  log(`READY http://127.0.0.1:${uiPort}`);
}

main().catch((e) => {
  log(`failed: ${e.message}`);
  stop(1);
});
