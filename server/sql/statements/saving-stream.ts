/**
 * Saving predictions of a big table in batches (`CREATE TABLE t (SELECT ... FROM big JOIN
 * model)`, `INSERT INTO t (SELECT ...)`, planned with a stream: plan/stream-plan.ts), into a
 * DuckDB table or a PostgreSQL integration. Each target is written in ONE transaction: the table
 * and every batch commit together at the end; an error or a Cancel rolls all of it back (the
 * target is as it was before the statement: no new table, no new rows, a replaced table kept).
 * Progress (rows done of total, rate, time left) is in GET /api/status while it runs.
 */
import type { DuckDBDataChunk } from '@duckdb/node-api';
import type { JsonValue } from '../../engine/values';
import { BinaryCopyWriter, binaryWriteKinds } from '../../integrations/pg-binary-write';
import { copyText } from '../../integrations/pg-values';
import { pgIdent } from '../../integrations/postgres';
import { scoreInBatches } from '../plan/stream';
import type { PlannedQuery } from '../plan/steps';
import { paramsOf } from '../plan/state';
import type { ExecContext, StatementEnv } from '../types';
import { ok, type StatementInput, type StatementOutput } from './output';

const ALL = { maxRows: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER };

/** Runs the plan's final SQL (or `prefix` + it) on the request's session, every row. */
function runFinal(ctx: ExecContext, q: PlannedQuery, sql: string) {
  return ctx.session.query(sql, {
    db: q.target.kind === 'duckdb' ? q.target.db : undefined,
    params: paramsOf(sql, ctx.params),
    signal: ctx.signal,
    sourceOffset: q.src.scriptOffset(q.rw),
    script: q.src.script,
    ...ALL,
  });
}

/**
 * Runs the plan's final SQL on the request's session, handing its answer over chunk by chunk:
 * as rows, or as DuckDB's chunks (`chunk`).
 */
function streamFinal(
  ctx: ExecContext,
  q: PlannedQuery,
  on: { rows?: (rows: JsonValue[][]) => void; chunk?: (chunk: DuckDBDataChunk) => void },
) {
  return ctx.session.stream(
    q.sql,
    {
      db: q.target.kind === 'duckdb' ? q.target.db : undefined,
      params: paramsOf(q.sql, ctx.params),
      signal: ctx.signal,
      sourceOffset: q.src.scriptOffset(q.rw),
      script: q.src.script,
      maxRows: Number.MAX_SAFE_INTEGER,
    },
    {
      header: () => undefined,
      rows: (rows) => on.rows?.(rows),
      ...(on.chunk ? { chunk: on.chunk } : {}),
      ok: () => undefined,
    },
  );
}

function startJob(env: StatementEnv, x: StatementInput, q: PlannedQuery, target: string) {
  return env.scoring.start(x.src.text.trim(), `${q.stream?.source ?? 'data'} -> ${target}`);
}

/**
 * Into the instance's DuckDB: `create` is the `CREATE ... TABLE x AS ` prefix (the table is made
 * empty from the query's columns first), or `insert` the `INSERT INTO x ... ` prefix.
 */
export async function streamToDuckDB(
  env: StatementEnv,
  x: StatementInput,
  q: PlannedQuery,
  o: { target: string; create?: string; ifNotExists?: boolean; insert?: string },
): Promise<StatementOutput> {
  const ctx = x.ctx;
  if (o.create && o.ifNotExists) {
    const exists = await runFinal(ctx, q, `SELECT * FROM ${o.target} LIMIT 0`).then(
      () => true,
      () => false,
    );
    if (exists) return ok(0, false);
  }
  const job = startJob(env, x, q, o.target);
  await ctx.session.query('BEGIN TRANSACTION', { internal: true });
  let done = false;
  try {
    if (o.create) await runFinal(ctx, q, `${o.create}SELECT * FROM (${q.sql}) AS __mdb_q LIMIT 0`);
    const insert = o.insert ?? `INSERT INTO ${o.target} `;
    let n = 0;
    await scoreInBatches(env, ctx, q, env.scoringBatchRows, job, async () => {
      const r = await runFinal(ctx, q, insert + q.sql);
      n += Number(r.affectedRows ?? 0);
    });
    await ctx.session.query('COMMIT', { internal: true });
    done = true;
    return ok(n, !!o.create);
  } finally {
    if (!done) await ctx.session.query('ROLLBACK', { internal: true }).catch(() => undefined);
    job.end();
  }
}

/** PostgreSQL's column type for a DuckDB result type. */
export function pgType(duck: string): string {
  const t = duck.toUpperCase();
  if (/^DECIMAL\(\d+,\s*\d+\)$/.test(t)) return t.replace('DECIMAL', 'numeric');
  const map: Record<string, string> = {
    BIGINT: 'bigint',
    INTEGER: 'integer',
    SMALLINT: 'smallint',
    TINYINT: 'smallint',
    HUGEINT: 'numeric',
    UBIGINT: 'numeric',
    UINTEGER: 'bigint',
    DOUBLE: 'double precision',
    FLOAT: 'real',
    BOOLEAN: 'boolean',
    DATE: 'date',
    TIMESTAMP: 'timestamp',
    'TIMESTAMP WITH TIME ZONE': 'timestamptz',
    TIME: 'time',
    JSON: 'jsonb',
    UUID: 'uuid',
  };
  return map[t] ?? 'text';
}

/**
 * Into a PostgreSQL integration's table (`table`: its quoted name): created there with matching
 * types (`create`), each batch one `COPY ... FROM STDIN`, binary when every column goes into its
 * target column's type as it is (written from DuckDB's vectors), else text (PostgreSQL parses
 * each value into its column's type), all in one transaction.
 */
export async function streamToPostgres(
  env: StatementEnv,
  x: StatementInput,
  q: PlannedQuery,
  target: { db: string; table: string; label: string },
  o: { create?: { orReplace: boolean; ifNotExists: boolean }; columns?: string[] },
): Promise<StatementOutput> {
  const ctx = x.ctx;
  const shape = await runFinal(ctx, q, `SELECT * FROM (${q.sql}) AS __mdb_q LIMIT 0`);
  const integ = env.integrations.postgres(target.db);
  const job = startJob(env, x, q, target.label);
  try {
    return await integ.writeTransaction(
      async (exec, copyIn) => {
        // COPY parses each value as an INSERT assigns it: a value too long for a varchar(n)
        // column is an error, as in PostgreSQL's own INSERT, never cut.
        const columns = o.columns ?? shape.columns;
        if (o.create) {
          if (o.create.orReplace) await exec(`DROP TABLE IF EXISTS ${target.table}`);
          const types = shape.types.map(pgType);
          const defs = shape.columns.map((c, i) => `${pgIdent(c)} ${types[i]}`);
          await exec(
            `CREATE TABLE ${o.create.ifNotExists ? 'IF NOT EXISTS ' : ''}${target.table} (${defs.join(', ')})`,
          );
        }
        const width = Math.min(columns.length, shape.columns.length);
        const names = columns.slice(0, width).map(pgIdent).join(', ');
        // Binary when every column goes into its target's type as it is (pg-binary-write.ts),
        // else text: PostgreSQL casts each value as an INSERT would.
        // (The target's column types from the catalog: a query that fails would end the
        // transaction before COPY could say what is wrong, in PostgreSQL's words.)
        const attrs = await exec(
          'SELECT attname, atttypid::int FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped',
          [target.table],
        );
        const oids = new Map(attrs.rows.map((r) => [String(r[0]), Number(r[1])]));
        const kinds = binaryWriteKinds(
          shape.types.slice(0, width),
          columns.slice(0, width).map((c) => oids.get(c) ?? 0),
        );
        const copy = `COPY ${target.table} (${names}) FROM STDIN${kinds ? ' (FORMAT binary)' : ''}`;
        let n = 0;
        // A batch's COPY runs in PostgreSQL while the next batch is read and predicted here
        // (one COPY in flight at most: its rows are the only batch held beside the current one).
        let pending: Promise<number> | null = null;
        const settle = async () => {
          if (pending) n += await pending;
          pending = null;
        };
        await scoreInBatches(env, ctx, q, env.scoringBatchRows, job, async () => {
          // The batch's answer from DuckDB's chunks: written from the vectors (binary) or as
          // COPY text (no row array for the batch either way).
          let data: string | Buffer[];
          if (kinds) {
            const writer = new BinaryCopyWriter(kinds);
            await streamFinal(ctx, q, { chunk: (c) => writer.push(c) });
            if (writer.rows === 0) return;
            data = writer.finish();
          } else {
            const parts: string[] = [];
            await streamFinal(ctx, q, { rows: (rows) => void parts.push(copyText(rows, width)) });
            if (parts.length === 0) return;
            data = parts.length === 1 ? parts[0] : parts.join('');
          }
          await settle();
          const sent = copyIn(copy, data);
          // Rejections surface at the next settle (or the last); not unhandled meanwhile.
          sent.catch(() => undefined);
          pending = sent;
        });
        await settle();
        return ok(n, !!o.create);
      },
      { timeoutMs: env.integrations.defaults.timeoutMs, signal: ctx.signal },
    );
  } finally {
    job.end();
  }
}
