/**
 * Test harness: a real instance on a real loopback port with a fresh temporary DATA_DIR, and a
 * tiny JSON client for it. Tests talk HTTP to it exactly as the playground and curl do.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../config';
import { buildApp, silentLogger } from '../http/app';
import { createInstance, type Instance } from '../instance';
import { seedDemoData } from './demo-template';

export interface Harness {
  url: string;
  dataDir: string;
  instance: Instance;
  app: FastifyInstance;
  post(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any }>;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  sql(query: string, extra?: Record<string, unknown>): Promise<any>;
  close(opts?: { keepData?: boolean }): Promise<void>;
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'playground-test-'));
}

/**
 * An instance in this process without HTTP (tests that call its services directly), on a fresh
 * DATA_DIR that starts from the run's demo database (./demo-template.ts), or on `dataDir` as
 * that folder is.
 */
export async function openInstance(
  overrides: Partial<Config> = {},
  dataDir = tempDataDir(),
): Promise<Instance> {
  await seedDemoData(dataDir);
  // No warm-up training (1-2 s of CPU per instance) unless a test asks for it: the suite starts
  // dozens of instances on two cores (server/models/__tests__/trainer.test.ts covers it).
  return createInstance(
    loadConfig({}, { DATA_DIR: dataDir, PORT: 0, TRAINING_WARMUP: false, ...overrides }),
  );
}

export async function startHarness(
  overrides: Partial<Config> = {},
  dataDir = tempDataDir(),
): Promise<Harness> {
  const instance = await openInstance(overrides, dataDir);
  const app = await buildApp(instance, silentLogger, { forceCloseConnections: true });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const request = async (
    method: string,
    p: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await fetch(address + p, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // keep text
    }
    return { status: res.status, body: parsed as any };
  };
  return {
    url: address,
    dataDir,
    instance,
    app,
    post: (p, body, headers) => request('POST', p, body, headers),
    get: (p, headers) => request('GET', p, undefined, headers),
    async sql(query, extra = {}) {
      const r = await request('POST', '/api/sql/query', { query, ...extra });
      return r.body;
    },
    async close(opts = {}) {
      await app.close();
      await instance.close();
      if (!opts.keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs SQL that must succeed; an error answer throws with the statement. */
export async function sqlOk(
  h: Harness,
  query: string,
): Promise<{ column_names: string[]; data: unknown[][] }> {
  const r = await h.sql(query);
  if (r.type === 'error') throw new Error(`${r.error_message}\n in: ${query}`);
  return r;
}

export { pollPause, waitComplete, waitForModel } from './models';
