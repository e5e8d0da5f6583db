/**
 * Vitest's global set-up of the server tests: one training cache folder for the whole run, shared
 * by every test process (server/models/training-cache.ts; files opt in with `trainingCache()`,
 * ./training-cache.ts), the folder of the run's demo database template (./demo-template.ts) and
 * that of its PostgreSQL data directory template (server/integrations/__tests__/pg-server.ts),
 * all removed at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { HITS } from '../models/training-cache';

declare module 'vitest' {
  export interface ProvidedContext {
    trainingCacheDir: string;
    /** Where the first test process that starts an instance puts example_db.duckdb. */
    demoTemplateDir: string;
    /**
     * Where the first test process that starts a PostgreSQL server puts initdb's output, which
     * every server copies (server/integrations/__tests__/pg-server.ts).
     */
    pgTemplateDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'playground-training-cache-'));
  project.provide('trainingCacheDir', dir);
  const demo = fs.mkdtempSync(path.join(os.tmpdir(), 'playground-demo-template-'));
  project.provide('demoTemplateDir', demo);
  const pgTemplate = fs.mkdtempSync(path.join(os.tmpdir(), 'playground-pg-template-'));
  // Read by the postgres user too when the tests run as root (pg-server.ts copies it as that user).
  fs.chmodSync(pgTemplate, 0o755);
  project.provide('pgTemplateDir', pgTemplate);
  return () => {
    fs.rmSync(demo, { recursive: true, force: true });
    fs.rmSync(pgTemplate, { recursive: true, force: true });
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
