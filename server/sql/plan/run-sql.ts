/**
 * The internal SQL of a plan's steps on the request's session: replacing a step's placeholder
 * TEMP table, and the queries a step runs (their errors say what they were for).
 */
import { quoteIdent } from '../../engine/quote';
import type { QueryOptions } from '../../engine/session';
import { toJsonValue, type JsonValue } from '../../engine/values';
import { ServiceError } from '../../errors';
import type { ExecContext } from '../types';
import { paramsOf } from './state';

/** Drops a TEMP table of the request (a step's placeholder before the step fills it). */
export async function dropTemp(ctx: ExecContext, name: string): Promise<void> {
  await ctx.session.query(`DROP TABLE IF EXISTS temp.main.${quoteIdent(name)}`, { internal: true });
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
    if (err instanceof ServiceError) {
      throw new ServiceError(
        err.code,
        `${err.message.replace(/ \((statement at )?line \d+, column \d+\)$/, '')} (while ${what})`,
      );
    }
    throw err;
  }
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
      const cols = chunk.convertColumns(toJsonValue);
      for (let j = 0; j < cols.length; j++) {
        const src = cols[j];
        const dst = values[j];
        for (let i = 0; i < rows; i++) dst.push(src[i] ?? null);
      }
      n += rows;
    }
    return { columns, values, n };
  });
}
