/**
 * Copies the rows of a PostgreSQL query into a TEMP table of the request's engine session, chunk
 * by chunk, so DuckDB can join them with local tables and models. Rows stream from PostgreSQL's
 * binary COPY, decoded into typed columns (pg-binary.ts), straight into DuckDB's appender: at
 * most one chunk is in JS memory, whatever the table's size. The table lives as long as the
 * request and no other request sees it.
 *
 * Like server/engine/scratch.ts this touches DuckDB objects outside server/engine (the appender
 * has no Engine wrapper). Date and time columns are loaded as text and cast in place once the rows
 * are in, since the appender wants DuckDB's own value classes for them.
 */
import {
  BIGINT,
  BOOLEAN,
  DOUBLE,
  INTEGER,
  VARCHAR,
  DuckDBDataChunk,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { EngineSession } from '../engine/session';
import type { JsonValue } from '../engine/values';
import { ERROR_CODES, ServiceError } from '../errors';
import { quoteIdent } from '../engine/quote';
import type { BatchColumn, ColumnBatch } from './pg-binary';
import { duckStorage } from './pg-values';
import type { PostgresIntegration, RemoteColumn } from './postgres';

/** DuckDB's vector size: the most rows one data chunk holds. */
const VECTOR = 2048;

/** Rows a join may copy from PostgreSQL; more is an error that suggests filtering remotely. */
const MAX_MATERIALIZED_ROWS = 5_000_000;

const LOAD_TYPES: Record<string, DuckDBType> = { INTEGER, BIGINT, DOUBLE, BOOLEAN, VARCHAR };

function toDuck(v: JsonValue, load: string): DuckDBValue {
  if (v === null || v === undefined) return null;
  switch (load) {
    case 'INTEGER':
    case 'DOUBLE':
      return typeof v === 'number' ? v : Number(v);
    case 'BIGINT':
      return typeof v === 'number' ? BigInt(v) : BigInt(String(v));
    case 'BOOLEAN':
      return Boolean(v);
    default:
      return typeof v === 'string' ? v : JSON.stringify(v);
  }
}

/** Makes column names unique (a join inside the remote query may return `id` twice). */
function uniqueNames(columns: RemoteColumn[]): string[] {
  const seen = new Map<string, number>();
  return columns.map((c) => {
    const key = c.name.toLowerCase();
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return n === 0 ? c.name : `${c.name}_${n}`;
  });
}

/**
 * The columns (names and DuckDB types) `loadRemoteIntoTemp` gives the TEMP table of a query
 * with these PostgreSQL columns: what a plan binds against before the rows are read.
 */
export function remoteTempColumns(columns: RemoteColumn[]): { name: string; type: string }[] {
  const names = uniqueNames(columns);
  return columns.map((c, i) => {
    const s = duckStorage(c.oid);
    return { name: names[i], type: s.cast ?? s.load };
  });
}

/** Loads the rows of `sql` (PostgreSQL's dialect) into the new TEMP table `name`; returns the count. */
export function loadRemoteIntoTemp(
  session: EngineSession,
  integ: PostgresIntegration,
  sql: string,
  name: string,
  o: { timeoutMs: number; signal?: AbortSignal; maxRows?: number },
): Promise<number> {
  return session.raw((conn) => loadInto(conn, integ, sql, name, o));
}

async function loadInto(
  conn: DuckDBConnection,
  integ: PostgresIntegration,
  sql: string,
  name: string,
  o: { timeoutMs: number; signal?: AbortSignal; maxRows?: number },
): Promise<number> {
  const maxRows = o.maxRows ?? MAX_MATERIALIZED_ROWS;
  let table: TempLoad | null = null;
  const tooMany = () =>
    new ServiceError(
      ERROR_CODES.TOO_LARGE,
      `The query on '${integ.name}' returns more than ${maxRows} rows to join locally; filter it in PostgreSQL (WHERE, or a native query), or save the predictions with CREATE TABLE / INSERT INTO, which score in batches`,
    );
  let loaded = 0;
  const { columns } = await integ.readBatches(
    sql,
    async (batch, cols) => {
      loaded += batch.n;
      if (loaded > maxRows) throw tooMany();
      table ??= await TempLoad.create(conn, name, cols);
      await table.appendBatch(batch);
    },
    { timeoutMs: o.timeoutMs, signal: o.signal, chunkRows: 10_000 },
  );
  table ??= await TempLoad.create(conn, name, columns);
  await table.finish();
  return loaded;
}

/**
 * Replaces the request's TEMP table `name` with a batch of typed columns of a PostgreSQL query
 * (one chunk of a scoring stream, read by `readBatches`), typed as `loadRemoteIntoTemp` types them.
 */
export function loadBatchIntoTemp(
  session: EngineSession,
  name: string,
  columns: RemoteColumn[],
  batch: ColumnBatch,
): Promise<void> {
  return session.raw(async (conn) => {
    await conn.run(`DROP TABLE IF EXISTS temp.main.${quoteIdent(name)}`);
    const t = await TempLoad.create(conn, name, columns);
    await t.appendBatch(batch);
    await t.finish();
  });
}

/** The value of row `i` of a decoded column, as the appender takes it for load type `load`. */
function cell(c: BatchColumn, i: number, load: string): DuckDBValue {
  switch (c.kind) {
    case 'text':
      return c.values[i];
    case 'json':
      return toDuck(c.values[i], load);
    case 'boolean':
      return c.nulls?.[i] ? null : c.values[i] === 1;
    default:
      return c.nulls?.[i] ? null : c.values[i];
  }
}

/** A TEMP table being filled through DuckDB's appender, cast to its final types at the end. */
class TempLoad {
  private constructor(
    private readonly conn: DuckDBConnection,
    private readonly name: string,
    private readonly columns: RemoteColumn[],
    private readonly names: string[],
    private readonly loads: string[],
  ) {}

  static async create(conn: DuckDBConnection, name: string, columns: RemoteColumn[]) {
    const names = uniqueNames(columns);
    const loads = columns.map((c) => duckStorage(c.oid).load);
    const cols = names.map((n, i) => `${quoteIdent(n)} ${loads[i]}`).join(', ');
    await conn.run(`CREATE TEMP TABLE ${quoteIdent(name)} (${cols})`);
    return new TempLoad(conn, name, columns, names, loads);
  }

  /** Appends decoded columns straight into the chunks' vectors (no row arrays). */
  async appendBatch(batch: ColumnBatch): Promise<void> {
    const types = this.loads.map((l) => LOAD_TYPES[l]);
    const appender = await this.conn.createAppender(this.name, 'main', 'temp');
    try {
      for (let off = 0; off < batch.n; off += VECTOR) {
        const m = Math.min(VECTOR, batch.n - off);
        const chunk = DuckDBDataChunk.create(types, m);
        for (let j = 0; j < types.length; j++) {
          const vector = chunk.getColumnVector(j);
          const c = batch.columns[j];
          const load = this.loads[j];
          for (let i = 0; i < m; i++) vector.setItem(i, cell(c, off + i, load));
          vector.flush();
        }
        appender.appendDataChunk(chunk);
      }
      appender.flushSync();
    } finally {
      appender.closeSync();
    }
  }

  /** Date and time columns, loaded as text, cast in place. */
  async finish(): Promise<void> {
    for (let j = 0; j < this.columns.length; j++) {
      const cast = duckStorage(this.columns[j].oid).cast;
      if (cast)
        await this.conn.run(
          `ALTER TABLE temp.main.${quoteIdent(this.name)} ALTER COLUMN ${quoteIdent(this.names[j])} TYPE ${cast}`,
        );
    }
  }
}
