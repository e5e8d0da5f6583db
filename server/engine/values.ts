/**
 * Conversion of DuckDB values to JSON-safe values, by the rules of the wire contract:
 * NULL, NaN and ±Infinity -> null; integers beyond 2^53 -> decimal string (no silent precision
 * loss); DECIMAL -> number; DATE/TIME/TIMESTAMP -> their ISO-like text; lists, structs and maps ->
 * JSON arrays/objects with the same rules applied inside.
 */
import {
  DuckDBTypeId,
  DuckDBDecimalValue,
  type DuckDBDataChunk,
  type DuckDBValueConverter,
  JsonDuckDBValueConverter,
} from '@duckdb/node-api';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };

function safeInteger(value: unknown): number | string {
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  return Number(value);
}

function finiteOrNull(value: unknown): number | null {
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

export const toJsonValue: DuckDBValueConverter<JsonValue> = (value, type, converter) => {
  if (value == null) return null;
  switch (type.typeId) {
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
    case DuckDBTypeId.BIGNUM:
      return safeInteger(value);
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return finiteOrNull(value);
    case DuckDBTypeId.DECIMAL:
      return value instanceof DuckDBDecimalValue ? value.toDouble() : finiteOrNull(value);
    case DuckDBTypeId.TIMESTAMP_TZ: {
      // DuckDB renders with a +00 suffix; keep the documented "YYYY-MM-DD HH:MM:SS[.ffffff]" shape.
      return String(value).replace(/\+00(:00)?$/, '');
    }
    default:
      return JsonDuckDBValueConverter(value, type, converter);
  }
};

/** The JSON size of a value, approximately (strings by length, numbers by digits). */
export function jsonSize(v: JsonValue): number {
  if (v === null) return 4;
  switch (typeof v) {
    case 'string':
      return v.length + 2;
    case 'number':
      return Number.isInteger(v) && Math.abs(v) < 1e15
        ? (v < 0 ? 2 : 1) + (v === 0 ? 0 : Math.floor(Math.log10(Math.abs(v))))
        : 24;
    case 'boolean':
      return 5;
    default:
      return JSON.stringify(v).length;
  }
}

/**
 * Appends the values of a result chunk's columns to `dst` (one array per column), converted as
 * `toJsonValue` converts them, without its per-value dispatch for the plain types (numbers, text,
 * booleans): a scoring batch reads 100k rows of model inputs this way.
 */
export function appendChunkColumns(chunk: DuckDBDataChunk, dst: JsonValue[][]): void {
  const rows = chunk.rowCount;
  for (let j = 0; j < dst.length; j++) {
    const out = dst[j];
    const vector = chunk.getColumnVector(j);
    switch (vector.type.typeId) {
      case DuckDBTypeId.DOUBLE:
      case DuckDBTypeId.FLOAT:
        for (let i = 0; i < rows; i++) {
          const v = vector.getItem(i) as number | null;
          out.push(v !== null && Number.isFinite(v) ? v : null);
        }
        break;
      case DuckDBTypeId.INTEGER:
      case DuckDBTypeId.SMALLINT:
      case DuckDBTypeId.TINYINT:
      case DuckDBTypeId.UINTEGER:
      case DuckDBTypeId.USMALLINT:
      case DuckDBTypeId.UTINYINT:
      case DuckDBTypeId.VARCHAR:
      case DuckDBTypeId.BOOLEAN:
        for (let i = 0; i < rows; i++) out.push(vector.getItem(i) as JsonValue);
        break;
      case DuckDBTypeId.BIGINT:
        for (let i = 0; i < rows; i++) {
          const v = vector.getItem(i);
          out.push(v === null ? null : safeInteger(v));
        }
        break;
      default: {
        const values = chunk.convertColumnValues(j, toJsonValue);
        for (let i = 0; i < rows; i++) out.push(values[i] ?? null);
      }
    }
  }
}
