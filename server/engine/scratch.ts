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
  // Columns without a single value (a model join's prediction columns its statement never reads:
  // six of seven in a plain join) are not written value by value on this thread (each null is a
  // bit set through BigInts in the bindings: a second of the event loop's thread beside eight
  // joins): the others are appended to a staging table and DuckDB adds the nulls.
  const empty = columns.map((_, j) => n > 0 && allNull(values[j], n));
  if (!empty.some(Boolean) || empty.every(Boolean)) {
    await create(conn, name, columns, types);
    await append(conn, name, columns, types, values, n);
    for (const c of columns) {
      if (c.type === 'TIMESTAMP') {
        await conn.run(
          `ALTER TABLE temp.main.${quoteIdent(name)} ALTER COLUMN ${quoteIdent(c.name)} TYPE TIMESTAMP`,
        );
      }
    }
    return;
  }
  const staging = `${name}__values`;
  const kept = columns.filter((_, j) => !empty[j]);
  const keptTypes = types.filter((_, j) => !empty[j]);
  await create(conn, staging, kept, keptTypes);
  try {
    await append(
      conn,
      staging,
      kept,
      keptTypes,
      values.filter((_, j) => !empty[j]),
      n,
    );
    const list = columns.map((c, j) => {
      const type = c.type === 'TIMESTAMP' ? 'TIMESTAMP' : types[j].toString();
      const value = empty[j] ? 'NULL' : quoteIdent(c.name);
      return `CAST(${value} AS ${type}) AS ${quoteIdent(c.name)}`;
    });
    // In rowid order: the table's rowids stay the row positions.
    await conn.run(
      `CREATE TEMP TABLE ${quoteIdent(name)} AS SELECT ${list.join(', ')} FROM temp.main.${quoteIdent(staging)} ORDER BY rowid`,
    );
  } finally {
    await conn.run(`DROP TABLE IF EXISTS temp.main.${quoteIdent(staging)}`);
  }
}

async function create(
  conn: DuckDBConnection,
  name: string,
  columns: { name: string; type: ScratchType }[],
  types: DuckDBType[],
): Promise<void> {
  const defs = columns.map((c, i) => `${quoteIdent(c.name)} ${types[i].toString()}`);
  await conn.run(`CREATE TEMP TABLE ${quoteIdent(name)} (${defs.join(', ')})`);
}

/** Appends the rows in order: the table's rowids are the row positions. */
async function append(
  conn: DuckDBConnection,
  name: string,
  columns: { name: string; type: ScratchType }[],
  types: DuckDBType[],
  values: JsonValue[][],
  n: number,
): Promise<void> {
  if (n === 0) return;
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

function allNull(values: readonly JsonValue[], n: number): boolean {
  for (let i = 0; i < n; i++) if (values[i] !== null && values[i] !== undefined) return false;
  return true;
}

function toBigInt(v: JsonValue | undefined): DuckDBValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? BigInt(Math.trunc(v)) : null;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return BigInt(v.trim());
  if (typeof v === 'boolean') return v ? 1n : 0n;
  return null;
}
