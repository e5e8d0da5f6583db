/**
 * The demo database of a test instance's first start, loaded once per run: a fresh DATA_DIR gets
 * a copy of the `example_db.duckdb` that a real first start wrote (./global-setup.ts), so the
 * instance opens it as it opens the demo data on every later start, and skips reading the demo
 * CSVs again (0.7 s of CPU per instance start, of 0.9 s; the suite starts instances by the
 * hundred). The load itself stays covered: the template is made by `createInstance`, and the
 * process tests start fresh DATA_DIRs of their own (crash.test.ts kills a first start during it).
 * `TEST_DEMO_TEMPLATE=0 npx vitest run` loads the CSVs in every instance (no outcome may change).
 */
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

/**
 * Puts the run's demo database into `dataDir` when that folder exists and has none yet (a fresh
 * DATA_DIR; a restart on the same folder keeps what the instance wrote). Mode 0600, as DuckDB's.
 */
export function seedDemoData(dataDir: string): void {
  if (process.env.TEST_DEMO_TEMPLATE === '0' || !fs.existsSync(dataDir)) return;
  const target = path.join(dataDir, 'example_db.duckdb');
  try {
    fs.copyFileSync(inject('demoTemplate'), target, fs.constants.COPYFILE_EXCL);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw err;
  }
  fs.chmodSync(target, 0o600);
}
