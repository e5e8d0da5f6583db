/**
 * The instance as a separate OS process (`node server/launch.mjs server/main.ts`: the supervisor, which
 * runs the instance in a child process), for tests that must kill it the hard way (SIGKILL) and
 * restart it on the same DATA_DIR, or crash the instance process under its supervisor.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface InstanceProcess {
  url: string;
  /** The supervisor's process. */
  child: ChildProcess;
  /** The pid of the instance process the supervisor runs now. */
  instancePid(): number;
  output(): string;
  sql(query: string, extra?: Record<string, unknown>): Promise<any>;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export async function spawnInstance(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<InstanceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['server/launch.mjs', 'server/main.ts'], {
    cwd: ROOT,
    // No warm-up training unless the test asks for it, as ./harness.ts: it starts after 3 s
    // without a request, a pause a busy machine can make in the middle of a test.
    env: {
      ...process.env,
      TRAINING_WARMUP: '0',
      ...env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`instance exited (${code}) before listening:\n${out}`));
    child.once('exit', onExit);
    const check = () => {
      if (out.includes('listening on')) {
        child.off('exit', onExit);
        resolve();
      } else setTimeout(check, 50);
    };
    check();
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const instancePid = () => {
    const all = [...out.matchAll(/Instance process (\d+) started/g)];
    if (all.length === 0) throw new Error(`no instance process started:\n${out}`);
    return Number(all[all.length - 1][1]);
  };
  return {
    url,
    child,
    output: () => out,
    async sql(query, extra = {}) {
      const res = await fetch(`${url}/api/sql/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, ...extra }),
      });
      return res.json();
    },
    instancePid,
    async kill9() {
      // Both: the supervisor first (so it cannot answer for the instance), then the instance,
      // which holds DuckDB's lock until it is gone.
      const pid = instancePid();
      child.kill('SIGKILL');
      process.kill(pid, 'SIGKILL');
      await exited;
      await gone(pid);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Resolves once process `pid` no longer exists. */
async function gone(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}
