/**
 * Helpers for the model tests: a real instance on a temporary DATA_DIR, SQL that must succeed or
 * must fail with a given code, and waiting for a training the way clients do it (polling the
 * models table), with a generous cap instead of timing assertions.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ErrorPosition } from '../../errors';
import type { Config } from '../../config';
import type { Instance } from '../../instance';
import { openInstance } from '../../test/harness';

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'models-test-'));
}

export async function open(
  dataDir = tempDir(),
  overrides: Partial<Config> = {},
): Promise<Instance> {
  // The harness's instance: the run's demo database copied into a fresh DATA_DIR, no warm-up
  // training unless a test asks for it (server/test/harness.ts).
  return openInstance(overrides, dataDir);
}

export type Table = { column_names: string[]; data: any[][]; column_types?: string[] };

/** Runs SQL that must succeed; returns the table (or ok) result. */
export async function run(
  inst: Instance,
  query: string,
  db?: string,
): Promise<Table & { type: string }> {
  const r: any = await inst.sql.execute({ query, db });
  if (r.type === 'error')
    throw new Error(`SQL failed (${r.error_code}): ${r.error_message}\n  in: ${query}`);
  return r;
}

/** Runs SQL that must fail; returns code and message. */
export async function fails(
  inst: Instance,
  query: string,
  db?: string,
): Promise<{ code: number; message: string; position?: ErrorPosition }> {
  const r: any = await inst.sql.execute({ query, db });
  if (r.type !== 'error')
    throw new Error(`expected an error from: ${query}\n  got: ${JSON.stringify(r).slice(0, 300)}`);
  return { code: r.error_code, message: r.error_message, position: r.error_position };
}

/** Rows as objects keyed by column name. */
export function objects(t: Table): Record<string, any>[] {
  return t.data.map((row) => Object.fromEntries(t.column_names.map((c, i) => [c, row[i]])));
}

export { pollPause, waitForModel } from '../../test/models';

export function r2(truth: number[], pred: number[]): number {
  const mean = truth.reduce((a, b) => a + b, 0) / truth.length;
  let ssRes = 0;
  let ssTot = 0;
  truth.forEach((y, i) => {
    ssRes += (y - pred[i]) ** 2;
    ssTot += (y - mean) ** 2;
  });
  return 1 - ssRes / ssTot;
}
