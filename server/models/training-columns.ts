/**
 * Training data in columnar, transferable form. The rows of a FROM query are appended one by one
 * (as chunks arrive from an integration, or from a DuckDB result) into per-column typed arrays:
 * numbers as Float64Array, booleans as Uint8Array, text dictionary-encoded (Int32Array codes and
 * the distinct strings). That is ~8 bytes a numeric cell instead of a boxed JS value in a row
 * array, and the buffers move to the training worker without a copy (a transfer list), where
 * `toDataset` rebuilds the row-major `Dataset` the AutoML engine takes. So the instance never
 * holds the rows twice (main thread + worker) and the structured clone of a million row arrays is
 * gone. A column whose values change type keeps exact values in a plain array ('mixed').
 */
import type { CellValue, Dataset } from '../automl/index';

type TrainingColumn =
  /** `nulls[i] = 1` marks a NULL (null when the column has none). */
  | { kind: 'number'; values: Float64Array; nulls: Uint8Array | null }
  /** 0 false, 1 true, 2 NULL. */
  | { kind: 'boolean'; values: Uint8Array }
  /** `codes[i]` indexes `dict`; -1 is NULL. */
  | { kind: 'text'; codes: Int32Array; dict: string[] }
  | { kind: 'mixed'; values: CellValue[] }
  /** Every value NULL. */
  | { kind: 'null' };

export interface ColumnarDataset {
  columns: string[];
  rowCount: number;
  data: TrainingColumn[];
}

const BOOL_NULL = 2;

function grow<T extends Float64Array | Uint8Array | Int32Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  let cap = Math.max(1024, a.length);
  while (cap < need) cap *= 2;
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}

/** A cell as the engine takes it: lists and structs travel as JSON text. */
function cell(v: unknown): CellValue {
  if (v === undefined) return null;
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  if (typeof v === 'bigint') return v.toString();
  return v as CellValue;
}

class ColumnBuilder {
  private kind: TrainingColumn['kind'] = 'null';
  private n = 0;
  private f64 = new Float64Array(0);
  private u8 = new Uint8Array(0);
  private i32 = new Int32Array(0);
  private nulls: Uint8Array | null = null;
  private dict: string[] = [];
  private codes = new Map<string, number>();
  private mixed: CellValue[] = [];

  push(raw: unknown): void {
    const v = cell(raw);
    const i = this.n++;
    if (this.kind === 'null') {
      if (v === null) return;
      this.start(typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'text', i);
    }
    switch (this.kind) {
      case 'number':
        if (typeof v === 'number') {
          this.f64 = grow(this.f64, i + 1);
          this.f64[i] = v;
          return;
        }
        if (v === null) {
          this.f64 = grow(this.f64, i + 1);
          this.nulls = grow(this.nulls ?? new Uint8Array(0), i + 1);
          this.nulls[i] = 1;
          return;
        }
        break;
      case 'boolean':
        if (typeof v === 'boolean' || v === null) {
          this.u8 = grow(this.u8, i + 1);
          this.u8[i] = v === null ? BOOL_NULL : v ? 1 : 0;
          return;
        }
        break;
      case 'text':
        if (typeof v === 'string' || v === null) {
          this.i32 = grow(this.i32, i + 1);
          this.i32[i] = v === null ? -1 : this.code(v);
          return;
        }
        break;
      case 'mixed':
        this.mixed.push(v);
        return;
      case 'null':
        throw new Error('unreachable: start() above has given the column a type');
    }
    // A value of another type: keep the column's values exactly, as a plain array.
    const mixed: CellValue[] = [];
    for (let k = 0; k < i; k++) mixed.push(this.get(k));
    mixed.push(v);
    this.kind = 'mixed';
    this.mixed = mixed;
    this.f64 = new Float64Array(0);
    this.u8 = new Uint8Array(0);
    this.i32 = new Int32Array(0);
    this.nulls = null;
    this.dict = [];
    this.codes.clear();
  }

  /** Starts a typed column at row `i`, the rows before it NULL. */
  private start(kind: 'number' | 'boolean' | 'text', i: number): void {
    this.kind = kind;
    if (kind === 'number') {
      this.f64 = grow(this.f64, i + 1);
      if (i > 0) {
        this.nulls = grow(new Uint8Array(0), i + 1);
        this.nulls.fill(1, 0, i);
      }
    } else if (kind === 'boolean') {
      this.u8 = grow(this.u8, i + 1);
      this.u8.fill(BOOL_NULL, 0, i);
    } else {
      this.i32 = grow(this.i32, i + 1);
      this.i32.fill(-1, 0, i);
    }
  }

  private code(s: string): number {
    let c = this.codes.get(s);
    if (c === undefined) {
      c = this.dict.length;
      this.dict.push(s);
      this.codes.set(s, c);
    }
    return c;
  }

  private get(k: number): CellValue {
    switch (this.kind) {
      case 'number':
        return this.nulls && k < this.nulls.length && this.nulls[k] ? null : this.f64[k];
      case 'boolean':
        return this.u8[k] === BOOL_NULL ? null : this.u8[k] === 1;
      case 'text':
        return this.i32[k] < 0 ? null : this.dict[this.i32[k]];
      case 'mixed':
        return this.mixed[k];
      default:
        return null;
    }
  }

  get allNull(): boolean {
    return this.kind === 'null' || (this.kind === 'mixed' && this.mixed.every((v) => v === null));
  }

  /** The column, its arrays cut to the row count (own buffers, so each can be transferred). */
  finish(): TrainingColumn {
    const n = this.n;
    switch (this.kind) {
      case 'number': {
        let nulls: Uint8Array | null = null;
        if (this.nulls) {
          nulls = new Uint8Array(n);
          nulls.set(this.nulls.subarray(0, Math.min(n, this.nulls.length)));
        }
        return { kind: 'number', values: this.f64.slice(0, n), nulls };
      }
      case 'boolean':
        return { kind: 'boolean', values: this.u8.slice(0, n) };
      case 'text':
        return { kind: 'text', codes: this.i32.slice(0, n), dict: this.dict };
      case 'mixed':
        return { kind: 'mixed', values: this.mixed };
      default:
        return { kind: 'null' };
    }
  }
}

/** Appends rows (cells as the engine or an integration returns them) into columns. */
export class ColumnarBuilder {
  private readonly cols: ColumnBuilder[];
  rowCount = 0;

  constructor(readonly columns: string[]) {
    this.cols = columns.map(() => new ColumnBuilder());
  }

  push(row: readonly unknown[]): void {
    for (let c = 0; c < this.cols.length; c++) this.cols[c].push(row[c]);
    this.rowCount++;
  }

  /** Whether column `c` is NULL in every row so far. */
  allNull(c: number): boolean {
    return this.cols[c].allNull;
  }

  finish(): ColumnarDataset {
    return {
      columns: this.columns,
      rowCount: this.rowCount,
      data: this.cols.map((c) => c.finish()),
    };
  }
}

/** The buffers to transfer with a dataset (each once). */
export function transferables(d: ColumnarDataset): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const c of d.data) {
    if (c.kind === 'number') {
      out.add(c.values.buffer as ArrayBuffer);
      if (c.nulls) out.add(c.nulls.buffer as ArrayBuffer);
    } else if (c.kind === 'boolean') out.add(c.values.buffer as ArrayBuffer);
    else if (c.kind === 'text') out.add(c.codes.buffer as ArrayBuffer);
  }
  return [...out];
}

/** The row-major `Dataset` the AutoML engine takes. */
export function toDataset(d: ColumnarDataset): Dataset {
  const { rowCount: n, data } = d;
  const rows: CellValue[][] = new Array(n);
  for (let i = 0; i < n; i++) rows[i] = new Array<CellValue>(data.length);
  for (let c = 0; c < data.length; c++) {
    const col = data[c];
    switch (col.kind) {
      case 'number': {
        const { values, nulls } = col;
        for (let i = 0; i < n; i++) rows[i][c] = nulls && nulls[i] ? null : values[i];
        break;
      }
      case 'boolean': {
        const v = col.values;
        for (let i = 0; i < n; i++) rows[i][c] = v[i] === BOOL_NULL ? null : v[i] === 1;
        break;
      }
      case 'text': {
        const { codes, dict } = col;
        for (let i = 0; i < n; i++) rows[i][c] = codes[i] < 0 ? null : dict[codes[i]];
        break;
      }
      case 'mixed':
        for (let i = 0; i < n; i++) rows[i][c] = col.values[i];
        break;
      default:
        for (let i = 0; i < n; i++) rows[i][c] = null;
    }
  }
  return { columns: d.columns, rows };
}
