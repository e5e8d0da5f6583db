/**
 * POST /api/sql/classify: what a script would do, judged by the instance before anything runs
 * (the playground asks before running a shared link unless every statement only reads and none
 * is expensive or unusual). Ours only: a MindsDB server answers 404, and the playground then asks.
 */
import { z } from 'zod';
import { SqlQueryRequest } from './sql';

/** POST /api/sql/classify request: the same keys as a query, nothing runs. */
export const SqlClassifyRequest = SqlQueryRequest.pick({
  query: true,
  context: true,
  params: true,
});
export type SqlClassifyRequest = z.infer<typeof SqlClassifyRequest>;

/**
 * What one statement does: `read` (a query), `write` (changes data, models or the catalog),
 * `session` (USE and the like: only the request's context), `refused` (the instance will not run
 * it), `error` (it would fail before doing anything), `unknown` (not a query, and the instance
 * cannot tell more: treated like a write).
 */
export const StatementEffect = z.enum(['read', 'write', 'session', 'refused', 'error', 'unknown']);

export const ClassifiedStatement = z.object({
  /** The statement as written, and where it is in the script. */
  sql: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  effect: StatementEffect,
  /** What it is, as DuckDB or MindsDB's grammar names it: `SELECT`, `DELETE`, `CREATE MODEL`, ... */
  kind: z.string(),
  /** Why a link asks before running it; empty when it may run at once. */
  reasons: z.array(z.string()),
  /** The most rows any step of its plan is expected to produce (null: not estimated). */
  estimated_rows: z.number().nullable(),
  /** Rows its models are expected to predict (null: no models, or not estimated). */
  predicted_rows: z.number().nullable(),
  /** Models it reads (`project.model`). */
  models: z.array(z.string()),
});
export type ClassifiedStatement = z.infer<typeof ClassifiedStatement>;

export const Classification = z.object({
  statements: z.array(ClassifiedStatement),
  /** Every statement reads, and none is expensive or unusual. */
  run_without_asking: z.boolean(),
  /** The database the script would end in (after its USE statements). */
  context: z.object({ db: z.string() }).loose(),
});
export type Classification = z.infer<typeof Classification>;
