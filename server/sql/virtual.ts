/**
 * Virtual tables: results the instance computes itself (SHOW DATABASES, SHOW MODELS, the models
 * table...) are turned into a DuckDB `VALUES` relation so that the user's own WHERE / LIKE /
 * ORDER BY / LIMIT apply to them with DuckDB's full semantics instead of a hand-written filter.
 */
import type { JsonValue } from '../engine/values';
import { quoteIdent, quoteString } from './lexer';

export type VirtualType = 'VARCHAR' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP' | 'JSON';

export interface VirtualColumn {
  name: string;
  type: VirtualType;
}

function literal(v: JsonValue, type: VirtualType): string {
  if (v === null || v === undefined) return `CAST(NULL AS ${type === 'JSON' ? 'VARCHAR' : type})`;
  switch (type) {
    case 'BIGINT':
    case 'DOUBLE': {
      const n = Number(v);
      return Number.isFinite(n) ? `CAST(${n} AS ${type})` : `CAST(NULL AS ${type})`;
    }
    case 'BOOLEAN':
      return v ? 'TRUE' : 'FALSE';
    case 'TIMESTAMP':
      return `CAST(${quoteString(String(v))} AS TIMESTAMP)`;
    case 'JSON':
      return `CAST(${quoteString(typeof v === 'string' ? v : JSON.stringify(v))} AS VARCHAR)`;
    default:
      return `CAST(${quoteString(String(v))} AS VARCHAR)`;
  }
}

/** A subquery (without the surrounding parentheses) producing these rows with these columns. */
export function valuesRelation(columns: VirtualColumn[], rows: JsonValue[][]): string {
  if (rows.length === 0) {
    return `SELECT ${columns.map((c) => `${literal(null, c.type)} AS ${quoteIdent(c.name)}`).join(', ')} WHERE FALSE`;
  }
  const body = rows
    .map((r) => `(${columns.map((c, i) => literal(r[i] ?? null, c.type)).join(', ')})`)
    .join(',\n');
  return `SELECT * FROM (VALUES ${body}) AS t(${columns.map((c) => quoteIdent(c.name)).join(', ')})`;
}
