/**
 * The internal SQL of a plan's steps on the request's session: replacing a step's placeholder
 * TEMP table, and the queries a step runs (their errors say what they were for).
 */
import { quoteIdent } from '../../engine/quote';
import type { QueryOptions } from '../../engine/session';
import { appendChunkColumns, type JsonValue } from '../../engine/values';
import { ServiceError } from '../../errors';
import type { ExecContext } from '../types';
import { paramsOf } from './state';

/** Drops a TEMP table of the request (a step's placeholder before the step fills it). */
export async function dropTemp(ctx: ExecContext, name: string): Promise<void> {
  await ctx.session.query(`DROP TABLE IF EXISTS temp.main.${quoteIdent(name)}`, { internal: true });
}

/** An error of a step's query, saying what the query was for (its position is generated SQL's). */
function stepError(err: unknown, what: string): unknown {
  if (!(err instanceof ServiceError)) return err;
  return new ServiceError(
    err.code,
    `${err.message.replace(/ \((statement at )?line \d+, column \d+\)$/, '')} (while ${what})`,
  );
}

/** An internal query of a step, on the request's session; errors say what it was for. */
export async function stepQuery(
  ctx: ExecContext,
  db: string | undefined,
  sql: string,
  what: string,
  o: QueryOptions = {},
) {
  try {
    return await ctx.session.query(sql, {
      db,
      signal: ctx.signal,
      params: paramsOf(sql, ctx.params),
      maxRows: Number.MAX_SAFE_INTEGER,
      maxBytes: Number.MAX_SAFE_INTEGER,
      ...o,
    });
  } catch (err) {
    throw stepError(err, what);
  }
}

/**
 * Every row of a step's query as columns, read from DuckDB's vectors chunk by chunk (values as
 * any result's, no row arrays): what `stepQuery` runs, for a scoring batch's 100k input rows.
 */
export async function stepColumns(
  ctx: ExecContext,
  db: string | undefined,
  sql: string,
  what: string,
): Promise<{ columns: string[]; values: JsonValue[][]; n: number }> {
  let columns: string[] = [];
  let values: JsonValue[][] = [];
  let n = 0;
  try {
    await ctx.session.stream(
      sql,
      {
        db,
        signal: ctx.signal,
        params: paramsOf(sql, ctx.params),
        maxRows: Number.MAX_SAFE_INTEGER,
      },
      {
        header: (names) => {
          columns = names;
          values = names.map(() => []);
        },
        rows: () => undefined,
        chunk: (c) => {
          appendChunkColumns(c, values);
          n += c.rowCount;
        },
        ok: () => undefined,
      },
    );
  } catch (err) {
    throw stepError(err, what);
  }
  return { columns, values, n };
}

/**
 * Every row of a step's own TEMP table (`sql` reads it), as columns: values converted as any
 * result's are, without a row array per row (a scoring batch reads 100k input rows this way).
 */
export function readColumns(
  ctx: ExecContext,
  sql: string,
): Promise<{ columns: string[]; values: JsonValue[][]; n: number }> {
  ctx.signal?.throwIfAborted();
  return ctx.session.raw(async (conn) => {
    const result = await conn.stream(sql);
    const columns = result.columnNames();
    const values = columns.map((): JsonValue[] => []);
    let n = 0;
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      // Read once: each read of `rowCount` is a call into the bindings (0.4 s of the event
      // loop's thread beside eight model joins, read per value).
      const rows = chunk.rowCount;
      appendChunkColumns(chunk, values);
      n += rows;
    }
    return { columns, values, n };
  });
}
