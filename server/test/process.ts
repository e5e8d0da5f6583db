/**
 * The instance as a separate OS process (`node --import tsx server/main.ts`), for tests that must
 * kill it the hard way (SIGKILL) and restart it on the same DATA_DIR.
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
  child: ChildProcess;
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
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
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
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
