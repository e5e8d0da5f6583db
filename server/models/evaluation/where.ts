/**
 * A WHERE the user wrote, judged on a version's held-out rows: the rows are loaded into a TEMP
 * table of a fresh client session (guarded like any client statement, gone when it closes) and
 * DuckDB says which rows the WHERE keeps. MindsDB's backtick identifiers are read as DuckDB's
 * double-quoted ones, so a slice's own WHERE round-trips.
 */
import { type CellValue, type ColumnarData, cellAt } from '../../automl/index';
import type { Engine } from '../../engine/duckdb';
import { quoteIdent } from '../../engine/quote';
import { loadTempTable, type ScratchType } from '../../engine/scratch';
import type { JsonValue } from '../../engine/values';
import { ServiceError, badInput } from '../../errors';

const ROW = '__evaluation_row';

/** Backtick identifiers as double-quoted ones (outside string literals). */
function duckWhere(where: string): string {
  let out = '';
  let i = 0;
  while (i < where.length) {
    const ch = where[i];
    if (ch === "'") {
      const end = closing(where, i, "'");
      out += where.slice(i, end);
      i = end;
    } else if (ch === '`') {
      const end = closing(where, i, '`');
      const name = where.slice(i + 1, end - 1).replace(/``/g, '`');
      out += quoteIdent(name);
      i = end;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** The index after the quote that closes the one at `start` (doubled quotes escape). */
function closing(s: string, start: number, q: string): number {
  let i = start + 1;
  while (i < s.length) {
    if (s[i] === q) {
      if (s[i + 1] === q) i += 2;
      else return i + 1;
    } else i++;
  }
  throw badInput(`The WHERE has an unterminated ${q === "'" ? 'string' : 'quoted identifier'}`);
}

function scratchType(c: ColumnarData['data'][number]): ScratchType {
  if (c.kind === 'number') return 'DOUBLE';
  if (c.kind === 'boolean') return 'BOOLEAN';
  if (c.kind === 'mixed') {
    const kinds = new Set(Array.from(c.values, (v) => (v === null ? 'null' : typeof v)));
    kinds.delete('null');
    if (kinds.size === 1 && kinds.has('number')) return 'DOUBLE';
    if (kinds.size === 1 && kinds.has('boolean')) return 'BOOLEAN';
  }
  return 'VARCHAR';
}

/** 1 for each held-out row the WHERE keeps. */
export async function whereMask(
  engine: Engine,
  rows: ColumnarData,
  where: string,
): Promise<Uint8Array> {
  const text = where.trim().replace(/;\s*$/, '');
  if (text === '') throw badInput('The WHERE is empty');
  const n = rows.rowCount;
  const columns = [
    { name: ROW, type: 'BIGINT' as ScratchType },
    ...rows.columns.map((name, j) => ({ name, type: scratchType(rows.data[j]) })),
  ];
  const values: JsonValue[][] = [
    Array.from({ length: n }, (_, i) => i),
    ...rows.data.map((c) =>
      Array.from({ length: n }, (_, i): JsonValue => {
        const v: CellValue = cellAt(c, i);
        return typeof v === 'number' && !Number.isFinite(v) ? null : v;
      }),
    ),
  ];
  const mask = new Uint8Array(n);
  await engine.session(
    async (s) => {
      await loadTempTable(s, 'evaluation_rows', columns, values, n);
      let result;
      try {
        result = await s.query(
          `SELECT ${quoteIdent(ROW)} FROM evaluation_rows WHERE (${duckWhere(text)})`,
          { maxRows: n + 1 },
        );
      } catch (err) {
        // The user's SQL is wrong (a column the rows lack, a syntax error): say so as bad input.
        if (err instanceof ServiceError && err.httpStatus < 500)
          throw badInput(`The WHERE cannot be judged on the held-out rows: ${err.message}`);
        throw err;
      }
      if (result.kind !== 'table') throw badInput('The WHERE must select rows');
      for (const r of result.rows) mask[Number(r[0])] = 1;
    },
    { limited: true },
  );
  return mask;
}
