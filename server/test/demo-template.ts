/**
 * The demo database of a test instance's first start, loaded once per run: a fresh DATA_DIR gets
 * a copy of the `example_db.duckdb` that a real first start wrote, so the instance opens it as it
 * opens the demo data on every later start, and skips reading the demo CSVs again (0.7 s of CPU
 * of an in-process start's 0.9 s; the suite starts instances by the hundred). The first test
 * process that needs it starts an instance to make it, into the run's folder (./global-setup.ts);
 * files that start no instance pay nothing. The load itself stays covered: the template is made
 * by `createInstance`, and crash.test.ts kills a process's first start during it.
 * `TEST_DEMO_TEMPLATE=0 npx vitest run` loads the CSVs in every instance (no outcome may change).
 */
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
// The names `inject` reads are declared with the set-up that provides them (any program that
// compiles this file, the bench's too, sees them).
import type {} from './global-setup';
import { loadConfig } from '../config';
import { createInstance } from '../instance';
import { runTemplate } from './run-template';

const DEMO_FILE = 'example_db.duckdb';

let made: Promise<string> | null = null;

/** The run's template, made by a first start unless a test process already made it. */
function makeTemplate(): Promise<string> {
  return runTemplate(inject('demoTemplateDir'), DEMO_FILE, async (dataDir) => {
    const instance = await createInstance(
      loadConfig({}, { DATA_DIR: dataDir, PORT: 0, TRAINING_WARMUP: false }),
    );
    // Closing checkpoints every attached file: the copy is whole, with no write-ahead log.
    await instance.close();
    const built = path.join(dataDir, DEMO_FILE);
    if (fs.existsSync(`${built}.wal`)) throw new Error(`${built} was left with a write-ahead log`);
    return built;
  });
}

/**
 * Puts the run's demo database into `dataDir` when that folder exists and has none yet (a fresh
 * DATA_DIR; a restart on the same folder keeps what the instance wrote). Mode 0600, as DuckDB's.
 */
export async function seedDemoData(dataDir: string): Promise<void> {
  // Outside Vitest (the benches start instances through the harness too) there is no run's
  // folder to `inject`: the instance loads the demo CSVs itself, as a real first start does.
  if (!process.env.VITEST || process.env.TEST_DEMO_TEMPLATE === '0' || !fs.existsSync(dataDir))
    return;
  const target = path.join(dataDir, DEMO_FILE);
  if (fs.existsSync(target)) return;
  made ??= makeTemplate();
  fs.copyFileSync(await made, target, fs.constants.COPYFILE_EXCL);
  fs.chmodSync(target, 0o600);
}
