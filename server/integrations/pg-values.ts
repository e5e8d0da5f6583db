/**
 * PostgreSQL values in the wire contract's JSON-safe shapes (the same rules as
 * server/engine/values.ts applies to DuckDB), and PostgreSQL column types named the way DuckDB
 * names them, so a result from an integration looks exactly like one from the engine.
 *
 * Why custom parsers instead of pg's defaults: pg turns DATE/TIMESTAMP into JS Dates (shifted by
 * the Node process's time zone, and losing microseconds), int8 into strings even when small, and
 * NUMERIC into strings. The text format PostgreSQL sends (DateStyle ISO, TimeZone UTC, both fixed
 * per session by the pool) already is the contract's shape for dates and times.
 */
import type { JsonValue } from '../engine/values';
import { pgLib } from './pg-lib';

/** PostgreSQL type OIDs (pg_type.oid) we treat specially. */
const OID = {
  BOOL: 16,
  BYTEA: 17,
  INT8: 20,
  INT2: 21,
  INT4: 23,
  TEXT: 25,
  OID: 26,
  JSON: 114,
  FLOAT4: 700,
  FLOAT8: 701,
  BPCHAR: 1042,
  VARCHAR: 1043,
  DATE: 1082,
  TIME: 1083,
  TIMESTAMP: 1114,
  TIMESTAMPTZ: 1184,
  INTERVAL: 1186,
  TIMETZ: 1266,
  NUMERIC: 1700,
  UUID: 2950,
  JSONB: 3802,
} as const;

const identity = (v: string) => v;

function int8(v: string): number | string {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
}

function finite(v: string): number | null {
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/** `2024-01-02 03:04:05.123+00` (TimeZone is UTC) -> `2024-01-02 03:04:05.123`. */
const stripUtc = (v: string) => v.replace(/\+00(:00)?$/, '');

/** `getTypeParser` for pg's `types` option: text-format values in their JSON-safe shape. */
export function getTypeParser(oid: number, format?: 'text' | 'binary'): (v: string) => unknown {
  if (format === 'binary') return pgLib().types.getTypeParser(oid, format);
  switch (oid) {
    case OID.INT8:
      return int8;
    case OID.FLOAT4:
    case OID.FLOAT8:
    case OID.NUMERIC:
      return finite;
    case OID.DATE:
    case OID.TIMESTAMP:
    case OID.TIME:
    case OID.TIMETZ:
    case OID.INTERVAL:
    case OID.BYTEA:
      return identity;
    case OID.TIMESTAMPTZ:
      return stripUtc;
    default:
      // Booleans, int2/int4, json/jsonb and arrays of them parse as pg does; unknown types stay text.
      return pgLib().types.getTypeParser(oid, 'text');
  }
}

/** Last-resort conversion of anything a parser may still produce (Dates, Buffers, NaN, bigint). */
function toJsonSafe(v: unknown): JsonValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Date)
    return Number.isNaN(v.getTime()) ? null : v.toISOString().replace('T', ' ').replace('Z', '');
  if (Buffer.isBuffer(v)) return `\\x${v.toString('hex')}`;
  if (Array.isArray(v)) return v.map(toJsonSafe);
  if (typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, toJsonSafe(x)]),
    );
  }
  return String(v);
}

/** Converts a row (array mode) in place. Rows from our parsers are already safe except nested values. */
export function rowToJson(row: unknown[]): JsonValue[] {
  for (let i = 0; i < row.length; i++) {
    const v = row[i];
    if (v !== null && typeof v === 'object') row[i] = toJsonSafe(v);
    else if (typeof v === 'number' && !Number.isFinite(v)) row[i] = null;
  }
  return row as JsonValue[];
}

const TYPE_NAMES: Record<number, string> = {
  [OID.BOOL]: 'BOOLEAN',
  [OID.BYTEA]: 'BLOB',
  [OID.INT8]: 'BIGINT',
  [OID.INT2]: 'SMALLINT',
  [OID.INT4]: 'INTEGER',
  [OID.OID]: 'UINTEGER',
  [OID.TEXT]: 'VARCHAR',
  [OID.BPCHAR]: 'VARCHAR',
  [OID.VARCHAR]: 'VARCHAR',
  [OID.JSON]: 'JSON',
  [OID.JSONB]: 'JSON',
  [OID.FLOAT4]: 'FLOAT',
  [OID.FLOAT8]: 'DOUBLE',
  [OID.NUMERIC]: 'DECIMAL',
  [OID.DATE]: 'DATE',
  [OID.TIME]: 'TIME',
  [OID.TIMETZ]: 'TIME WITH TIME ZONE',
  [OID.TIMESTAMP]: 'TIMESTAMP',
  [OID.TIMESTAMPTZ]: 'TIMESTAMP',
  [OID.INTERVAL]: 'INTERVAL',
  [OID.UUID]: 'UUID',
};

/** DuckDB's name for a PostgreSQL column type (what `column_types` reports). */
export const duckTypeName = (oid: number) => TYPE_NAMES[oid] ?? 'VARCHAR';

/**
 * The DuckDB type a column is stored as when PostgreSQL rows are copied into DuckDB for a join,
 * and the type it is loaded through (the appender takes JS numbers, bigints, booleans, strings).
 * Date and time columns arrive as text and are cast once the rows are in.
 */
export function duckStorage(oid: number): {
  load: 'INTEGER' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'VARCHAR';
  cast?: string;
} {
  switch (oid) {
    case OID.INT2:
    case OID.INT4:
      return { load: 'INTEGER' };
    case OID.INT8:
    case OID.OID:
      return { load: 'BIGINT' };
    case OID.FLOAT4:
    case OID.FLOAT8:
    case OID.NUMERIC:
      return { load: 'DOUBLE' };
    case OID.BOOL:
      return { load: 'BOOLEAN' };
    case OID.DATE:
      return { load: 'VARCHAR', cast: 'DATE' };
    case OID.TIMESTAMP:
    case OID.TIMESTAMPTZ:
      return { load: 'VARCHAR', cast: 'TIMESTAMP' };
    case OID.TIME:
      return { load: 'VARCHAR', cast: 'TIME' };
    case OID.JSON:
    case OID.JSONB:
      return { load: 'VARCHAR', cast: 'JSON' };
    default:
      return { load: 'VARCHAR' };
  }
}

/** Characters COPY's text format escapes with a backslash. */
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
};

/** One value in COPY's text format: `\N` for null, objects as JSON, backslash escapes. */
function copyValue(v: JsonValue | undefined): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number') return String(v);
  const s = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return COPY_SPECIAL.test(s) ? s.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]) : s;
}

/**
 * The first `width` values of each row as the data of `COPY ... FROM STDIN` (text format: tab
 * between values, a newline after each row), which PostgreSQL parses into the columns' types as
 * it would cast the same text.
 */
export function copyText(rows: readonly JsonValue[][], width: number): string {
  const lines = new Array<string>(rows.length);
  const cells = new Array<string>(width);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    for (let j = 0; j < width; j++) cells[j] = copyValue(row[j]);
    lines[i] = cells.join('\t');
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
