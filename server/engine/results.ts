/**
 * Reading a DuckDB result: converted to JSON-safe rows under the row and byte caps, or streamed
 * chunk by chunk to a sink that may push back.
 *
 * Every early end is an error or `truncated: true`, never a quiet success: after an interrupt
 * (the statement timeout, a cancel) DuckDB's streaming result simply runs dry, which looks exactly
 * like the end of the rows, so reading stops as soon as `ReadControl.ended()` says the statement
 * was ended and the session reports why (session.ts). The caps set `truncated`. `readHooks` lets
 * tests end a statement at each point of reading (before the first chunk, between chunks, inside a
 * chunk), bound by work rather than the clock.
 */
import { ResultReturnType, type DuckDBDataChunk, type DuckDBResult } from '@duckdb/node-api';
import { jsonSize, toJsonValue, type JsonValue } from './values';

export interface EngineResult {
  kind: 'table' | 'ok';
  /** DuckDB's kind of the statement that ran (`CREATE`, `DROP`, `SELECT`, ...). */
  statementType?: string;
  columns: string[];
  types: string[];
  rows: JsonValue[][];
  truncated: boolean;
  affectedRows: number | null;
}

export interface StreamSink {
  header(columns: string[], types: string[]): Promise<void> | void;
  rows(rows: JsonValue[][]): Promise<void> | void;
  /**
   * Takes each chunk as DuckDB's vectors instead of `rows` (no row arrays, no converted values:
   * a scoring batch reads its input columns and writes PostgreSQL's binary COPY this way). Whole
   * chunks: `maxRows` is checked between them.
   */
  chunk?(chunk: DuckDBDataChunk): Promise<void> | void;
  ok(affectedRows: number | null, statementType?: string): Promise<void> | void;
}

/** What a streamed statement returned. */
export interface StreamSummary {
  rowCount: number;
  truncated: boolean;
  statementType: string;
}

/** How a read learns that its statement was ended (timed out, cancelled, interrupted). */
export interface ReadControl {
  /** Rejects when the statement is ended (for waits outside DuckDB, such as a slow reader). */
  abort: Promise<never>;
  /** Whether the statement was ended: reading stops, and the session says why. */
  ended(): boolean;
  /** Ends the statement as its timeout, a cancel or an interrupt from elsewhere would. */
  end(why: EarlyEnd): void;
  /** The SQL being read (for `readHooks`). */
  sql: string;
}

export type EarlyEnd = 'timeout' | 'cancel' | 'interrupt';

/** A point of reading a result: before the first chunk, after chunk `chunk`, or inside it. */
export interface ReadPoint {
  at: 'before-first' | 'between' | 'inside';
  chunk: number;
}

/** Tests only: called at every point of reading `sql`; `end` ends the statement there. */
export const readHooks: {
  point?: (p: ReadPoint, end: (why: EarlyEnd) => void, sql: string) => void;
} = {};

/** The statement was ended: stop reading (the session turns this into the right error). */
export class ReadEnded extends Error {
  constructor() {
    super('the statement was ended while its result was read');
  }
}

function checkpoint(ctl: ReadControl, p: ReadPoint): void {
  readHooks.point?.(p, (why) => ctl.end(why), ctl.sql);
  if (ctl.ended()) throw new ReadEnded();
}

/** Rejects when `abort` does; otherwise settles like `p`. */
function raced<T>(p: Promise<T> | T, abort: Promise<never>): Promise<T> {
  return Promise.race([Promise.resolve(p), abort]);
}

/** The result of a statement that returns no rows. */
function okResult(statementType: string, affectedRows: number | null): EngineResult {
  return {
    kind: 'ok',
    statementType,
    columns: [],
    types: [],
    rows: [],
    truncated: false,
    affectedRows,
  };
}

/** A statement's result, converted: at most `maxRows` rows and `maxBytes` of row data. */
export async function readResult(
  result: DuckDBResult,
  statementType: string,
  maxRows: number,
  maxBytes: number,
  ctl: ReadControl,
): Promise<EngineResult> {
  if (result.returnType === ResultReturnType.CHANGED_ROWS) {
    // DuckDB reports the count as a one-row "Count" result for INSERT/UPDATE/DELETE.
    const chunk = await result.fetchChunk();
    const count =
      chunk && chunk.rowCount > 0 ? Number(chunk.getColumnValues(0)[0]) : result.rowsChanged;
    return okResult(statementType, count);
  }
  if (result.returnType !== ResultReturnType.QUERY_RESULT) return okResult(statementType, null);
  const columns = result.columnNames();
  const colTypes = result.columnTypes();
  const rows: JsonValue[][] = [];
  let bytes = 0;
  let truncated = false;
  for (let index = 0; ; index++) {
    checkpoint(
      ctl,
      index === 0 ? { at: 'before-first', chunk: 0 } : { at: 'between', chunk: index - 1 },
    );
    const chunk = await result.fetchChunk();
    if (ctl.ended()) throw new ReadEnded();
    if (!chunk || chunk.rowCount === 0) break;
    if (rows.length >= maxRows) {
      truncated = true;
      break;
    }
    // Row by row, so a result of huge values stops at the byte cap before the rest of the
    // chunk is ever converted to JS strings.
    const vectors = columns.map((_, c) => chunk.getColumnVector(c));
    const n = chunk.rowCount;
    const middle = n >> 1;
    let r = 0;
    for (; r < n && rows.length < maxRows; r++) {
      if (r === middle) checkpoint(ctl, { at: 'inside', chunk: index });
      const row = new Array<JsonValue>(vectors.length);
      let size = 2 + vectors.length;
      for (let c = 0; c < vectors.length; c++) {
        const v = vectors[c];
        const value = toJsonValue(v.getItem(r), v.type, toJsonValue) ?? null;
        row[c] = value;
        size += jsonSize(value);
      }
      if (bytes + size > maxBytes) break;
      bytes += size;
      rows.push(row);
    }
    if (r < n) {
      truncated = true;
      break;
    }
  }
  return {
    kind: 'table',
    statementType,
    columns,
    types: colTypes.map((t) => t.toString()),
    rows,
    truncated,
    affectedRows: null,
  };
}

/**
 * Streams a result's rows to `sink` chunk by chunk without holding the whole result. Waits for
 * `sink` (backpressure) but not past `abort` (the statement's timeout or cancellation); stops
 * after `maxRows` and reports truncation.
 */
export async function streamResult(
  result: DuckDBResult,
  statementType: string,
  sink: StreamSink,
  ctl: ReadControl,
  maxRows: number,
): Promise<StreamSummary> {
  const { abort } = ctl;
  if (result.returnType !== ResultReturnType.QUERY_RESULT) {
    const chunk =
      result.returnType === ResultReturnType.CHANGED_ROWS ? await result.fetchChunk() : null;
    const count = chunk && chunk.rowCount > 0 ? Number(chunk.getColumnValues(0)[0]) : null;
    await raced(sink.ok(count, statementType), abort);
    return { rowCount: 0, truncated: false, statementType };
  }
  await raced(
    sink.header(
      result.columnNames(),
      result.columnTypes().map((t) => t.toString()),
    ),
    abort,
  );
  let rowCount = 0;
  let truncated = false;
  for (let index = 0; ; index++) {
    checkpoint(
      ctl,
      index === 0 ? { at: 'before-first', chunk: 0 } : { at: 'between', chunk: index - 1 },
    );
    const chunk = await result.fetchChunk();
    if (ctl.ended()) throw new ReadEnded();
    if (!chunk || chunk.rowCount === 0) break;
    if (rowCount >= maxRows) {
      truncated = true;
      break;
    }
    if (sink.chunk) {
      checkpoint(ctl, { at: 'inside', chunk: index });
      rowCount += chunk.rowCount;
      await raced(sink.chunk(chunk), abort);
      continue;
    }
    const cols = chunk.convertColumns(toJsonValue);
    const take = Math.min(chunk.rowCount, maxRows - rowCount);
    const rows: JsonValue[][] = new Array(take);
    for (let r = 0; r < take; r++) {
      const row = new Array<JsonValue>(cols.length);
      for (let c = 0; c < cols.length; c++) row[c] = cols[c][r] ?? null;
      rows[r] = row;
    }
    // The chunk is converted and not yet sent.
    checkpoint(ctl, { at: 'inside', chunk: index });
    rowCount += take;
    await raced(sink.rows(rows), abort);
    if (take < chunk.rowCount) {
      truncated = true;
      break;
    }
  }
  return { rowCount, truncated, statementType };
}
