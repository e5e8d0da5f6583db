/**
 * Scoring in batches (issue 28): a query planned with a stream (plan/stream-plan.ts) reads its
 * data side chunk by chunk (a PostgreSQL server-side cursor, or rowid ranges of a DuckDB table)
 * into the data's TEMP table, runs the plan's later steps (the predictions of that chunk) and hands
 * each chunk's final SQL to `onChunk` (which writes or streams its rows). From PostgreSQL the
 * next chunk is fetched and loaded while the current one is predicted and written, so at most
 * three chunks are in memory at a time, whatever the table's size.
 */
import { quoteIdent } from '../../engine/quote';
import { ERROR_CODES, ServiceError } from '../../errors';
import { loadBatchIntoTemp } from '../../integrations/load';
import type { ExecContext, SqlEnv } from '../types';
import { runSteps } from './execute';
import type { ScoringJob } from './progress';
import { stepQuery } from './run-sql';
import type { PlannedQuery, Step } from './steps';

/** How long the count of a PostgreSQL source (the progress's total) may take before it is left unknown. */
const COUNT_TIMEOUT_MS = 30_000;

/** Gives the TEMP table `from` the name `to` (replacing it): a loaded chunk becomes the data. */
async function renameTemp(ctx: ExecContext, from: string, to: string): Promise<void> {
  const o = { internal: true } as const;
  await ctx.session.query(`DROP TABLE IF EXISTS temp.main.${quoteIdent(to)}`, o);
  await ctx.session.query(
    `ALTER TABLE temp.main.${quoteIdent(from)} RENAME TO ${quoteIdent(to)}`,
    o,
  );
}

const cancelled = () =>
  new ServiceError(ERROR_CODES.TIMEOUT, 'The query was cancelled by the client');

/**
 * Runs `q` (which has a `stream`) chunk by chunk of at most `batchRows` source rows, calling
 * `onChunk` once the chunk's predictions are in (run `q.sql` then); reports to `job`.
 */
export async function scoreInBatches(
  env: SqlEnv,
  ctx: ExecContext,
  q: PlannedQuery,
  batchRows: number,
  job: ScoringJob,
  onChunk: () => Promise<void>,
): Promise<void> {
  const s = q.stream;
  if (!s) throw new Error('scoreInBatches: the query was not planned to stream');
  const rows = Math.max(1, Math.floor(batchRows));
  if (s.kind === 'fetch') {
    const step = q.steps[s.step] as Extract<Step, { kind: 'fetch' }>;
    await runSteps(env, ctx, q.steps.slice(0, s.step));
    const after = q.steps.slice(s.step + 1);
    const integ = env.integrations.postgres(step.db);
    const timeoutMs = env.integrations.defaults.timeoutMs;
    // The total, counted beside the read on another connection; unknown if it is slow.
    void integ
      .query(`SELECT count(*) FROM (${step.sql}) AS __mdb_n`, {
        maxRows: 1,
        timeoutMs: Math.min(timeoutMs, COUNT_TIMEOUT_MS),
        signal: ctx.signal,
      })
      .then((r) => job.setTotal(Number(r.rows[0]?.[0])))
      .catch(() => undefined);
    let chunks = 0;
    // Two stages overlap: a chunk is loaded into `next` while the chunk before it is predicted
    // (on the prediction thread) and written; `next` then takes the data table's name. At most
    // three chunks are held: the one in its steps, the one loading, the next FETCH.
    const into = step.into;
    const next = `${into}_next`;
    let running: Promise<void> | null = null;
    const settle = async () => {
      const r = running;
      running = null;
      if (r) await r;
    };
    const read = (sql: string) =>
      integ.readBatches(
        sql,
        async (batch, columns) => {
          chunks++;
          if (ctx.signal?.aborted) throw cancelled();
          await loadBatchIntoTemp(ctx.session, next, columns, batch);
          await settle();
          if (ctx.signal?.aborted) throw cancelled();
          await renameTemp(ctx, next, into);
          const n = batch.n;
          const run = (async () => {
            await runSteps(env, ctx, after);
            await onChunk();
            job.add(n);
          })();
          // Awaited by the next chunk or at the end; not unhandled meanwhile.
          run.catch(() => undefined);
          running = run;
        },
        { chunkRows: rows, timeoutMs, signal: ctx.signal },
      );
    const readAll = async (sql: string) => {
      try {
        await read(sql);
      } catch (err) {
        // Nothing of this statement may still use the session once it has failed.
        await settle().catch(() => undefined);
        throw err;
      }
      await settle();
    };
    try {
      await readAll(step.sql);
    } catch (err) {
      // A pushed-down condition PostgreSQL reads differently: unfiltered (DuckDB filters anyway).
      const retry =
        step.unfiltered &&
        chunks === 0 &&
        !ctx.signal?.aborted &&
        !(err instanceof ServiceError && err.code === ERROR_CODES.TIMEOUT);
      if (!retry) throw err;
      await readAll(step.unfiltered!);
    }
    return;
  }
  // A DuckDB table: rowid ranges, in rowid order (the order a scan of the table returns).
  const into = `temp.main.${quoteIdent(s.into)}`;
  const bounds = await stepQuery(
    ctx,
    s.db,
    s.sql.replace(/^SELECT \* FROM /, 'SELECT min(rowid), max(rowid), count(*) FROM '),
    `counting the rows of ${s.source}`,
  );
  const [lo, hi, count] = bounds.rows[0].map((v) => (v === null ? null : Number(v)));
  job.setTotal(count ?? 0);
  if (lo === null || hi === null) return;
  for (let from = lo; from <= hi; from += rows) {
    if (ctx.signal?.aborted) throw cancelled();
    await stepQuery(ctx, undefined, `DELETE FROM ${into}`, `reading ${s.source}`);
    const r = await stepQuery(
      ctx,
      s.db,
      `INSERT INTO ${into} ${s.sql} WHERE rowid >= ${from} AND rowid < ${from + rows}`,
      `reading ${s.source}`,
    );
    const n = Number(r.affectedRows ?? 0);
    if (n === 0) continue;
    await runSteps(env, ctx, q.steps);
    await onChunk();
    job.add(n);
  }
}
