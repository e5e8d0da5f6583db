// The engine's columnar view of input data: one column of cells per name, all of one length.
// Row-major datasets (from SQL rows or tests) and columnar typed arrays (from the training worker)
// both become a Table, so the pipeline reads cells one column at a time.

import type { CellValue, ColumnarColumn, ColumnarData, Dataset } from '../api';
import { AutoMLError } from '../errors';

export type TableColumn = ColumnarColumn;
export type Table = ColumnarData;

const BOOL_NULL = 2;

/** A row-major dataset as columns (each column copied once; the rows are not kept). */
export function tableFromDataset(d: Dataset): Table {
  const rows = d.rows;
  return {
    columns: d.columns,
    rowCount: rows.length,
    data: d.columns.map((_, j) => ({ kind: 'mixed', values: rows.map((r) => r[j]) })),
  };
}

/** The cell of row `r`, as a row-major dataset would hold it. */
export function cellAt(c: TableColumn, r: number): CellValue {
  switch (c.kind) {
    case 'number':
      return c.nulls && c.nulls[r] ? null : c.values[r];
    case 'boolean':
      return c.values[r] === BOOL_NULL ? null : c.values[r] === 1;
    case 'text':
      return c.codes[r] < 0 ? null : c.dict[c.codes[r]];
    case 'mixed':
      return c.values[r];
    default:
      return null;
  }
}

/**
 * The cells of `rows` (positions into the column), in that order: a Float64Array (NaN for NULL)
 * for a number column, so numbers stay unboxed; plain cells otherwise (text cells point at the
 * column's dictionary strings).
 */
export function cellsAt(c: TableColumn, rows: ArrayLike<number>): ArrayLike<CellValue> {
  const n = rows.length;
  if (c.kind === 'number') {
    // Every row kept and no NULLs: the column itself (nothing downstream writes to it).
    if (!c.nulls && n === c.values.length && isIdentity(rows)) return c.values;
    const out = new Float64Array(n);
    const { values, nulls } = c;
    for (let i = 0; i < n; i++) out[i] = nulls && nulls[rows[i]] ? NaN : values[rows[i]];
    return out;
  }
  const out = new Array<CellValue>(n);
  for (let i = 0; i < n; i++) out[i] = cellAt(c, rows[i]);
  return out;
}

/** Checks the shape of columnar input (it may come from another thread or a caller's bug). */
export function validateTable(t: unknown): asserts t is Table {
  const x = t as Partial<Table> | null;
  const ok =
    !!x &&
    Array.isArray(x.columns) &&
    Array.isArray(x.data) &&
    x.data.length === x.columns.length &&
    Number.isInteger(x.rowCount) &&
    x.rowCount! >= 0;
  if (!ok) throw new AutoMLError('training data must have columns and rows');
  for (let j = 0; j < x.data!.length; j++) {
    const c = x.data![j];
    const len =
      c.kind === 'number' || c.kind === 'boolean' || c.kind === 'mixed'
        ? c.values.length
        : c.kind === 'text'
          ? c.codes.length
          : x.rowCount!;
    if (len < x.rowCount!) {
      throw new AutoMLError(
        `training column '${x.columns![j]}' has ${len} values for ${x.rowCount} rows`,
      );
    }
  }
}

function isIdentity(rows: ArrayLike<number>): boolean {
  for (let i = 0; i < rows.length; i++) if (rows[i] !== i) return false;
  return true;
}
