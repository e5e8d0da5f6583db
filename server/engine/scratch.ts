/**
 * Scratch relations for batch prediction: an in-memory DuckDB catalog (`__scratch`) that every
 * connection sees, and a bulk loader that fills a table from JS columns through DuckDB's appender
 * in 2048-row data chunks. Why not a VALUES relation: parsing a 100k-row literal costs seconds;
 * the appender moves the same rows in milliseconds. Why not TEMP tables: they belong to one
 * connection, and the final query should go through `engine.query` (timeout, row cap, value
 * conversion) on a connection of its own.
 */
import crypto from 'node:crypto';
import {
  BOOLEAN,
  DOUBLE,
  DuckDBDataChunk,
  VARCHAR,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { Engine } from './duckdb';
import { quoteIdent } from './quote';
import type { JsonValue } from './values';

/** Column types a scratch table can hold. */
export type ScratchType = 'VARCHAR' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP' | 'JSON';

export const SCRATCH = '__scratch';
const CHUNK = 2048;

/** Attaches the scratch catalog (once; the engine re-attaches it on a remount). */
export function ensureScratch(engine: Engine): Promise<void> {
  return engine.attach({ name: SCRATCH, path: ':memory:' });
}

export interface ScratchTable {
  /** The bare table name (for the appender). */
  name: string;
  /** The fully-qualified, quoted name (for SQL). */
  sql: string;
}

/** A fresh scratch table name. */
export function scratchTable(prefix: string): ScratchTable {
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  return { name, sql: `${SCRATCH}.main.${quoteIdent(name)}` };
}

function duckType(t: ScratchType): DuckDBType {
  if (t === 'DOUBLE' || t === 'BIGINT') return DOUBLE;
  if (t === 'BOOLEAN') return BOOLEAN;
  return VARCHAR;
}

function toDuck(v: JsonValue | undefined, t: ScratchType): DuckDBValue {
  if (v === null || v === undefined) return null;
  if (t === 'DOUBLE' || t === 'BIGINT') {
    const n = typeof v === 'number' ? v : Number(v);
    return Number.isFinite(n) ? n : null;
  }
  if (t === 'BOOLEAN') return typeof v === 'boolean' ? v : null;
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/**
 * Creates `table` (a name from `scratchTable`) with these columns and fills it with `values`
 * (column-major, `n` rows). Rows keep their order, which batch prediction relies on for its
 * POSITIONAL JOIN.
 */
export async function loadScratchTable(
  engine: Engine,
  table: ScratchTable,
  columns: { name: string; type: ScratchType }[],
  values: JsonValue[][],
  n: number,
): Promise<void> {
  await ensureScratch(engine);
  const types = columns.map((c) => duckType(c.type));
  await engine.query(
    `CREATE TABLE ${table.sql} (${columns.map((c, i) => `${quoteIdent(c.name)} ${types[i].toString()}`).join(', ')})`,
  );
  if (n === 0) return;
  await engine.withConnection(async (conn) => {
    const appender = await conn.createAppender(table.name, 'main', SCRATCH);
    try {
      for (let off = 0; off < n; off += CHUNK) {
        const m = Math.min(CHUNK, n - off);
        const chunk = DuckDBDataChunk.create(types, m);
        for (let j = 0; j < columns.length; j++) {
          const col = new Array<DuckDBValue>(m);
          const src = values[j];
          const t = columns[j].type;
          for (let i = 0; i < m; i++) col[i] = toDuck(src[off + i], t);
          chunk.setColumnValues(j, col);
        }
        appender.appendDataChunk(chunk);
      }
      appender.flushSync();
    } finally {
      appender.closeSync();
    }
  });
}

export async function dropScratchTables(engine: Engine, tables: ScratchTable[]): Promise<void> {
  for (const t of tables)
    await engine.query(`DROP TABLE IF EXISTS ${t.sql}`).catch(() => undefined);
}
