/**
 * Relations the instance computes and hands to DuckDB (predictions, model inputs, system tables):
 * bulk loaders that fill a table from JS columns through DuckDB's appender in 2048-row data
 * chunks. Why not a VALUES relation: parsing a 100k-row literal costs seconds; the appender moves
 * the same rows in milliseconds. `loadTempTable` fills a TEMP table of one request's session (the
 * SQL layer's planner uses it: nothing outlives the request or reaches another one).
 */
import {
  BIGINT,
  BOOLEAN,
  DOUBLE,
  DuckDBDataChunk,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { EngineSession } from './session';
import { quoteIdent } from './quote';
import { heavyTurn } from './turns';
import type { JsonValue } from './values';

const CHUNK = 2048;

/** Column types a computed relation can hold. */
export type ScratchType = 'VARCHAR' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP' | 'JSON';

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
 * Creates the TEMP table `name` on a request's session (visible to that session only, dropped when
 * it ends) and fills it from JS columns (column-major, `n` rows) through the appender, in order:
 * the table's rowids are the row positions. BIGINT stays BIGINT; TIMESTAMP and JSON are loaded as
 * text (TIMESTAMP columns are then cast in place).
 */
export function loadTempTable(
  session: EngineSession,
  name: string,
  columns: { name: string; type: ScratchType }[],
  values: JsonValue[][],
  n: number,
): Promise<void> {
  return session.raw((conn) => load(conn, name, columns, values, n));
}

async function load(
  conn: DuckDBConnection,
  name: string,
  columns: { name: string; type: ScratchType }[],
  values: JsonValue[][],
  n: number,
): Promise<void> {
  if (columns.length === 0) throw new Error(`temp table ${name} needs at least one column`);
  const types = columns.map((c) => (c.type === 'BIGINT' ? BIGINT : duckType(c.type)));
  const table = `temp.main.${quoteIdent(name)}`;
  const defs = columns.map((c, i) => `${quoteIdent(c.name)} ${types[i].toString()}`);
  await conn.run(`CREATE TEMP TABLE ${quoteIdent(name)} (${defs.join(', ')})`);
  if (n > 0 && columns.length > 0) {
    const appender = await conn.createAppender(name, 'main', 'temp');
    try {
      for (let off = 0; off < n; off += CHUNK) {
        // The appender runs on the event loop's thread: other requests get a turn between
        // chunks (a million rows held it for about a second), short ones first (turns.ts).
        if (off > 0) await heavyTurn();
        const m = Math.min(CHUNK, n - off);
        const chunk = DuckDBDataChunk.create(types, m);
        for (let j = 0; j < columns.length; j++) {
          const col = new Array<DuckDBValue>(m);
          const src = values[j];
          const t = columns[j].type;
          for (let i = 0; i < m; i++)
            col[i] = t === 'BIGINT' ? toBigInt(src[off + i]) : toDuck(src[off + i], t);
          chunk.setColumnValues(j, col);
        }
        appender.appendDataChunk(chunk);
      }
      appender.flushSync();
    } finally {
      appender.closeSync();
    }
  }
  for (const c of columns) {
    if (c.type === 'TIMESTAMP') {
      await conn.run(`ALTER TABLE ${table} ALTER COLUMN ${quoteIdent(c.name)} TYPE TIMESTAMP`);
    }
  }
}

function toBigInt(v: JsonValue | undefined): DuckDBValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? BigInt(Math.trunc(v)) : null;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return BigInt(v.trim());
  if (typeof v === 'boolean') return v ? 1n : 0n;
  return null;
}
