// Rows grouped by one column, for metrics per group and coverage per segment: each distinct value
// of a category (the most frequent ones; the rest pooled as "other"), or quantile ranges of a
// number, with NULL its own group. Each group also carries the SQL condition that selects it.

import type { CellValue, ColumnarColumn } from '../api';
import { cellAt } from '../data/table';

interface Segment {
  label: string;
  /** A SQL condition on the column selecting exactly this group's rows. */
  where: string;
}

export interface Grouping {
  column: string;
  kind: 'category' | 'range';
  segments: Segment[];
  /** Each row's segment (index into `segments`). */
  of: Int32Array;
}

/** Numbers with more distinct values than this are cut into quantile ranges. */
const MAX_NUMERIC_CATEGORIES = 12;

/** A column name as SQL writes it: bare when it is a plain lower-case word, else in backticks. */
export function sqlIdent(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `\`${name.replace(/`/g, '``')}\``;
}

/** A value as a SQL literal. */
export function sqlLiteral(v: CellValue): string {
  if (v === null) return 'NULL';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'NULL';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return `'${v.replace(/'/g, "''")}'`;
}

/** A number rounded to 4 significant digits for a label or a SQL bound. */
function roundBound(x: number): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  return Number(x.toPrecision(4));
}

/**
 * Groups rows by `column`'s cells: up to `maxGroups` groups (the most frequent values; the others
 * pooled), or for numbers with many values `bins` quantile ranges.
 */
export function groupRows(
  column: string,
  c: ColumnarColumn,
  n: number,
  opts: { maxGroups?: number; bins?: number } = {},
): Grouping {
  const maxGroups = opts.maxGroups ?? 20;
  const id = sqlIdent(column);
  const numbers = numericValues(c, n);
  if (numbers && distinctCount(numbers, MAX_NUMERIC_CATEGORIES + 1) > MAX_NUMERIC_CATEGORIES)
    return rangeGroups(column, id, numbers, opts.bins ?? 5);
  // Distinct values by frequency (NULL apart).
  const counts = new Map<string, { v: CellValue; n: number }>();
  let nulls = 0;
  const keys: (string | null)[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const v = cellAt(c, i);
    if (v === null || (typeof v === 'number' && Number.isNaN(v))) {
      keys[i] = null;
      nulls++;
      continue;
    }
    const k = typeof v === 'string' ? `s${v}` : `v${String(v)}`;
    keys[i] = k;
    const e = counts.get(k);
    if (e) e.n++;
    else counts.set(k, { v, n: 1 });
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1].n - a[1].n || cmp(a[1].v, b[1].v));
  const shown = ranked.length > maxGroups ? ranked.slice(0, maxGroups - 1) : ranked;
  // Numbers and booleans read best in their own order.
  if (ranked.every(([, e]) => typeof e.v !== 'string')) shown.sort((a, b) => cmp(a[1].v, b[1].v));
  const segments: Segment[] = shown.map(([, e]) => ({
    label: String(e.v),
    where: `${id} = ${sqlLiteral(e.v)}`,
  }));
  const index = new Map(shown.map(([k], j) => [k, j]));
  let other = -1;
  if (shown.length < ranked.length) {
    other = segments.length;
    const list = shown.map(([, e]) => sqlLiteral(e.v)).join(', ');
    segments.push({ label: 'other', where: `${id} NOT IN (${list})` });
  }
  const nullSeg = nulls > 0 ? segments.push({ label: 'NULL', where: `${id} IS NULL` }) - 1 : -1;
  const of = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    of[i] = k === null ? nullSeg : (index.get(k) ?? other);
  }
  return { column, kind: 'category', segments, of };
}

function cmp(a: CellValue, b: CellValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A number column's values (NaN for NULL), or null when the column is not numeric. */
export function numericValues(c: ColumnarColumn, n: number): Float64Array | null {
  if (c.kind === 'number') {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = c.nulls && c.nulls[i] ? NaN : c.values[i];
    return out;
  }
  if (c.kind !== 'mixed') return null;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = c.values[i];
    if (v === null) out[i] = NaN;
    else if (typeof v === 'number') out[i] = v;
    else return null;
  }
  return out;
}

function distinctCount(xs: Float64Array, stopAt: number): number {
  const seen = new Set<number>();
  for (const x of xs) {
    if (x === x) seen.add(x);
    if (seen.size >= stopAt) break;
  }
  return seen.size;
}

/** Quantile cut points of the finite values (distinct, ascending; at most bins - 1). */
export function quantileCuts(xs: Float64Array, bins: number): number[] {
  const v = xs.filter((x) => x === x).sort();
  const cuts: number[] = [];
  for (let k = 1; k < bins; k++) {
    const q = roundBound(v[Math.floor((k * v.length) / bins)]);
    if (q > (cuts[cuts.length - 1] ?? -Infinity) && q > v[0]) cuts.push(q);
  }
  return cuts;
}

function rangeGroups(column: string, id: string, xs: Float64Array, bins: number): Grouping {
  const cuts = quantileCuts(xs, bins);
  const segments: Segment[] = [];
  for (let k = 0; k <= cuts.length; k++) {
    const lo = k > 0 ? cuts[k - 1] : null;
    const hi = k < cuts.length ? cuts[k] : null;
    segments.push({
      label: lo === null ? `< ${hi}` : hi === null ? `>= ${lo}` : `${lo} to < ${hi}`,
      where:
        lo === null
          ? `${id} < ${hi}`
          : hi === null
            ? `${id} >= ${lo}`
            : `${id} >= ${lo} AND ${id} < ${hi}`,
    });
  }
  let nullSeg = -1;
  const of = new Int32Array(xs.length);
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    if (x !== x) {
      if (nullSeg < 0) nullSeg = segments.push({ label: 'NULL', where: `${id} IS NULL` }) - 1;
      of[i] = nullSeg;
      continue;
    }
    let k = 0;
    while (k < cuts.length && x >= cuts[k]) k++;
    of[i] = k;
  }
  return { column, kind: 'range', segments, of };
}
