// The engine's columnar view of input data: one column of cells per name, all of one length.
// Row-major datasets (from SQL rows or tests) and columnar typed arrays (from the training worker)
// both become a Table, so the pipeline reads cells one column at a time.

import type { CellValue, Dataset } from '../api';

/** One column: typed arrays where the source had a single type, plain cells otherwise. */
export type TableColumn =
  /** `nulls[i] = 1` marks a NULL (null when the column has none). */
  | { kind: 'number'; values: Float64Array; nulls: Uint8Array | null }
  /** 0 false, 1 true, 2 NULL. */
  | { kind: 'boolean'; values: Uint8Array }
  /** `codes[i]` indexes `dict`; -1 is NULL. */
  | { kind: 'text'; codes: Int32Array; dict: string[] }
  | { kind: 'mixed'; values: ArrayLike<CellValue> }
  /** Every value NULL. */
  | { kind: 'null' };

export interface Table {
  columns: string[];
  rowCount: number;
  data: TableColumn[];
}

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

/** The cells of `rows` (positions into the column), in that order. */
export function cellsAt(c: TableColumn, rows: ArrayLike<number>): CellValue[] {
  const out = new Array<CellValue>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = cellAt(c, rows[i]);
  return out;
}
