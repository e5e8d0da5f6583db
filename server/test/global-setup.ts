/**
 * Vitest's global set-up of the server tests, shared by every test process and removed at the
 * end: one training cache folder for the whole run (server/models/training-cache.ts; files opt in
 * with `trainingCache()`, ./training-cache.ts), and the demo database of a first start, which
 * every fresh test DATA_DIR starts from (./demo-template.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../config';
import { createInstance } from '../instance';
import { HITS } from '../models/training-cache';

declare module 'vitest' {
  export interface ProvidedContext {
    trainingCacheDir: string;
    /** example_db.duckdb as a real first start wrote it. */
    demoTemplate: string;
  }
}

/** Starts and stops an instance on `dataDir` (a real first start); returns its demo database. */
async function buildDemoTemplate(dataDir: string): Promise<string> {
  const instance = await createInstance(
    loadConfig({}, { DATA_DIR: dataDir, PORT: 0, TRAINING_WARMUP: false }),
  );
  // Closing checkpoints every attached file: the copy is whole, with no write-ahead log beside it.
  await instance.close();
  const file = path.join(dataDir, 'example_db.duckdb');
  if (fs.existsSync(`${file}.wal`)) throw new Error(`${file} was left with a write-ahead log`);
  return file;
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'playground-training-cache-'));
  project.provide('trainingCacheDir', dir);
  const demo = fs.mkdtempSync(path.join(os.tmpdir(), 'playground-demo-template-'));
  project.provide('demoTemplate', await buildDemoTemplate(demo));
  return () => {
    fs.rmSync(demo, { recursive: true, force: true });
    const stored = fs.readdirSync(dir).filter((f) => /^[0-9a-f]{64}$/.test(f)).length;
    let reused = 0;
    try {
      reused = fs.readFileSync(path.join(dir, HITS), 'utf8').split('\n').filter(Boolean).length;
    } catch {
      // no reuse
    }
    process.stdout.write(
      `\nTraining cache: ${reused} trainings reused, ${stored} trained and kept\n`,
    );
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
