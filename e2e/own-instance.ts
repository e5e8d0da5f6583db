/**
 * A real instance and `vite preview` of the built SPA that one spec owns, so it can stop and
 * restart the instance (the shared one started by scripts/e2e-server.mjs must stay up). Uses the
 * dist/ that the e2e web server built; ports come from the OS.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, timeoutMs = 60_000) {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

export interface OwnInstance {
  /** The preview's URL (proxying /api to the instance). */
  url: string;
  stopInstance(): Promise<void>;
  startInstance(): Promise<void>;
  close(): Promise<void>;
}

export async function startOwnInstance(): Promise<OwnInstance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'smp-e2e-own-'));
  const [instancePort, uiPort] = [await freePort(), await freePort()];
  // The spec that owns it stops and restarts it and trains nothing: no training worker warmed up
  // at each start (1.3-1.5 CPU-s).
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(instancePort),
    UI_PORT: '',
    TRAINING_WARMUP: '0',
  };
  delete env.INSTANCE_URL;
  let instance: ChildProcess | undefined;
  const startInstance = async () => {
    instance = spawn(process.execPath, ['server/launch.mjs', 'server/main.ts'], {
      cwd: root,
      env: { ...env, HOST: '127.0.0.1', DATA_DIR: dataDir },
      stdio: 'ignore',
    });
    await waitFor(`http://127.0.0.1:${instancePort}/api/status`);
  };
  await startInstance();
  const preview = spawn(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'preview', '--port', String(uiPort), '--strictPort'],
    { cwd: root, env, stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${uiPort}`;
  await waitFor(`${url}/api/status`);
  return {
    url,
    stopInstance: () => stopChild(instance),
    startInstance,
    async close() {
      await Promise.all([stopChild(instance), stopChild(preview)]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
